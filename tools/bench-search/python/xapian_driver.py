#!/usr/bin/python3
"""Xapian side of @pubmatch/bench-search (driven by src/xapian.ts; keep it minimal).

  xapian_driver.py build DOCS.jsonl DB_DIR STOPWORDS.txt
  xapian_driver.py query DB_DIR SPEC.json

DOCS.jsonl: one {"id", "title", "abstract"} per line. STOPWORDS.txt: one word per line (the
lists pubmatch drops). SPEC.json: {"rounds": R, "cells": [{"queries": QUERIES.jsonl,
"warmup": QUERIES.jsonl or null, "stopwords": STOPWORDS.txt, "op": "or"|"and", "limit": 500,
"run": TREC run path or null}]}, QUERIES.jsonl: one {"id", "text"} per line. Each cell's
warm-up queries run once, then every round runs every cell's queries (round-robin, as the
TypeScript side does); "run" writes the cell's hits as a TREC run afterwards.

Indexing (into DB_DIR.staging, then compacted into DB_DIR, as pubmatch force-merges its
segments; the build time includes the compaction): TermGenerator with the English (Porter2) stemmer, STEM_SOME (Xapian's default: the
word with positions and its Z-prefixed stem), the stop-word list (Xapian's default strategy:
stop words are indexed but not stemmed), title then abstract as one bag. Weighting: the default
BM25Weight(k1 1.2, k2 0, k3 1, b 0.75, min_normlen 0.5). Queries: QueryParser without
operators (flags 0), every word stemmed to its Z term (STEM_ALL_Z), stop words dropped, the
words combined with OP_OR or OP_AND.

Prints one JSON object on its last stdout line; all times are measured here.
"""

import json
import os
import resource
import shutil
import sys
import time

import xapian


def cpu_seconds():
    # CLOCK_PROCESS_CPUTIME_ID: user + system of every thread, ns resolution (os.times ticks 10 ms)
    return time.process_time()


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def current_rss_mib():
    with open('/proc/self/statm') as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf('SC_PAGE_SIZE') / 2.0**20


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def read_stopwords(path):
    stopper = xapian.SimpleStopper()
    with open(path, encoding='utf-8') as f:
        for line in f:
            word = line.strip()
            if word:
                stopper.add(word)
    return stopper


def read_queries(path):
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def build(docs_path, db_path, stopwords_path):
    stopper = read_stopwords(stopwords_path)
    staging = db_path + '.staging'
    for path in (staging, db_path):
        shutil.rmtree(path, ignore_errors=True)
    db = xapian.WritableDatabase(staging, xapian.DB_CREATE_OR_OVERWRITE)
    generator = xapian.TermGenerator()
    generator.set_stemmer(xapian.Stem('en'))
    generator.set_stopper(stopper)
    parse_seconds = 0.0
    docs = 0
    cpu0 = cpu_seconds()
    t0 = time.perf_counter()
    with open(docs_path, encoding='utf-8') as f:
        for line in f:
            p0 = time.perf_counter()
            record = json.loads(line)
            parse_seconds += time.perf_counter() - p0
            doc = xapian.Document()
            generator.set_document(doc)
            generator.index_text(record['title'])
            generator.increase_termpos()
            generator.index_text(record['abstract'])
            doc.set_data(record['id'])
            idterm = 'Q' + record['id']
            doc.add_boolean_term(idterm)
            db.replace_document(idterm, doc)
            docs += 1
    db.commit()
    db.close()
    t1 = time.perf_counter()
    staging_bytes = dir_bytes(staging)
    # Compaction into one tightly packed database: the counterpart of pubmatch's forceMerge.
    xapian.Database(staging).compact(db_path)
    shutil.rmtree(staging)
    t2 = time.perf_counter()
    print(json.dumps({
        'docs': docs,
        'seconds': t2 - t0,
        'compactSeconds': t2 - t1,
        'uncompactedBytes': staging_bytes,
        'parseSeconds': parse_seconds,
        'cpuSeconds': cpu_seconds() - cpu0,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(db_path),
        'xapian': xapian.version_string(),
    }))


def query(db_path, spec_path):
    with open(spec_path, encoding='utf-8') as f:
        spec = json.load(f)
    t0 = time.perf_counter()
    db = xapian.Database(db_path)
    open_ms = (time.perf_counter() - t0) * 1000
    rss_after_open = current_rss_mib()
    cells = []
    for c in spec['cells']:
        parser = xapian.QueryParser()
        parser.set_stemmer(xapian.Stem('en'))
        parser.set_stemming_strategy(xapian.QueryParser.STEM_ALL_Z)
        parser.set_stopper(read_stopwords(c['stopwords']))
        parser.set_default_op(xapian.Query.OP_AND if c['op'] == 'and' else xapian.Query.OP_OR)
        enquire = xapian.Enquire(db)
        enquire.set_weighting_scheme(xapian.BM25Weight(1.2, 0, 1, 0.75, 0.5))
        cells.append({
            'spec': c,
            'parser': parser,
            'enquire': enquire,
            'queries': read_queries(c['queries']),
            'warmup': read_queries(c['warmup']) if c.get('warmup') else [],
            'latencies': [],
            'cpu': [],
            'matches': 0,
            'empty': 0,
        })

    def search(cell, text):
        cell['enquire'].set_query(cell['parser'].parse_query(text, 0))
        return cell['enquire'].get_mset(0, cell['spec']['limit'])

    for cell in cells:
        for q in cell['warmup']:
            search(cell, q['text'])
    for round_ in range(spec['rounds']):
        for cell in cells:
            for q in cell['queries']:
                c0 = cpu_seconds()
                t = time.perf_counter()
                mset = search(cell, q['text'])
                cell['latencies'].append((time.perf_counter() - t) * 1000)
                cell['cpu'].append((cpu_seconds() - c0) * 1000)
                if round_ == 0:
                    cell['matches'] += mset.get_matches_estimated()
                    cell['empty'] += 1 if mset.size() == 0 else 0
    for cell in cells:
        run = cell['spec'].get('run')
        if run:
            with open(run, 'w', encoding='utf-8') as out:
                for q in cell['queries']:
                    for m in search(cell, q['text']):
                        out.write('%s Q0 %s %d %.17g xapian\n' % (
                            q['id'], m.document.get_data().decode('utf-8'), m.rank + 1, m.weight))
    print(json.dumps({
        'openMs': open_ms,
        'rssAfterOpenMiB': rss_after_open,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(db_path),
        'docs': db.get_doccount(),
        'cells': [{
            'queries': len(cell['queries']),
            'latenciesMs': cell['latencies'],
            'cpuMs': cell['cpu'],
            'matchesEstimated': cell['matches'],
            'emptyQueries': cell['empty'],
        } for cell in cells],
    }))


if __name__ == '__main__':
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    if command == 'build' and len(sys.argv) == 5:
        build(*sys.argv[2:5])
    elif command == 'query' and len(sys.argv) == 4:
        query(*sys.argv[2:4])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
