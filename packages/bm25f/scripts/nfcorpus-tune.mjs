// Parameter tuning of every first-stage ranker on the NFCorpus TRAIN split (2,594 title queries,
// s-3.qrel; trec_eval -c semantics), objective nDCG@10. The dev split is never read here.
// Coordinate ascent over a grid per parameter: starting from the ranker's defaults, each
// parameter in turn takes its best grid value with the others fixed; two rounds. Searches keep
// the top 20 per query (nDCG@10/20 read no deeper). Run after `pnpm build`:
//
//   node scripts/nfcorpus-tune.mjs [--analyzer biomedical] [--rankers bm25f,bm25] [--out file.jsonl]
//
// Prints every configuration tried and the chosen parameters per ranker (a JSON line "CHOSEN").
import { appendFileSync } from 'node:fs'
import {
  buildTemporaryIndex,
  fmt,
  nfcorpusSearcher,
  readCorpus,
  readSplit,
  runAndEvaluate,
} from './nfcorpus-lib.mjs'

const args = process.argv.slice(2)
const arg = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]
}
const analyzer = arg('analyzer', 'biomedical')
const out = arg('out', undefined)
const rankers = arg('rankers', 'bm25f,bestmatch-s1,bm25,xapian,dfr,tfidf').split(',')

/** Per ranker: the parameters searched, as [path, grid] (path into params, e.g. fieldWeights.title). */
const SPACES = {
  bm25f: [
    ['k1', [0.6, 0.9, 1.2, 1.5, 2, 2.5, 3]],
    ['b', [0.4, 0.55, 0.65, 0.75, 0.85, 1]],
    ['fieldWeights.title', [1, 2, 3, 5, 8]],
    ['fieldB.title', [0, 0.25, 0.5, 0.75, 1]],
  ],
  'bestmatch-s1': [
    ['k1', [0.02, 0.05, 0.1, 0.2, 0.3, 0.6, 1.2, 2]],
    ['b', [0, 0.1, 0.25, 0.5, 0.75, 1]],
    ['fieldWeights.title', [0.25, 0.5, 1, 2, 5]],
  ],
  bm25: [
    ['k1', [0.6, 0.9, 1.2, 1.5, 2, 2.5, 3]],
    ['b', [0.4, 0.55, 0.65, 0.75, 0.85, 1]],
  ],
  xapian: [
    ['k1', [0.6, 0.9, 1.2, 1.5, 2, 2.5, 3]],
    ['b', [0.4, 0.55, 0.65, 0.75, 0.85, 1]],
  ],
  dfr: [['c', [0.03, 0.06, 0.12, 0.25, 0.5, 1, 2, 4, 8]]],
  tfidf: [
    ['idf', ['classic', 'smooth']],
    ['norms', ['exact', 'byte315', 'byte4']],
    ['coord', [true, false]],
  ],
}
/** The defaults the search starts from (the scorers' own, written out). */
const DEFAULTS = {
  bm25f: { k1: 1.2, b: 0.75, fieldWeights: { title: 5, mesh: 5 }, fieldB: {} },
  'bestmatch-s1': { k1: 1.2, b: 0.75, fieldWeights: { title: 5, mesh: 5 } },
  bm25: { k1: 1.2, b: 0.75 },
  xapian: { k1: 1.2, b: 0.75 },
  dfr: { c: 1 },
  tfidf: { idf: 'classic', norms: 'exact', coord: true },
}

const withValue = (params, path, value) => {
  const copy = structuredClone(params)
  const keys = path.split('.')
  let target = copy
  for (const key of keys.slice(0, -1)) target = target[key] ??= {}
  target[keys.at(-1)] = value
  return copy
}

const articles = await readCorpus()
const { queries, qrels } = await readSplit('train')
const { reader, dispose } = await buildTemporaryIndex(articles, analyzer)
const searcher = nfcorpusSearcher(reader, { limit: 20 })
const seen = new Map()
const score = (name, params) => {
  const key = JSON.stringify([name, params])
  if (!seen.has(key)) {
    const summary = runAndEvaluate(searcher, queries, qrels, { ranker: { name, params } })
    const result = {
      split: 'train',
      analyzer,
      ranker: { name, params },
      ndcg10: summary.ndcg_cut_10,
      ndcg20: summary.ndcg_cut_20,
    }
    if (out !== undefined) appendFileSync(out, `${JSON.stringify(result)}\n`)
    console.log(analyzer, JSON.stringify({ name, params }), fmt(result.ndcg10), fmt(result.ndcg20))
    seen.set(key, result.ndcg10)
  }
  return seen.get(key)
}
for (const name of rankers) {
  let params = DEFAULTS[name]
  let best = score(name, params)
  const start = best
  for (let round = 0; round < 2; round++) {
    for (const [path, grid] of SPACES[name]) {
      for (const value of grid) {
        const candidate = withValue(params, path, value)
        const value10 = score(name, candidate)
        if (value10 > best + 1e-12) {
          best = value10
          params = candidate
        }
      }
    }
  }
  console.log(
    `CHOSEN ${JSON.stringify({ analyzer, ranker: { name, params }, trainNdcg10: best, trainDefaultNdcg10: start })}`,
  )
}
dispose()
