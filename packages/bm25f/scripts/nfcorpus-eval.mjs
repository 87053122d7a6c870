// NFCorpus end to end on the DEV split: corpus.docs (readNfcorpusDocs) → buildIndex with
// testCollectionFields({ analyzer }) → dev title queries (readQueries; plain text, match 'any',
// 1,000 hits, ties in trec_eval order) → evaluate with s-3.qrel (trec_eval -c): nDCG@10/20, P@10,
// R@100, R@1000, MAP. Run after `pnpm build`:
//
//   node scripts/nfcorpus-eval.mjs            every ranker, default and tuned parameters, plus
//                                             the ablations and the reference setting
//   node scripts/nfcorpus-eval.mjs --quick    the default first stage only
//
// Tuned parameters come from scripts/nfcorpus-tuned.json (chosen on TRAIN by nfcorpus-tune.mjs).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { evaluate } from '@pubmatch/eval'
import {
  COLUMNS,
  MEASURES,
  SHARED,
  buildTemporaryIndex,
  fmt,
  nfcorpusSearcher,
  readCorpus,
  readSplit,
  runAndEvaluate,
  runQueries,
} from './nfcorpus-lib.mjs'

const quick = process.argv.includes('--quick')
const tuned = JSON.parse(readFileSync(new URL('./nfcorpus-tuned.json', import.meta.url), 'utf8'))
const RANKERS = ['bm25f', 'bestmatch-s1', 'bm25', 'xapian', 'dfr', 'tfidf']

const articles = await readCorpus()
const { queries, qrels } = await readSplit('dev')
const header = `| setting | ${COLUMNS.join(' | ')} |\n|---|${COLUMNS.map(() => '---:').join('|')}|`
const row = (name, summary) => `| ${name} | ${COLUMNS.map((c) => fmt(summary[c])).join(' | ')} |`

const { reader, dispose } = await buildTemporaryIndex(articles, tuned.analyzer)
const searcher = nfcorpusSearcher(reader)
console.log(`## Dev (${queries.length} queries), index analyzer \`${tuned.analyzer}\`\n`)
console.log(header)
console.log(row('default first stage (DEFAULT_RANKER)', runAndEvaluate(searcher, queries, qrels)))
if (!quick) {
  for (const name of RANKERS) {
    console.log(
      row(
        `${name}, default parameters`,
        runAndEvaluate(searcher, queries, qrels, { ranker: name }),
      ),
    )
    const params = tuned.rankers[name]
    console.log(
      row(
        `${name}, tuned on train ${JSON.stringify(params)}`,
        runAndEvaluate(searcher, queries, qrels, { ranker: { name, params } }),
      ),
    )
  }
  console.log(
    row(
      'bm25f, question stop words off',
      runAndEvaluate(searcher, queries, qrels, { queryStopwords: false }),
    ),
  )
  console.log(
    row(
      'bm25f, joined compound forms scored',
      runAndEvaluate(searcher, queries, qrels, { joinedForms: true }),
    ),
  )
}
dispose()

if (!quick) {
  // Other index analyzers with the default ranker.
  console.log(`\n## Dev, other index analyzers (default ranker)\n`)
  console.log(header)
  for (const analyzer of ['biomedical:nostem', 'whitespace:stem', 'whitespace']) {
    const other = await buildTemporaryIndex(articles, analyzer)
    console.log(
      row(`\`${analyzer}\``, runAndEvaluate(nfcorpusSearcher(other.reader), queries, qrels)),
    )
    other.dispose()
  }

  // The reference setting: whitespace tokens, the reference's normalised query tokens, no extra stop words.
  console.log(`\n## Dev, reference tokenisation (whitespace index, dev_query_tokens.tsv)\n`)
  console.log(header)
  const tokens = readFileSync(join(SHARED, 'reference/nfcorpus-bm25/dev_query_tokens.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [id, text] = line.split('\t')
      return { id, text: text ?? '' }
    })
    // A query whose tokens were all removed (e.g. "what is it ?") retrieves nothing (it still
    // counts in the means: trec_eval -c).
    .filter((query) => query.text.trim() !== '')
  const reference = await buildTemporaryIndex(articles, 'whitespace')
  const plain = nfcorpusSearcher(reference.reader, { queryStopwords: false })
  for (const [name, ranker] of [
    ['bestmatch (S1 as written)', { name: 'bestmatch-s1' }],
    ['rz-rsj', { name: 'bm25f', params: { idf: 'rsj' } }],
    ['rz-lucene', { name: 'bm25f' }],
    ['bm25-lucene', { name: 'bm25' }],
    ['xapian', { name: 'xapian' }],
  ]) {
    const run = runQueries(plain, tokens, { ranker })
    console.log(row(name, evaluate(run, qrels, { measures: MEASURES }).mean))
  }
  reference.dispose()
}
