/**
 * Measuring helpers of the scale benchmark: load averages, the machine, another process's memory
 * and CPU time from /proc, disk use of a directory, timed iterables and phase deadlines.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, lstatSync } from 'node:fs'
import { cpus, loadavg, platform, totalmem } from 'node:os'
import { join, sep } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import type { MachineInfo } from './scale-results.ts'

/** MiB in bytes. */
export const MIB: number = 2 ** 20

/** The 1/5/15-minute load averages, rounded to 2 decimals. */
export function loadAverages(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100)
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The machine this runs on (CPU model from /proc/cpuinfo, cores, RAM, Node, Java, OS). */
export function machineInfo(): MachineInfo {
  const model = /^model name\s*:\s*(.+)$/m.exec(readText('/proc/cpuinfo') ?? '')?.[1]
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' })
  const os = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readText('/etc/os-release') ?? '')?.[1]
  return {
    cpu: (model ?? cpus()[0]?.model ?? 'unknown').trim(),
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.version,
    java: (java.stderr ?? '').split('\n')[0]?.trim() || 'not found',
    os: os ?? platform(),
  }
}

/** Memory of a process from /proc/<pid>/status, MiB. */
export interface ProcessMemory {
  readonly rss: number
  /** Peak RSS (VmHWM). */
  readonly peak: number
  readonly anon: number
  readonly file: number
}

/**
 * Parses the memory lines of a /proc/<pid>/status text (`VmRSS`, `VmHWM`, `RssAnon`, `RssFile`,
 * in kB).
 * @param status - the file's text
 */
export function parseProcStatus(status: string): ProcessMemory {
  const kb = (name: string): number =>
    Number(new RegExp(`^${name}:\\s*(\\d+) kB$`, 'm').exec(status)?.[1] ?? Number.NaN)
  return {
    rss: kb('VmRSS') / 1024,
    peak: kb('VmHWM') / 1024,
    anon: kb('RssAnon') / 1024,
    file: kb('RssFile') / 1024,
  }
}

/**
 * A process's memory (the same VmRSS that `ps -o rss` shows).
 * @param pid - the process
 * @throws PubmatchError `NOT_FOUND` when the process is gone
 */
export function processMemory(pid: number): ProcessMemory {
  const status = readText(`/proc/${pid}/status`)
  if (status === undefined) {
    throw new PubmatchError('NOT_FOUND', `@pubmatch/bench-solr: no process ${pid}`)
  }
  return parseProcStatus(status)
}

let clockTicks: number | undefined

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc/<pid>/stat.
 * @param pid - the process
 * @throws PubmatchError `NOT_FOUND` when the process is gone
 */
export function processCpuSeconds(pid: number): number {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === undefined) {
    throw new PubmatchError('NOT_FOUND', `@pubmatch/bench-solr: no process ${pid}`)
  }
  // fields after the command (which may hold spaces) start after the last ')'; utime, stime are 14, 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  clockTicks ??=
    Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100
  return (Number(fields[11]) + Number(fields[12])) / clockTicks
}

/** CPU seconds (user + system, every thread of this process) since `since`. */
export function cpuSecondsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

/** This process's peak resident set so far, MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024
}

/** Disk use of a directory tree, bytes of allocated blocks (as `du`), split by kind. */
export interface DiskUsage {
  readonly total: number
  /** Under a `tlog` directory (Solr's update logs). */
  readonly tlog: number
  /** Under a directory whose name starts with `index` (Lucene indexes). */
  readonly index: number
}

/**
 * Sums the allocated bytes (`st_blocks × 512`, what `du` counts) of the files under `dir`;
 * symbolic links are not followed.
 * @param dir - the directory
 */
export function diskUsage(dir: string): DiskUsage {
  let total = 0
  let tlog = 0
  let index = 0
  const walk = (path: string, kind: 'tlog' | 'index' | 'other'): void => {
    for (const name of readdirSync(path)) {
      const child = join(path, name)
      const stat = lstatSync(child)
      if (stat.isDirectory()) {
        walk(
          child,
          kind !== 'other'
            ? kind
            : name === 'tlog'
              ? 'tlog'
              : name.startsWith('index')
                ? 'index'
                : 'other',
        )
      } else if (stat.isFile()) {
        const bytes = stat.blocks * 512
        total += bytes
        tlog += kind === 'tlog' ? bytes : 0
        index += kind === 'index' ? bytes : 0
      }
    }
  }
  walk(dir, 'other')
  return { total, tlog, index }
}

/**
 * Apparent bytes of the files of a directory (not recursive), in all and per kind (the
 * extension, or the whole name without one): the embedded index's size.
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

/**
 * Waits until a process is idle: less than `maxCores` of CPU over `windowMs`, for at most
 * `maxWaitMs` (e.g. the cluster JVM's background merges after a commit).
 * @param pid - the process
 * @param options - `maxCores` (default `0.1`), `windowMs` (default `5000`), `maxWaitMs` (default `120000`)
 * @returns seconds waited
 */
export async function waitForIdle(
  pid: number,
  options: { maxCores?: number; windowMs?: number; maxWaitMs?: number } = {},
): Promise<number> {
  const windowMs = options.windowMs ?? 5000
  const t0 = performance.now()
  for (;;) {
    const cpu0 = processCpuSeconds(pid)
    await new Promise((done) => setTimeout(done, windowMs))
    const cores = (processCpuSeconds(pid) - cpu0) / (windowMs / 1000)
    const waited = performance.now() - t0
    if (cores < (options.maxCores ?? 0.1) || waited >= (options.maxWaitMs ?? 120_000)) {
      return waited / 1000
    }
  }
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

/**
 * Wraps an iterable so that the time spent producing each item (generating a synthetic article)
 * is summed; stops with `TIMEOUT` once `deadline` (a `performance.now()` value) has passed.
 * @param source - the items
 * @param deadline - when to give up. Defaults to never.
 */
export function timeIterable<T>(
  source: Iterable<T>,
  deadline: number = Number.POSITIVE_INFINITY,
): TimedIterable<T> {
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
          throw new PubmatchError(
            'TIMEOUT',
            `@pubmatch/bench-solr: time limit reached after ${count} articles`,
          )
        }
        const next = iterator.next()
        const now = performance.now()
        producingMs += now - t
        if (next.done === true) {
          endedAt = now
          return
        }
        count++
        yield next.value
      }
    },
  }
}

/**
 * Runs an async phase with a hard time limit: past `ms`, `signal` aborts (the phase should stop
 * at its next check) and the returned promise rejects with `TIMEOUT` at once.
 * @param what - names the phase in the error
 * @param ms - the limit
 * @param run - the phase; it receives the abort signal
 * @throws PubmatchError `TIMEOUT`, or whatever the phase throws
 */
export async function withTimeLimit<T>(
  what: string,
  ms: number,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(
        new PubmatchError(
          'TIMEOUT',
          `@pubmatch/bench-solr: ${what} ran past its limit of ${(ms / 60_000).toFixed(1)} min`,
        ),
      )
    }, ms)
  })
  try {
    return await Promise.race([run(controller.signal), limit])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Throws `TIMEOUT` when a phase's signal has aborted.
 * @param signal - the phase's signal
 * @param what - names the phase
 */
export function checkSignal(signal: AbortSignal, what: string): void {
  if (signal.aborted) {
    throw new PubmatchError('TIMEOUT', `@pubmatch/bench-solr: ${what} stopped at its time limit`)
  }
}

/** Whether `path` lies inside `dir` (string prefix on normalised absolute paths). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`)
}
