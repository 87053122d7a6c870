/**
 * The latency statistics of every benchmark: one percentile definition (nearest rank), and the
 * summaries built on it. Pure functions, pinned by hand-computed values in `stats.test.ts`.
 */
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'

/**
 * The nearest-rank quantile of sorted samples: the smallest sample such that at least `q · n`
 * samples are at or below it, i.e. `sorted[ceil(q · n) − 1]` (the first sample for `q = 0`), so
 * every quantile is a measured value and `q = 1` is the largest. The definition of
 * packages/bm25f/bench too. A percentile `p` is `quantile(sorted, p / 100)`.
 * @param sorted - samples in ascending order, at least one
 * @param q - the quantile, in [0, 1]
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples or q outside [0, 1]
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0 || !(q >= 0 && q <= 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `a quantile needs samples and q in [0, 1] (got ${sorted.length} samples, q ${q})`)
  }
  const rank = Math.max(1, Math.ceil(q * sorted.length))
  return sorted[rank - 1]!
}

/** A sample summarised: its size, mean, extremes and nearest-rank percentiles (in its unit, e.g. ms). */
export interface SampleSummary {
  readonly count: number
  /** Arithmetic mean (summed in ascending order). */
  readonly mean: number
  readonly min: number
  readonly max: number
  readonly p50: number
  readonly p90: number
  readonly p95: number
  readonly p99: number
}

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /**
   * What a sample of no values gives: `throw` an error, or `nan`, a summary of count 0 with `NaN`
   * everywhere else (a report prints it as unknown). Defaults to `throw`.
   */
  readonly empty?: 'throw' | 'nan'
}

/**
 * Summarises a sample (any order; the array is not modified).
 * @param samples - the values
 * @param options - what no values give
 * @throws PubmatchError `INVALID_ARGUMENT` for no values, unless `options.empty` is `nan`
 */
export function summarize(samples: readonly number[], options: SummarizeOptions = {}): SampleSummary {
  if (samples.length === 0 && options.empty === 'nan') {
    const nan = Number.NaN
    return { count: 0, mean: nan, min: nan, max: nan, p50: nan, p90: nan, p95: nan, p99: nan }
  }
  if (samples.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a summary needs at least one sample')
  }
  const sorted = [...samples].sort((a, b) => a - b)
  let sum = 0
  for (const value of sorted) {
    sum += value
  }
  return {
    count: sorted.length,
    mean: sum / sorted.length,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
  }
}

/** Per-query latencies summarised as the search benchmarks record them, in milliseconds. */
export interface LatencySummary {
  /** Number of samples. */
  readonly count: number
  /** Median (nearest rank). */
  readonly p50: number
  /** 95th percentile (nearest rank). */
  readonly p95: number
  /** 99th percentile (nearest rank). */
  readonly p99: number
  /** Arithmetic mean. */
  readonly mean: number
  /** Largest sample. */
  readonly max: number
}

/** The shape of a {@link LatencySummary} in a results file. */
export const LATENCY_SUMMARY: JsonShape<LatencySummary> = json.object({
  count: json.count,
  p50: json.number,
  p95: json.number,
  p99: json.number,
  mean: json.number,
  max: json.number,
})

/**
 * Summarises latency samples (any order; the array is not modified) with the fields, in the
 * order, the results files of tools/bench-search and tools/bench-solr have.
 * @param samples - per-query latencies in ms, at least one
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples
 */
export function summarizeLatencies(samples: readonly number[]): LatencySummary {
  const { count, p50, p95, p99, mean, max } = summarize(samples)
  return { count, p50, p95, p99, mean, max }
}
