/**
 * Pure helpers of the benchmark: percentiles, `/proc` parsing and the CPU and memory summary of
 * a sampled process. No I/O here, so each is pinned by hand-computed values in `stats.test.ts`.
 */

/**
 * The nearest-rank percentile of ascending values: the smallest value with at least `p` % of the
 * values at or below it (`sorted[ceil(p/100 · n) − 1]`), so p100 is the maximum and every
 * percentile is a measured value. `NaN` for no values.
 * @param sorted - ascending values
 * @param p - the percentile, 0–100
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) {
    return Number.NaN
  }
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/** Count, mean, p50/p90/p99, max of a sample. */
export interface Summary {
  readonly count: number
  readonly mean: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
}

/**
 * Summarises values (in any order).
 * @param values - the sample
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b)
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, v) => sum + v, 0) / sorted.length
  return {
    count: sorted.length,
    mean,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  }
}

/**
 * User + system CPU time of a process in clock ticks, from the text of `/proc/<pid>/stat`
 * (fields 14 `utime` and 15 `stime`). The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so fields are counted from the last `)`.
 * @param stat - the file's content
 */
export function parseProcStatTicks(stat: string): number {
  const close = stat.lastIndexOf(')')
  // after ") ": field 3 (state) is index 0, so field n is index n − 3
  const fields = stat.slice(close + 2).trim().split(/\s+/)
  const utime = Number(fields[14 - 3])
  const stime = Number(fields[15 - 3])
  if (close < 0 || !Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`bench-server: not a /proc/<pid>/stat line: ${stat.slice(0, 120)}`)
  }
  return utime + stime
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
