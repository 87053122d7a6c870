/**
 * The scale benchmark's statistics: summaries of measured passes (percentiles: @pubmatch/bench-kit,
 * nearest rank, as every benchmark), and the match-count parity of two engines.
 */
import { summarizeLatencies, type LatencySummary } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'

/** The latencies of the measured passes over one query set. */
export interface PassSummaries {
  /** Pass 1: every measured query for the first time (after a disjoint warm-up). */
  readonly firstPass: LatencySummary
  /** Passes 2 … R (the same queries again: each engine's caches may answer), when R > 1. */
  readonly repeat?: LatencySummary
  /** Measured passes. */
  readonly passes: number
}

/**
 * Summarises per-pass latency samples: the first pass apart from the repeats.
 * @param passes - one array of samples per measured pass, in pass order; the first non-empty
 * @throws PubmatchError `INVALID_ARGUMENT` when there is no pass or the first is empty
 */
export function summarizePasses(passes: readonly (readonly number[])[]): PassSummaries {
  const [first, ...rest] = passes
  if (first === undefined || first.length === 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'summarizePasses needs at least one pass with samples',
    )
  }
  const repeats = rest.flat()
  return {
    firstPass: summarizeLatencies(first),
    ...(repeats.length > 0 ? { repeat: summarizeLatencies(repeats) } : {}),
    passes: passes.length,
  }
}

/** One query's match count on both engines. */
export interface TotalPair {
  readonly id: string
  readonly text: string
  readonly embedded: number
  readonly solr: number
}

/** How the two engines' match counts compare over the queries both answered. */
export interface Parity {
  /** Queries both engines answered. */
  readonly compared: number
  /** Of those, equal counts. */
  readonly exact: number
  /** Of those, queries that match nothing on both engines (equal by default). */
  readonly bothZero: number
  /** Queries where at least one engine matches something. */
  readonly nonZero: number
  /** Of those, equal counts. */
  readonly exactNonZero: number
  /** Queries whose counts differ by at most 1 % of the larger one (and are not equal). */
  readonly withinOnePercent: number
  /** Queries where only the embedded engine (or only Solr) finds something. */
  readonly onlyEmbedded: number
  readonly onlySolr: number
  /** Sum of the embedded counts and of Solr's. */
  readonly embeddedMatches: number
  readonly solrMatches: number
  /** The query with the largest absolute difference, when any differs. */
  readonly largest?: TotalPair & { readonly difference: number }
  /** Up to `keep` differing queries, the largest differences first. */
  readonly worst: readonly (TotalPair & { readonly difference: number })[]
}

/**
 * Compares the match counts of the queries both engines answered.
 * @param pairs - one entry per query answered by both
 * @param keep - differing queries listed in `worst`. Defaults to `5`.
 */
export function compareTotals(pairs: readonly TotalPair[], keep = 5): Parity {
  const differing = pairs
    .filter((pair) => pair.embedded !== pair.solr)
    .map((pair) => ({ ...pair, difference: Math.abs(pair.embedded - pair.solr) }))
    .sort((a, b) => b.difference - a.difference || a.id.localeCompare(b.id))
  const nonZero = pairs.filter((pair) => pair.embedded > 0 || pair.solr > 0)
  const largest = differing[0]
  return {
    compared: pairs.length,
    exact: pairs.length - differing.length,
    bothZero: pairs.length - nonZero.length,
    nonZero: nonZero.length,
    exactNonZero: nonZero.filter((pair) => pair.embedded === pair.solr).length,
    withinOnePercent: differing.filter(
      (pair) => pair.difference <= 0.01 * Math.max(pair.embedded, pair.solr),
    ).length,
    onlyEmbedded: pairs.filter((pair) => pair.embedded > 0 && pair.solr === 0).length,
    onlySolr: pairs.filter((pair) => pair.solr > 0 && pair.embedded === 0).length,
    embeddedMatches: pairs.reduce((sum, pair) => sum + pair.embedded, 0),
    solrMatches: pairs.reduce((sum, pair) => sum + pair.solr, 0),
    ...(largest === undefined ? {} : { largest }),
    worst: differing.slice(0, keep),
  }
}
