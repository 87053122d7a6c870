/**
 * Measuring a benchmark: CPU time and peak memory of this process, another process's CPU time
 * from /proc, the bytes of an index directory, the time spent producing a benchmark's input, and
 * the machine it ran on.
 */
import { execFileSync } from 'node:child_process'
import { lstatSync, readdirSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'

/** MiB in bytes. */
export const MIB: number = 2 ** 20

/**
 * CPU seconds (user + system, every thread of this process) since `since`.
 * @param since - an earlier `process.cpuUsage()`
 */
export function cpuSecondsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

/** This process's peak resident set so far, MiB (`process.resourceUsage().maxRSS`). */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024
}

/**
 * Apparent bytes of the files of a directory (not recursive, links not followed), in all and
 * per kind (the extension, or the whole name without one): an index's size.
 * @param dir - the directory
 */
export function dirBytes(dir: string): { total: number; byKind: Record<string, number> } {
  const byKind: Record<string, number> = {}
  let total = 0
  for (const file of readdirSync(dir)) {
    const stat = lstatSync(join(dir, file))
    if (stat.isFile()) {
      const dot = file.lastIndexOf('.')
      const kind = dot > 0 ? file.slice(dot + 1) : file
      byKind[kind] = (byKind[kind] ?? 0) + stat.size
      total += stat.size
    }
  }
  return { total, byKind }
}

/** An iterable wrapped to measure how long producing its items takes. */
export interface TimedIterable<T> extends Iterable<T> {
  /** Wall ms spent inside the source's `next()` so far. */
  readonly producingMs: number
  /** `performance.now()` when the source was exhausted, or `undefined`. */
  readonly endedAt: number | undefined
  /** Items produced. */
  readonly count: number
}

/** Options of {@link timeIterable}. */
export interface TimeIterableOptions {
  /** Called after every `everyN` items (e.g. a heap sample). Defaults to nothing. */
  readonly every?: () => void
  /** How often `every` is called. Defaults to `1000`. */
  readonly everyN?: number
  /** Stop with `TIMEOUT` once this `performance.now()` value has passed. Defaults to never. */
  readonly deadline?: number
}

/**
 * Wraps an iterable so that the time spent producing each item (e.g. generating a synthetic
 * article) is summed, so that a build's rate can leave its input out.
 * @param source - the items
 * @param options - a periodic call and a deadline
 * @throws PubmatchError `TIMEOUT` (while iterating) once `options.deadline` has passed
 */
export function timeIterable<T>(source: Iterable<T>, options: TimeIterableOptions = {}): TimedIterable<T> {
  const everyN = options.everyN ?? 1000
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY
  let producingMs = 0
  let endedAt: number | undefined
  let count = 0
  return {
    get producingMs() {
      return producingMs
    },
    get endedAt() {
      return endedAt
    },
    get count() {
      return count
    },
    *[Symbol.iterator]() {
      const iterator = source[Symbol.iterator]()
      for (;;) {
        const t = performance.now()
        if (t > deadline) {
          throw new PubmatchError('TIMEOUT', `time limit reached after ${count} items`)
        }
        const next = iterator.next()
        const now = performance.now()
        producingMs += now - t
        if (next.done === true) {
          endedAt = now
          return
        }
        count++
        if (options.every !== undefined && count % everyN === 0) {
          options.every()
        }
        yield next.value
      }
    },
  }
}

/** The machine, for a report: `2 × <CPU model>, 8 GiB RAM, Node v20.x, linux`. */
export function machineDescription(): string {
  const cpu = cpus()
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}`
}

let clockTicks: number | undefined

/** The kernel's clock ticks per second (`getconf CLK_TCK`; 100 when that fails), for /proc CPU times. */
export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    let value = Number.NaN
    try {
      value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    } catch {
      // no getconf: Linux's usual value
    }
    clockTicks = Number.isFinite(value) && value > 0 ? value : 100
  }
  return clockTicks
}

/**
 * User + system CPU time of a process in clock ticks, from the text of `/proc/<pid>/stat`
 * (fields 14 `utime` and 15 `stime`). The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so fields are counted from the last `)`.
 * @param stat - the file's content
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for text that is not such a line
 */
export function parseProcStatTicks(stat: string): number {
  const close = stat.lastIndexOf(')')
  // after ") ": field 3 (state) is index 0, so field n is index n − 3
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(/\s+/)
  const utime = Number(fields[14 - 3])
  const stime = Number(fields[15 - 3])
  if (close < 0 || !Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new PubmatchError('UNSUPPORTED_FORMAT', `not a /proc/<pid>/stat line: "${stat.slice(0, 120)}"`)
  }
  return utime + stime
}
