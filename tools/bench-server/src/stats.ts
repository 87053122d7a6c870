/**
 * Pure helpers of the benchmark: latency summaries (percentiles: @pubmatch/bench-kit), `/proc`
 * parsing and the CPU and memory summary of a sampled process. No I/O here, so each is pinned by
 * hand-computed values in `stats.test.ts`.
 */
import { summarize as summarizeSample, type SampleSummary } from '@pubmatch/bench-kit'
import { json, type JsonShape } from '@pubmatch/core'

/** Count, mean, p50/p90/p99, max of a sample: the fields of this benchmark's results. */
export type Summary = Pick<SampleSummary, 'count' | 'mean' | 'p50' | 'p90' | 'p99' | 'max'>

/** The shape of a {@link Summary} in a results file (`NaN`, no values, is written as `null`: read with `nullAsNaN`). */
export const SUMMARY: JsonShape<Summary> = json.object({
  count: json.count,
  mean: json.numberOrNaN,
  p50: json.numberOrNaN,
  p90: json.numberOrNaN,
  p99: json.numberOrNaN,
  max: json.numberOrNaN,
})

/**
 * Summarises values (in any order): nearest-rank percentiles (@pubmatch/bench-kit's `quantile`);
 * count 0 and `NaN` elsewhere for no values.
 * @param values - the sample
 */
export function summarize(values: readonly number[]): Summary {
  const { count, mean, p50, p90, p99, max } = summarizeSample(values, { empty: 'nan' })
  return { count, mean, p50, p90, p99, max }
}

/**
 * Resident set size in KiB from the text of `/proc/<pid>/status` (`VmRSS:   123456 kB`).
 * @param status - the file's content
 */
export function parseVmRssKiB(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
  if (match === null) {
    throw new Error('bench-server: no VmRSS line in /proc/<pid>/status')
  }
  return Number(match[1])
}

/** One sample of a process: when, its CPU ticks so far, its RSS. */
export interface ProcSample {
  /** Milliseconds (any monotonic origin). */
  readonly ms: number
  /** utime + stime, clock ticks. */
  readonly ticks: number
  readonly rssKiB: number
}

/** What a process used between its first and last sample. */
export interface ProcUsage {
  readonly seconds: number
  /** CPU seconds (user + system) between the first and last sample. */
  readonly cpuSeconds: number
  /** CPU time over wall time, in % of one core (200 % = both cores of a 2-core machine). */
  readonly cpuPercent: number
  /** The busiest interval between consecutive samples, in % of one core. */
  readonly cpuPercentPeak: number
  readonly rssPeakMiB: number
  /** Mean of the samples' RSS. */
  readonly rssMeanMiB: number
  readonly rssFirstMiB: number
  readonly rssLastMiB: number
  readonly samples: number
}

/**
 * Summarises a process's samples.
 * @param samples - in time order, at least two
 * @param ticksPerSecond - the kernel's clock ticks per second (`getconf CLK_TCK`, usually 100)
 */
export function procUsage(samples: readonly ProcSample[], ticksPerSecond: number): ProcUsage {
  if (samples.length < 2) {
    throw new Error('bench-server: procUsage needs at least two samples')
  }
  const first = samples[0]!
  const last = samples[samples.length - 1]!
  const seconds = (last.ms - first.ms) / 1000
  const cpuSeconds = (last.ticks - first.ticks) / ticksPerSecond
  let peak = 0
  for (let i = 1; i < samples.length; i++) {
    const dt = (samples[i]!.ms - samples[i - 1]!.ms) / 1000
    if (dt > 0) {
      peak = Math.max(peak, ((samples[i]!.ticks - samples[i - 1]!.ticks) / ticksPerSecond / dt) * 100)
    }
  }
  const mib = (kib: number): number => kib / 1024
  return {
    seconds,
    cpuSeconds,
    cpuPercent: seconds > 0 ? (cpuSeconds / seconds) * 100 : Number.NaN,
    cpuPercentPeak: peak,
    rssPeakMiB: mib(Math.max(...samples.map((s) => s.rssKiB))),
    rssMeanMiB: mib(samples.reduce((sum, s) => sum + s.rssKiB, 0) / samples.length),
    rssFirstMiB: mib(first.rssKiB),
    rssLastMiB: mib(last.rssKiB),
    samples: samples.length,
  }
}

/**
 * The search request of a query: `/search?q=<query, URL-encoded>&size=<size>`.
 * @param query - the query as typed
 * @param size - results per page
 */
export function searchPath(query: string, size: number): string {
  return `/search?q=${encodeURIComponent(query)}&size=${size}`
}

/**
 * A list rotated left by `by` places (`by` taken modulo the length): each load client starts at a
 * different place of the same query list.
 * @param items - the list
 * @param by - places
 */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) {
    return []
  }
  const k = ((by % items.length) + items.length) % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}

/**
 * The grade of a candidate by title-term coverage, the rule the latency models are trained on
 * (not a relevance judgement): 2 when the title holds every query term, 1 when it holds at least
 * half of them, else 0. A query without terms grades everything 0.
 * @param queryTerms - the query's analysed terms (duplicates count once)
 * @param titleTerms - the title's analysed terms
 */
export function titleCoverageGrade(queryTerms: readonly string[], titleTerms: ReadonlySet<string>): number {
  const distinct = new Set(queryTerms)
  if (distinct.size === 0) {
    return 0
  }
  let found = 0
  for (const term of distinct) {
    if (titleTerms.has(term)) {
      found++
    }
  }
  return found === distinct.size ? 2 : found * 2 >= distinct.size ? 1 : 0
}
