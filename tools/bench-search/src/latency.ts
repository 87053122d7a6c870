import { summarizeLatencies, type LatencySummary } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'

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
      `summarizeRounds needs whole rounds of ${queries} samples (got ${latencies.length} latencies, ${cpuMs.length} CPU times)`,
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
