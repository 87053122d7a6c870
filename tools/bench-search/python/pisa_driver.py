"""PISA side of @pubmatch/bench-search (driven by src/drivers.ts; keep it minimal).

  pisa_driver.py version
  pisa_driver.py build DOCS.jsonl INDEX_DIR STOPWORDS.txt
  pisa_driver.py query INDEX_DIR SPEC.json

Arguments, files and output: anchor_common.py. Runs in the anchors' venv: PISA as compiled
into pyterrier-pisa's wheel (pinned in requirements-anchors.txt), through its extension module
_pisathon, loaded from its file: the package's __init__ would import python-terrier and
pandas (python-terrier starts no JVM on import, and PISA needs none; neither is used here),
and its PisaRetrieve transformer wraps every call in pandas data frames. The calls below are
the ones that transformer makes (PisaIndexer: index; PisaRetrieve: prepare_index, retrieve).

Build: the documents are written as PISA's plain-text collection ("<id> <title> <abstract>",
one per line; input time, left out of docs/s), then _pisathon.index (the forward index, parsed
with PISA's English tokenizer, lower case, Porter2; then inverted; PISA's forward-index builder
needs at least two threads: threads=1 gives one producer and one worker), then prepare_index:
the block-max data of BM25(k1 1.2, b 0.75) in fixed blocks of 64 postings and the index
compressed as block_simdbp (pyterrier-pisa's defaults). The forward index and the uncompressed
inverted index are then deleted (their bytes are reported as build bytes); the index is what
a query needs: the compressed postings, the block-max data and the term and document lexicons
(fwd.terms, the term lexicon as text, is kept for the driver's AND check below and not counted).

Stop words: PISA indexes every word, so they count in document lengths (as in Xapian). At
query time the driver drops the cell's stop words from the query's words (PISA's tokenizer,
lower case, before stemming, as Xapian's and tantivy's stop filters do), inside the timed call:
PISA's own stop list drops every word whose stem is a stop word's stem ("used" would drop
"use" and "uses").

Scoring: PISA's BM25 with k1 1.2 and b 0.75: idf = max(1e-6, ln((N - n + 0.5)/(n + 0.5))) (no
"1 +": a term in more than half the documents adds almost nothing), times (k1 + 1), times
tf/(tf + k1 (1 - b + b dl/avgdl)); single-precision floats; no quantisation.

Queries: PISA's English tokenizer and Porter2 on the query text, stop words dropped, then
block_max_maxscore (any; the same family as pubmatch's block-max MaxScore) or
block_max_ranked_and (all), top k with one thread; the timed call returns the hits with their
external ids (PISA looks them up in its document lexicon). PISA does not count matches. PISA
drops query terms that are not in its lexicon, which turns an AND with an unknown word into
the AND of the others: for AND cells the driver stems the query words (pisathon.tokenize) and
answers no hit when one is not in the lexicon (a set lookup of the queries' terms, collected
from fwd.terms before the clock starts), inside the timed call.
"""

import contextlib
import glob
import importlib.util
import json
import os
import shutil
import sys
import time
from importlib.metadata import version as package_version

from anchor_common import (cells_output, cpu_seconds, current_rss_mib, dir_bytes, emit,
                           peak_rss_mib, read_docs, read_queries, read_spec, read_words,
                           run_rounds, tree_bytes, write_run)

K1 = 1.2
B = 0.75
STEMMER = 'porter2'
ENCODING = 'block_simdbp'
BLOCK_SIZE = 64
BATCH_SIZE = 100_000
ALGORITHMS = {'or': 'block_max_maxscore', 'and': 'block_max_ranked_and'}
SETTINGS = 'pisa.json'
TERMS = 'fwd.terms'
CONFIG = {
    'fields': 'one bag: "<title> <abstract>" as one plain-text document',
    'analysis': "PISA's English tokenizer, lower case, Porter2 (index and query); no positions",
    'stopwords': "index: none (every word indexed and counted in lengths); query: the cell's "
                 "list dropped before stemming (PISA's tokenizer, lower case)",
    'scoring': 'BM25 k1 1.2, b 0.75, idf max(1e-6, ln((N - n + 0.5)/(n + 0.5))), float32, '
               'not quantised',
    'query': 'block_max_maxscore (any) or block_max_ranked_and (all), top k, 1 thread; '
             'hits with external ids; all: no hit when a word is not in the lexicon (PISA '
             'would drop it; checked by the driver)',
    'count': 'off (PISA does not count matches)',
    'build': 'forward index (threads=1: a producer and a worker), inverted, block-max data in '
             'blocks of 64, compressed as block_simdbp; intermediate files then deleted',
}


def load_pisathon():
    spec = importlib.util.find_spec('pyterrier_pisa')
    if spec is None or not spec.submodule_search_locations:
        raise ImportError('pyterrier_pisa is not installed')
    path = glob.glob(os.path.join(spec.submodule_search_locations[0], '_pisathon*.so'))
    if not path:
        raise ImportError('pyterrier_pisa has no _pisathon extension module')
    module_spec = importlib.util.spec_from_file_location('_pisathon', path[0])
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


pisathon = load_pisathon()


def version():
    return package_version('pyterrier-pisa')


def known_terms(index_dir, terms):
    """The terms of `terms` that are in the index's lexicon (fwd.terms, one term per line)."""
    with open(os.path.join(index_dir, TERMS), encoding='utf-8') as f:
        return frozenset(t for t in (line.rstrip('\n') for line in f) if t in terms)


