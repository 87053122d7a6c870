/**
 * The scale benchmark's statistics: latency percentiles (nearest rank, as tools/bench-search),
 * summaries of measured passes, and the match-count parity of two engines.
 */
import { PubmatchError } from '@pubmatch/core'

/** Percentiles and mean of per-query latencies, in milliseconds. */
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
 * The nearest-rank quantile of sorted samples: `sorted[ceil(q · n) − 1]` (the first sample for
 * `q = 0`), the definition tools/bench-search and packages/bm25f/bench use.
 * @param sorted - samples in ascending order, at least one
 * @param q - the quantile, in [0, 1]
 * @throws PubmatchError `INVALID_ARGUMENT` for no samples or q outside [0, 1]
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0 || !(q >= 0 && q <= 1)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/bench-solr: quantile needs samples and q in [0, 1] (got ${sorted.length} samples, q ${q})`,
    )
  }
  const rank = Math.max(1, Math.ceil(q * sorted.length))
  return sorted[rank - 1]!
}

/**
 * Summarises latency samples (any order; the array is not modified).
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
    max: sorted[sorted.length - 1] ?? Number.NaN,
  }
}

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
      '@pubmatch/bench-solr: summarizePasses needs at least one pass with samples',
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
