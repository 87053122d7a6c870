/**
 * The queries of the rerank benchmark: one draw of real PubMed log queries of 1–5 terms
 * (`sampleQueries` of tools/synth, seed 1, as `scale.ts` draws them): the first `warmup` warm up,
 * the next `measured` are measured, and the rest train the models (disjoint from both).
 */
import type { Query } from '@pubmatch/core'
import { sampleQueries } from '@pubmatch/synth'
import { MAX_LOG_QUERIES } from './scale-args.ts'
import { LOG_QUERY_SEED } from './scale-queries.ts'

/** Warm-up, measured and training queries, pairwise disjoint. */
export interface RerankQueries {
  readonly warmup: readonly Query[]
  readonly measured: readonly Query[]
  readonly training: readonly Query[]
}

/**
 * The draw: the log's {@link MAX_LOG_QUERIES} distinct 1–5-term queries in the order of seed
 * {@link LOG_QUERY_SEED}, split into warm-up, measured and training queries.
 * @param measured - measured queries
 * @param warmup - warm-up queries
 */
export function rerankQueries(measured: number, warmup: number): RerankQueries {
  const all = sampleQueries({
    count: MAX_LOG_QUERIES,
    seed: LOG_QUERY_SEED,
    minTerms: 1,
    maxTerms: 5,
  }).map((entry): Query => ({ id: entry.qid, text: entry.text }))
  return {
    warmup: all.slice(0, warmup),
    measured: all.slice(warmup, warmup + measured),
    training: all.slice(warmup + measured),
  }
}
