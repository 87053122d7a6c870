"""tantivy side of @pubmatch/bench-search (driven by src/drivers.ts; keep it minimal).

  tantivy_driver.py version
  tantivy_driver.py build DOCS.jsonl INDEX_DIR STOPWORDS.txt
  tantivy_driver.py query INDEX_DIR SPEC.json

Arguments, files and output: anchor_common.py. Runs in the anchors' venv (tantivy from PyPI,
pinned in requirements-anchors.txt).

Schema: "id" (raw tokenizer, stored; the run's external ids) and "text", one bag: title and
abstract added as two values of the same field (the analyzer below, frequencies and positions
indexed, as pubmatch and Xapian keep positions). Analyzer: Tokenizer.simple() (splits on
non-alphanumeric characters), remove_long(40), lowercase, custom_stopword(STOPWORDS.txt),
stemmer('english') (Snowball English, i.e. Porter2): tantivy's "en_stem" with the PubMed stop
words added, so stop words are not indexed and do not count in a document's length. One
IndexWriter with one indexing thread and a 1 GB memory budget, committed, then
wait_merging_threads() (tantivy's default log merge policy; the Python API cannot force-merge,
so the segments left are reported).

Scoring: tantivy's BM25, k1 1.2 and b 0.75 fixed in tantivy (not settable), idf
ln(1 + (N - n + 0.5)/(n + 0.5)), document lengths stored as one-byte field norms (exact up to
about 40 tokens, coarser above), the sum over the query's terms.

Queries: the query analyzer (the same chain with the cell's stop words) turns the text into
terms, each a TermQuery on "text", combined in a BooleanQuery: Should (any) or Must (all), no
query syntax. Searcher.search(query, limit, count=False): top-k without counting the matches,
so a disjunction runs tantivy's block-max WAND; one thread. Hits are (score, DocAddress): the
timed call does not fetch the stored ids (as Xapian's get_mset does not read document data);
the run files read them afterwards. Matches per query are counted after the timed rounds
(count=True, limit 1), outside every figure.
"""

import os
import shutil
import sys
import time
from importlib.metadata import version as package_version

import tantivy

from anchor_common import (cells_output, cpu_seconds, current_rss_mib, emit, peak_rss_mib,
                           read_docs, read_queries, read_spec, read_words, run_rounds,
                           kind_bytes, tree_bytes, write_run)

TOKENIZER = 'pubmed_en'
HEAP_BYTES = 1_000_000_000
CONFIG = {
    'fields': 'one bag "text": title and abstract as two values of the field; "id" raw, stored',
    'analysis': 'Tokenizer.simple() (splits on non-alphanumerics), remove_long(40), lowercase, '
                "stop words, stemmer('english') (Porter2): en_stem plus stop words; positions kept",
    'stopwords': "index: the PubMed list (not indexed, not counted in lengths); query: the "
                 "cell's list",
    'scoring': 'BM25, k1 1.2, b 0.75 (fixed in tantivy), one-byte length norms',
    'query': 'analysed terms as TermQuery, BooleanQuery of Should (any) or Must (all); '
             'search(limit, count=False), hits without stored ids',
    'count': 'off (count=False: block-max WAND top-k); matches counted after the timed rounds',
    'build': 'one IndexWriter, 1 indexing thread, 1 GB budget, commit, wait_merging_threads '
             '(default merge policy, no force-merge in the Python API)',
}


def analyzer(stopwords):
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.remove_long(40))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.custom_stopword(stopwords))
            .filter(tantivy.Filter.stemmer('english'))
            .build())


def schema():
    builder = tantivy.SchemaBuilder()
    builder.add_text_field('id', stored=True, tokenizer_name='raw', index_option='basic')
    builder.add_text_field('text', tokenizer_name=TOKENIZER, index_option='position')
    return builder.build()


def version():
    return package_version('tantivy')


def build(docs_path, index_dir, stopwords_path):
    shutil.rmtree(index_dir, ignore_errors=True)
    os.makedirs(index_dir)
    index = tantivy.Index(schema(), path=index_dir, reuse=False)
    index.register_tokenizer(TOKENIZER, analyzer(read_words(stopwords_path)))
    parse_seconds = 0.0
    docs = 0
    cpu0 = cpu_seconds()
    t0 = time.perf_counter()
    writer = index.writer(heap_size=HEAP_BYTES, num_threads=1)
    for parse, record in read_docs(docs_path):
        parse_seconds += parse
        doc = tantivy.Document()
        doc.add_text('id', record['id'])
        doc.add_text('text', record['title'])
        doc.add_text('text', record['abstract'])
        writer.add_document(doc)
        docs += 1
    t1 = time.perf_counter()
    writer.commit()
    writer.wait_merging_threads()
    t2 = time.perf_counter()
    cpu = cpu_seconds() - cpu0
    index.reload()
    emit({
        'docs': docs,
        'seconds': t2 - t0,
        'parseSeconds': parse_seconds,
        'tailSeconds': t2 - t1,
        'cpuSeconds': cpu,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': tree_bytes(index_dir),
        'postingsBytes': kind_bytes(index_dir, ('.idx', '.pos')),
        'storedBytes': kind_bytes(index_dir, ('.store',)),
        'segments': index.searcher().num_segments,
        'version': version(),
        'config': CONFIG,
    })


def query(index_dir, spec_path):
    spec = read_spec(spec_path)
    t0 = time.perf_counter()
    index = tantivy.Index.open(index_dir)
    searcher = index.searcher()
    open_ms = (time.perf_counter() - t0) * 1000
    rss_after_open = current_rss_mib()
    fields = index.schema
    cells = []
    for c in spec['cells']:
        cells.append({
            'spec': c,
            'analyzer': analyzer(read_words(c['stopwords'])),
            'occur': tantivy.Occur.Must if c['op'] == 'and' else tantivy.Occur.Should,
            'queries': read_queries(c['queries']),
            'warmup': read_queries(c['warmup']) if c.get('warmup') else [],
        })

    def parse(cell, text):
        occur = cell['occur']
        return tantivy.Query.boolean_query([
            (occur, tantivy.Query.term_query(fields, 'text', term))
            for term in cell['analyzer'].analyze(text)
        ])

    def search(cell, text):
        found = searcher.search(parse(cell, text), cell['spec']['limit'], count=False)
        return len(found.hits), None

    run_rounds(cells, spec['rounds'], search)
    for cell in cells:
        cell['matches'] = sum(searcher.search(parse(cell, q['text']), 1, count=True).count
                              for q in cell['queries'])
        if cell['spec'].get('run'):
            write_run(cell['spec']['run'], cell['queries'], lambda text: [
                (searcher.doc(address)['id'][0], score)
                for score, address in searcher.search(parse(cell, text), cell['spec']['limit'],
                                                      count=False).hits
            ], 'tantivy')
    emit({
        'openMs': open_ms,
        'rssAfterOpenMiB': rss_after_open,
        'peakRssMiB': peak_rss_mib(),
        'indexBytes': tree_bytes(index_dir),
        'docs': searcher.num_docs,
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
