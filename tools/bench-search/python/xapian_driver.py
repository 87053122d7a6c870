#!/usr/bin/python3
"""Xapian side of @pubmatch/bench-search (driven by src/drivers.ts; keep it minimal).

  xapian_driver.py version
  xapian_driver.py build DOCS.jsonl DB_DIR STOPWORDS.txt
  xapian_driver.py query DB_DIR SPEC.json

Arguments, files and output: anchor_common.py. Xapian comes from Debian's python3-xapian
(it is not on PyPI), so this driver runs under /usr/bin/python3, not the anchors' venv.

Indexing (into DB_DIR.staging, then compacted into DB_DIR, as pubmatch force-merges its
segments; the build time includes the compaction): TermGenerator with the English (Porter2)
stemmer, STEM_SOME (Xapian's default: the word with positions and its Z-prefixed stem), the
stop-word list (Xapian's default strategy: stop words are indexed but not stemmed), title then
abstract as one bag. Weighting: the default BM25Weight(k1 1.2, k2 0, k3 1, b 0.75,
min_normlen 0.5). Queries: QueryParser without operators (flags 0), every word stemmed to its
Z term (STEM_ALL_Z), stop words dropped, the words combined with OP_OR or OP_AND; get_mset
with the cell's limit (its count is an estimate).
"""

import os
import shutil
import sys
import time

import xapian

from anchor_common import (cells_output, cpu_seconds, current_rss_mib, dir_bytes, emit,
                           peak_rss_mib, read_docs, read_queries, read_spec, read_words,
                           run_rounds, write_run)

CONFIG = {
    'fields': 'one bag: title, then abstract (TermGenerator, a position gap between them)',
    'analysis': "TermGenerator: Xapian's word splitter, lower case, Stem('en') (Porter2), "
                'STEM_SOME (the unstemmed word with positions and its Z-prefixed stem)',
    'stopwords': 'index: the PubMed list as stopper (indexed but not stemmed); query: the '
                 "cell's list dropped",
    'scoring': 'BM25Weight(k1 1.2, k2 0, k3 1, b 0.75, min_normlen 0.5)',
    'query': 'QueryParser without operators (flags 0), STEM_ALL_Z, OP_OR (any) or OP_AND (all); '
             'get_mset(0, limit)',
    'count': "get_mset's estimate (no exact count)",
    'build': 'one WritableDatabase, committed, then compacted into one database (in the time)',
}


def stopper_of(path):
    stopper = xapian.SimpleStopper()
    for word in read_words(path):
        stopper.add(word)
    return stopper


def build(docs_path, db_path, stopwords_path):
    stopper = stopper_of(stopwords_path)
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
    for parse, record in read_docs(docs_path):
        parse_seconds += parse
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
    emit({
        'docs': docs,
        'seconds': t2 - t0,
        'parseSeconds': parse_seconds,
        'tailSeconds': t2 - t1,
        'cpuSeconds': cpu_seconds() - cpu0,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(db_path),
        'buildBytes': staging_bytes,
        'segments': 1,
        'version': xapian.version_string(),
        'config': CONFIG,
    })


def query(db_path, spec_path):
    spec = read_spec(spec_path)
    t0 = time.perf_counter()
    db = xapian.Database(db_path)
    open_ms = (time.perf_counter() - t0) * 1000
    rss_after_open = current_rss_mib()
    cells = []
    for c in spec['cells']:
        parser = xapian.QueryParser()
        parser.set_stemmer(xapian.Stem('en'))
        parser.set_stemming_strategy(xapian.QueryParser.STEM_ALL_Z)
        parser.set_stopper(stopper_of(c['stopwords']))
        parser.set_default_op(xapian.Query.OP_AND if c['op'] == 'and' else xapian.Query.OP_OR)
        enquire = xapian.Enquire(db)
        enquire.set_weighting_scheme(xapian.BM25Weight(1.2, 0, 1, 0.75, 0.5))
        cells.append({
            'spec': c,
            'parser': parser,
            'enquire': enquire,
            'queries': read_queries(c['queries']),
            'warmup': read_queries(c['warmup']) if c.get('warmup') else [],
        })

    def mset(cell, text):
        cell['enquire'].set_query(cell['parser'].parse_query(text, 0))
        return cell['enquire'].get_mset(0, cell['spec']['limit'])

    def search(cell, text):
        found = mset(cell, text)
        return found.size(), found.get_matches_estimated()

    run_rounds(cells, spec['rounds'], search)
    for cell in cells:
        if cell['spec'].get('run'):
            write_run(cell['spec']['run'], cell['queries'], lambda text: [
                (m.document.get_data().decode('utf-8'), m.weight) for m in mset(cell, text)
            ], 'xapian')
    emit({
        'openMs': open_ms,
        'rssAfterOpenMiB': rss_after_open,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(db_path),
        'docs': db.get_doccount(),
        'cells': cells_output(cells),
    })


if __name__ == '__main__':
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    if command == 'version' and len(sys.argv) == 2:
        emit({'version': xapian.version_string(), 'config': CONFIG})
    elif command == 'build' and len(sys.argv) == 5:
        build(*sys.argv[2:5])
    elif command == 'query' and len(sys.argv) == 4:
        query(*sys.argv[2:4])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
