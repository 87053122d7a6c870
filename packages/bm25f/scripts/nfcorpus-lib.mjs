// Shared helpers of the NFCorpus scripts (run after `pnpm build`; they import the built dist/).
// PUBMATCH_SHARED overrides the data folder (default: ../shared/data from the repository root).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  biomedicalAnalyzer,
  createAnalyzerRegistry,
  createSnowballStemmer,
} from '@pubmatch/analysis'
import { buildIndex, openIndex, testCollectionFields } from '@pubmatch/index'
import { readNfcorpusDocs, readQueries } from '@pubmatch/ingest'
import { evaluate, readQrels } from '@pubmatch/eval'
import { createSearcher } from '../dist/index.js'

export const SHARED =
  process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

/** The measures reported everywhere: nDCG@10/20, P@10, R@100, R@1000, MAP (trec_eval -c). */
export const MEASURES = ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map']
export const COLUMNS = ['ndcg_cut_10', 'ndcg_cut_20', 'P_10', 'recall_100', 'recall_1000', 'map']

export async function readCorpus(times = 1) {
  const base = []
  for await (const record of readNfcorpusDocs(join(SHARED, 'nfcorpus/corpus.docs'))) {
    if (record.kind === 'article') base.push(record.article)
  }
  if (times === 1) return base
  const out = []
  for (let k = 0; k < times; k++) for (const a of base) out.push({ ...a, id: `${a.id}#${k}` })
  return out
}

/**
 * Analyzer variants the experiments also try (not built in: registered for the index and the
 * queries): no joined compound forms, and Porter's original 1980 stemmer instead of Porter2.
 */
export const EXTRA_ANALYZERS = createAnalyzerRegistry({
  'biomedical:nojoin': () =>
    biomedicalAnalyzer({ tokenizer: { joinCompounds: false }, name: 'biomedical:nojoin' }),
  'biomedical:porter': () =>
    biomedicalAnalyzer({
      stem: createSnowballStemmer({ language: 'porter' }),
      name: 'biomedical:porter',
    }),
})

/** Builds an index of the articles with `testCollectionFields({ analyzer })` in a temporary folder. */
export async function buildTemporaryIndex(articles, analyzer) {
  const dir = mkdtempSync(join(tmpdir(), 'pubmatch-nfcorpus-'))
  const config = { fields: testCollectionFields({ analyzer }), analyzers: EXTRA_ANALYZERS }
  await buildIndex(articles, dir, config, { forceMergeTo: 1 })
  const reader = await openIndex(dir, { analyzers: EXTRA_ANALYZERS })
  return { reader, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

export async function readSplit(split) {
  const queries = await readQueries(join(SHARED, `nfcorpus/${split}/q-titles.queries`))
  const qrels = await readQrels(join(SHARED, `nfcorpus/${split}/s-3.qrel`))
  return { queries, qrels }
}

/** The searcher the scripts use: plain text, `match: 'any'`, ties in trec_eval order, 1,000 hits. */
export function nfcorpusSearcher(reader, defaults = {}) {
  return createSearcher(reader, {
    match: 'any',
    syntax: 'plain',
    tieBreak: 'idDescending',
    limit: 1000,
    ...defaults,
  })
}

/** Runs every query with `searcher` (per-search `options`) and returns the run. */
export function runQueries(searcher, queries, options = {}) {
  const run = { tag: 'pubmatch', queries: new Map() }
  for (const query of queries) {
    const result = searcher.search(query.text, options)
    run.queries.set(
      query.id,
      result.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank })),
    )
  }
  return run
}

/** Runs every query and evaluates the run (trec_eval -c): the mean of each measure. */
export function runAndEvaluate(searcher, queries, qrels, options = {}) {
  return evaluate(runQueries(searcher, queries, options), qrels, { measures: MEASURES }).mean
}

export const fmt = (value) => value.toFixed(4)
