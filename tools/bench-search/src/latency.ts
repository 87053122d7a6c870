import { PubmatchError } from '@pubmatch/core'

/** Percentiles and mean of a set of per-query latencies, in milliseconds. */
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

/**
 * The nearest-rank quantile of sorted samples: the smallest sample such that at least
 * `q · n` samples are at or below it, i.e. `sorted[ceil(q · n) − 1]` (the first sample for
 * `q = 0`). The same definition packages/bm25f/bench uses, and the one applied to Xapian's
 * samples here.
 * @param sorted - samples in ascending order, at least one
 * @param q - the quantile, in [0, 1]
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples or q outside [0, 1]
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0 || !(q >= 0 && q <= 1)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/bench-search: quantile needs samples and q in [0, 1] (got ${sorted.length} samples, q ${q})`,
    )
  }
  const rank = Math.max(1, Math.ceil(q * sorted.length))
  return sorted[rank - 1]!
}

/**
 * Summarises latency samples (any order; not modified).
 * @param samples - per-query latencies in ms, at least one
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples
 */
export function summarizeLatencies(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    mean,
    max: sorted[sorted.length - 1]!,
  }
}

/** A query cell's latencies, split into the first (cold) round and the later (warm) ones. */
export interface RoundSummaries {
  /**
   * Rounds 2 … R (caches warm for the measured queries' terms: pubmatch's n(t) cache, Xapian's
   * blocks); round 1 when there is only one.
   */
  readonly latency: LatencySummary
  /** Round 1: each measured query seen for the first time (after a disjoint warm-up). */
  readonly firstRound: LatencySummary
  /** Mean CPU ms per query over the rounds of `latency`. */
  readonly cpuMsPerQuery: number
}

/**
 * Summarises a cell's samples, recorded round by round (`queries` samples per round).
 * @param latencies - wall ms, round-major: round 1's queries, then round 2's …
 * @param cpuMs - CPU ms, in the same order
 * @param queries - samples per round (≥ 1)
 * @throws PubmatchError `INVALID_ARGUMENT` unless both arrays hold a whole number (≥ 1) of rounds
 */
export function summarizeRounds(
  latencies: readonly number[],
  cpuMs: readonly number[],
  queries: number,
): RoundSummaries {
  if (
    !(queries >= 1) ||
    latencies.length === 0 ||
    latencies.length % queries !== 0 ||
    cpuMs.length !== latencies.length
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/bench-search: summarizeRounds needs whole rounds of ${queries} samples (got ${latencies.length} latencies, ${cpuMs.length} CPU times)`,
    )
  }
  const warmFrom = latencies.length > queries ? queries : 0
  const warmCpu = cpuMs.slice(warmFrom)
  return {
    latency: summarizeLatencies(latencies.slice(warmFrom)),
    firstRound: summarizeLatencies(latencies.slice(0, queries)),
    cpuMsPerQuery: warmCpu.reduce((sum, value) => sum + value, 0) / warmCpu.length,
  }
}
