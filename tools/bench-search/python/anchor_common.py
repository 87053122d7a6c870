"""What the anchor drivers of @pubmatch/bench-search share (standard library only).

The drivers (xapian_driver.py, tantivy_driver.py, pisa_driver.py) take the same arguments and
print the same JSON (read by src/drivers.ts):

  <driver> version
  <driver> build DOCS.jsonl INDEX_DIR STOPWORDS.txt
  <driver> query INDEX_DIR SPEC.json

DOCS.jsonl: one {"id", "title", "abstract"} per line. STOPWORDS.txt: one word per line (the
lists pubmatch drops). SPEC.json: {"rounds": R, "cells": [{"queries": QUERIES.jsonl,
"warmup": QUERIES.jsonl or null, "stopwords": STOPWORDS.txt, "op": "or"|"and", "limit": 500,
"run": TREC run path or null}]}, QUERIES.jsonl: one {"id", "text"} per line. Each cell's
warm-up queries run once, then every round runs every cell's queries (round-robin, as the
TypeScript side does); "run" writes the cell's hits as a TREC run afterwards.

Every driver prints one JSON object on its last stdout line; all times are measured in the
driver, after its imports (Python's start-up is not in any figure).
"""

import json
import os
import resource
import time


def cpu_seconds():
    # CLOCK_PROCESS_CPUTIME_ID: user + system of every thread, ns resolution (os.times ticks 10 ms)
    return time.process_time()


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def current_rss_mib():
    with open('/proc/self/statm') as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf('SC_PAGE_SIZE') / 2.0**20


def dir_bytes(path, names=None):
    """Bytes of the files directly in `path` (only `names` when given)."""
    return sum(os.path.getsize(os.path.join(path, f)) for f in (names or os.listdir(path)))


def tree_bytes(path):
    """Bytes of every file under `path`."""
    total = 0
    for root, _dirs, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def kind_bytes(path, suffixes):
    """Bytes of the files under `path` whose names end with one of `suffixes`."""
    total = 0
    for root, _dirs, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files if f.endswith(suffixes))
    return total


def read_words(path):
    with open(path, encoding='utf-8') as f:
        return [w for w in (line.strip() for line in f) if w]


def read_queries(path):
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def read_docs(path):
    """Yields (seconds spent parsing the line, record) for each document of DOCS.jsonl."""
    with open(path, encoding='utf-8') as f:
        for line in f:
            p0 = time.perf_counter()
            record = json.loads(line)
            yield time.perf_counter() - p0, record


def read_spec(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def run_rounds(cells, rounds, search):
    """Warm-up, then `rounds` round-robin passes over every cell's queries.

    `cells`: dicts with 'queries' and 'warmup' (lists of {"id", "text"}); `search(cell, text)`
    returns (hits, matches or None). Adds to each cell 'latencies', 'cpu' (ms, every round),
    'empty' (round 1 queries without a hit) and 'matches' (the sum over round 1, or None when
    the engine did not say).
    """
    for cell in cells:
        cell['latencies'] = []
        cell['cpu'] = []
        cell['empty'] = 0
        cell['matches'] = 0
        for q in cell['warmup']:
            search(cell, q['text'])
    for round_ in range(rounds):
        for cell in cells:
            latencies = cell['latencies']
            cpu = cell['cpu']
            for q in cell['queries']:
                c0 = cpu_seconds()
                t = time.perf_counter()
                hits, matches = search(cell, q['text'])
                latencies.append((time.perf_counter() - t) * 1000)
                cpu.append((cpu_seconds() - c0) * 1000)
                if round_ == 0:
                    cell['empty'] += 1 if hits == 0 else 0
                    if matches is None or cell['matches'] is None:
                        cell['matches'] = None
                    else:
                        cell['matches'] += matches


def write_run(path, queries, ranked, tag):
    """Writes a TREC run: `ranked(text)` returns [(external id, score)] best first."""
    with open(path, 'w', encoding='utf-8') as out:
        for q in queries:
            for rank, (docid, score) in enumerate(ranked(q['text'])):
                out.write('%s Q0 %s %d %.17g %s\n' % (q['id'], docid, rank + 1, score, tag))


def cells_output(cells):
    return [{
        'queries': len(cell['queries']),
        'latenciesMs': cell['latencies'],
        'cpuMs': cell['cpu'],
        'matches': cell['matches'],
        'emptyQueries': cell['empty'],
    } for cell in cells]


def emit(value):
    print(json.dumps(value, allow_nan=False), flush=True)
