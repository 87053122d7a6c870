/**
 * The statistics of the reranking benchmark: its latency summaries (percentiles: @pubmatch/bench-kit),
 * a count distribution, CPU-time and throughput arithmetic. Pure functions, pinned by tests.
 */
import { summarize as summarizeSample, type SampleSummary } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'

/** A latency sample set summarised (milliseconds in, milliseconds out): the fields of this benchmark's results. */
export type Summary = Pick<SampleSummary, 'count' | 'mean' | 'p50' | 'p95' | 'p99' | 'min' | 'max'>

/**
 * Mean, p50/p95/p99 (nearest rank, @pubmatch/bench-kit's `quantile`), min and max of samples (any order).
 * @param samples - at least one value
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples
 */
export function summarize(samples: readonly number[]): Summary {
  const { count, mean, p50, p95, p99, min, max } = summarizeSample(samples)
  return { count, mean, p50, p95, p99, min, max }
}

/** One bucket of a {@link countDistribution}. */
export interface CountBucket {
  /** E.g. `500`, `250–499`, `0`. */
  readonly label: string
  readonly low: number
  readonly high: number
  readonly count: number
}

/**
 * How many values fall in each inclusive range `[low, high]`; ranges are given high to low
 * and must not overlap. Values outside every range are an error.
 * @param values - integer values (e.g. candidates per query)
 * @param ranges - `[low, high]` pairs
 * @throws PubmatchError `INVALID_ARGUMENT` for a value in no range
 */
export function countDistribution(values: readonly number[], ranges: ReadonlyArray<readonly [number, number]>): CountBucket[] {
  const counts = ranges.map(() => 0)
  for (const value of values) {
    const i = ranges.findIndex(([low, high]) => value >= low && value <= high)
    if (i < 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `${value} is in no bucket`)
    }
    counts[i]! += 1
  }
  return ranges.map(([low, high], i) => ({
    label: low === high ? String(low) : `${low}–${high}`,
    low,
    high,
    count: counts[i]!,
  }))
}

/**
 * CPU seconds between two `process.cpuUsage()` readings (user + system, all threads).
 * @param before - the earlier reading (microseconds)
 * @param after - the later reading
 */
export function cpuSeconds(before: NodeJS.CpuUsage, after: NodeJS.CpuUsage): number {
  return (after.user - before.user + after.system - before.system) / 1e6
}

/**
 * Items per second.
 * @param items - items done
 * @param ms - wall milliseconds taken (> 0)
 * @throws PubmatchError `INVALID_ARGUMENT` for a non-positive time
 */
export function perSecond(items: number, ms: number): number {
  if (!(ms > 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `a rate needs a positive time, got ${ms} ms`)
  }
  return (items * 1000) / ms
}

/**
 * Splits `n` items into `parts` contiguous ranges whose sizes differ by at most one, larger
 * first: 500 in 2 → [0, 250), [250, 500); 5 in 2 → [0, 3), [3, 5). Empty ranges are dropped.
 * @param n - items
 * @param parts - ranges wanted (≥ 1)
 * @throws PubmatchError `INVALID_ARGUMENT` for parts < 1
 */
export function splitRanges(n: number, parts: number): Array<readonly [number, number]> {
  if (!Number.isInteger(parts) || parts < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `parts must be a positive integer, got ${parts}`)
  }
  const out: Array<readonly [number, number]> = []
  const base = Math.floor(n / parts)
  const extra = n % parts
  let start = 0
  for (let i = 0; i < parts; i++) {
    const size = base + (i < extra ? 1 : 0)
    if (size > 0) {
      out.push([start, start + size])
    }
    start += size
  }
  return out
}