@contextlib.contextmanager
def stderr_to(path):
    """Sends file descriptor 2 (PISA's log lines and progress bars) to `path` meanwhile."""
    sys.stderr.write('PISA logs to %s\n' % path)
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, 'wb') as log:
        os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def query_files(settings):
    scorer = 'bm25.k1-%s.b-%s' % (settings['k1'], settings['b'])
    wand = '%s.q0.bmw.%d' % (scorer, settings['blockSize'])
    return [wand, '%s.%s' % (wand, settings['encoding']), 'fwd.termlex', 'fwd.doclex', SETTINGS]


def prepare(index_dir, settings):
    context = pisathon.RetrievalContext()
    pisathon.prepare_index(context, index_dir, settings['encoding'], 'bm25', settings['stemmer'],
                           block_size=settings['blockSize'], quantize=0, bm25_k1=settings['k1'],
                           bm25_b=settings['b'])
    return context


def build(docs_path, index_dir, _stopwords_path):
    shutil.rmtree(index_dir, ignore_errors=True)
    os.makedirs(index_dir)
    collection = index_dir + '.collection.txt'
    docs = 0
    cpu0 = cpu_seconds()
    t0 = time.perf_counter()
    with open(collection, 'w', encoding='utf-8') as out:
        for _parse, record in read_docs(docs_path):
            text = ('%s %s' % (record['title'], record['abstract'])).replace('\n', ' ').replace('\r', ' ')
            out.write('%s %s\n' % (record['id'], text))
            docs += 1
    settings = {'k1': K1, 'b': B, 'stemmer': STEMMER, 'encoding': ENCODING, 'blockSize': BLOCK_SIZE,
                'docs': docs}
    with stderr_to(index_dir + '.log'):
        t1 = time.perf_counter()
        pisathon.index(collection, index_dir, STEMMER, BATCH_SIZE, 1)
        t2 = time.perf_counter()
        prepare(index_dir, settings)
        t3 = time.perf_counter()
    with open(os.path.join(index_dir, SETTINGS), 'w', encoding='utf-8') as f:
        json.dump(settings, f)
    cpu = cpu_seconds() - cpu0
    build_bytes = tree_bytes(index_dir)
    keep = set(query_files(settings)) | {TERMS}
    for name in os.listdir(index_dir):
        if name not in keep:
            os.remove(os.path.join(index_dir, name))
    os.remove(collection)
    emit({
        'docs': docs,
        'seconds': t3 - t0,
        'parseSeconds': t1 - t0,
        'tailSeconds': t3 - t2,
        'cpuSeconds': cpu,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(index_dir, query_files(settings)),
        'buildBytes': build_bytes,
        'segments': 1,
        'version': version(),
        'config': CONFIG,
    })


def query(index_dir, spec_path):
    spec = read_spec(spec_path)
    with open(os.path.join(index_dir, SETTINGS), encoding='utf-8') as f:
        settings = json.load(f)
    import numpy as np
    t0 = time.perf_counter()
    context = prepare(index_dir, settings)
    open_ms = (time.perf_counter() - t0) * 1000
    rss_after_open = current_rss_mib()
    cells = []
    for c in spec['cells']:
        cells.append({
            'spec': c,
            'stopwords': frozenset(read_words(c['stopwords'])),
            'algorithm': ALGORITHMS[c['op']],
            'queries': read_queries(c['queries']),
            'warmup': read_queries(c['warmup']) if c.get('warmup') else [],
        })

    def words(cell, text):
        stop = cell['stopwords']
        return ' '.join(w for w in pisathon.tokenize(text, '') if w not in stop)

    # PISA drops query terms its lexicon does not have, so its ranked AND of a known and an
    # unknown word would match the known word's documents: AND cells look their terms up in
    # the query terms found in the lexicon (collected here, untimed) and answer nothing when
    # one is missing, as tantivy and Xapian do.
    stems = {stem for cell in cells if cell['spec']['op'] == 'and'
             for q in cell['queries'] + cell['warmup']
             for stem in pisathon.tokenize(words(cell, q['text']), settings['stemmer'])}
    known = known_terms(index_dir, stems)

    def retrieve(cell, text):
        text = words(cell, text)
        k = cell['spec']['limit']
        if cell['spec']['op'] == 'and' and not all(
                stem in known for stem in pisathon.tokenize(text, settings['stemmer'])):
            return 0, [], []
        docnos = np.empty(k, dtype=object)
        scores = np.empty(k, dtype=np.float32)
        size = pisathon.retrieve(context, cell['algorithm'], [(0, text)], k=k, threads=1,
                                 pretokenised=False, query_weighted=0,
                                 result_qidxs=np.empty(k, dtype=np.int32), result_docnos=docnos,
                                 result_ranks=np.empty(k, dtype=np.int32), result_scores=scores)
        return size, docnos, scores

    def search(cell, text):
        return retrieve(cell, text)[0], None

    run_rounds(cells, spec['rounds'], search)
    for cell in cells:
        if cell['spec'].get('run'):
            def ranked(text, cell=cell):
                size, docnos, scores = retrieve(cell, text)
                return [(docnos[i], float(scores[i])) for i in range(size)]
            write_run(cell['spec']['run'], cell['queries'], ranked, 'pisa')
    emit({
        'openMs': open_ms,
        'rssAfterOpenMiB': rss_after_open,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': dir_bytes(index_dir, query_files(settings)),
        'docs': settings['docs'],
        'cells': cells_output(cells),
    })


if __name__ == '__main__':
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    if command == 'version' and len(sys.argv) == 2:
        emit({'version': version(), 'config': CONFIG})
    elif command == 'build' and len(sys.argv) == 5:
        build(*sys.argv[2:5])
    elif command == 'query' and len(sys.argv) == 4:
        query(*sys.argv[2:4])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
