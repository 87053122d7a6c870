/**
 * What a Best Match model would lose if it reranked inside Solr (its LTR module) with only the
 * features Solr's stock feature classes can compute: NFCorpus, two LambdaMART models trained the
 * same way (train queries at depth 100, dev for early stopping, LightGBM defaults, seed fixed),
 * one on all 179 features and one on the Solr-computable 147 (F1–F143, F176–F179), both reranking
 * the embedded first stage's top 500 for the 325 dev queries, evaluated as trec_eval -c.
 *
 * Solr-computable: F1 year (FieldValueFeature), F2–F3 past usage (FieldValueFeature of indexed
 * counts), F4–F77 publication types and F80–F140 languages (SolrFeature filter queries), F78–F79
 * field lengths (FieldLengthFeature; Lucene keeps them in one byte, so this is generous), F141–F142
 * stop-word ratios (FieldValueFeature of fields computed at index time), F143 the first-stage
 * score (OriginalScoreFeature), F176–F179 query-level counts (ValueFeature from external feature
 * information the client computes). Not computable with a fixed feature store: F144–F175, the
 * query-document features over query terms (coverage, match positions, the 19 span features,
 * match counts, IDF sums), which depend on the number of query terms and on token positions.
 *
 *   node dist/solr-features.js [--shared …] [--dir .cache/nfcorpus]   (after bench:nfcorpus built the index)
 */
import { writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Run } from '@pubmatch/core'
import { featureSet, openSearch, readLabelledQueries } from '@pubmatch/engine'
import { compareRuns, evaluate, formatTable, readQrels, type EvaluationResult } from '@pubmatch/eval'
import { loadLightGbm, parseLightGbmModel, scoreRows } from '@pubmatch/lightgbm-wasm'
import type { TrainingSet } from '@pubmatch/ltr'
import { selectFeatures, trainRanker } from '@pubmatch/ltr/internal'

/** 0-based columns of the features Solr's LTR module can compute (F1–F143, F176–F179). */
export const SOLR_COLUMNS: readonly number[] = [...Array.from({ length: 143 }, (_, i) => i), 175, 176, 177, 178]

/**
 * A TREC run from scored rows: each query's rows ordered by score (ties: first-stage rank).
 * @param set - the rows
 * @param scores - one score per row
 */
export function runOf(set: TrainingSet, scores: Float64Array): Run {
  const run: Run = { tag: 'rerank', queries: new Map() }
  let start = 0
  for (const [g, size] of set.groups.entries()) {
    const rows = Array.from({ length: size }, (_, i) => start + i)
    rows.sort((a, b) => scores[b]! - scores[a]! || set.firstStageRanks[a]! - set.firstStageRanks[b]!)
    run.queries.set(set.queryIds[g]!, rows.map((row, i) => ({ docId: set.docIds[row]!, score: rows.length - i, rank: i + 1 })))
    start += size
  }
  return run
}

const main = async (): Promise<void> => {
  const here = fileURLToPath(new URL('.', import.meta.url))
  const { values: args } = parseArgs({
    options: {
      shared: { type: 'string', default: resolve(here, '../../../../shared/data') },
      dir: { type: 'string', default: resolve(here, '../.cache/nfcorpus') },
    },
  })
  const nf = (path: string): string => join(resolve(args.shared), 'nfcorpus', path)
  const log = (text: string): void => {
    process.stderr.write(`[solr-features ${new Date().toISOString().slice(11, 19)}] ${text}\n`)
  }
  // NFCorpus: plain-text queries, so the 179 features drop the question stop words as the first stage does
  const engine = await openSearch({ index: join(resolve(args.dir), 'index') })
  const train = await readLabelledQueries(nf('train/q-titles.queries'), nf('train/s-3.qrel'))
  const dev = await readLabelledQueries(nf('dev/q-titles.queries'), nf('dev/s-3.qrel'))
  log('features: train (depth 100), dev (depth 100 for early stopping, depth 500 to rerank)')
  const trainSet = await featureSet(engine, { queries: train, depth: 100, minRelevantCandidates: 1 })
  const validSet = await featureSet(engine, { queries: dev, depth: 100, minRelevantCandidates: 1 })
  const devSet = await featureSet(engine, { queries: dev, depth: 500, minRelevantCandidates: 0 })
  const qrels = await readQrels(nf('dev/s-3.qrel'))
  const measures = ['ndcg_cut.10,20', 'P.10', 'recall.100', 'map']
  const results = new Map<string, EvaluationResult>()
  // the first stage alone, in the same rows
  results.set('first stage (BM25F)', evaluate(runOf(devSet, Float64Array.from(devSet.firstStageRanks, (r) => -r)), qrels, { measures }))
  const lightgbm = await loadLightGbm()
  const models: Array<[string, readonly number[] | undefined]> = [
    ['179 features', undefined],
    ['147 Solr-computable features', SOLR_COLUMNS],
  ]
  const trees: string[] = []
  for (const [name, columns] of models) {
    const pick = (set: TrainingSet): TrainingSet => (columns === undefined ? set : selectFeatures(set, columns))
    const started = performance.now()
    const trained = trainRanker({ lightgbm, train: pick(trainSet), valid: pick(validSet), params: { seed: 1, num_threads: 1 } })
    const scores = scoreRows(parseLightGbmModel(trained.modelText), pick(devSet).features, { raw: true })
    results.set(name, evaluate(runOf(devSet, scores), qrels, { measures }))
    trees.push(`${name}: ${trained.iterations} trees, trained in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    log(trees.at(-1)!)
  }
  await lightgbm.terminate()
  const comparison = compareRuns(results)
  const vsFull = compareRuns(new Map([...results].slice(1)))
  const ndcg = (name: string): number => results.get(name)!.mean['ndcg_cut_10']!
  const report = `# Reranking inside Solr: what the model loses without the features Solr cannot compute

Command: \`pnpm --filter @pubmatch/bench-solr bench:features\` (\`node dist/solr-features.js\`), ${new Date().toISOString()}.
Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.

NFCorpus: models trained on the ${train.length} train title queries at depth 100 (dev for early
stopping; LightGBM defaults, seed 1, one thread), reranking the embedded first stage's top 500 for
the ${dev.length} dev queries (every candidate reranked: no out-of-range fallback); trec_eval \`-c\`;
▲/▼ paired randomisation test, p ≤ 0.05. Query memory (M1–M3) is left out of both: Solr could not
compute it either. ${trees.join('; ')}.

Against the first stage:

${formatTable(comparison)}

The 147-feature model against the 179-feature model:

${formatTable(vsFull)}

nDCG@10: 179 features ${ndcg('179 features').toFixed(4)}, Solr-computable 147 ${ndcg('147 Solr-computable features').toFixed(4)}
(${(ndcg('147 Solr-computable features') - ndcg('179 features')).toFixed(4)}); first stage ${ndcg('first stage (BM25F)').toFixed(4)}.
`
  process.stdout.write(report)
  await writeFile(resolve(here, '../RESULTS-solr-features.md'), report)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main()
}
