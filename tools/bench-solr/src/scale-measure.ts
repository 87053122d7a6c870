/**
 * Measuring helpers of the scale benchmark: load averages, the machine, another process's memory
 * and CPU time from /proc, disk use of a directory tree and phase deadlines (what every benchmark
 * measures is in @pubmatch/bench-kit).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, lstatSync } from 'node:fs'
import { cpus, loadavg, platform, totalmem } from 'node:os'
import { join, sep } from 'node:path'
import { clockTicksPerSecond, parseProcStatTicks } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import type { MachineInfo } from './scale-results.ts'

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
    throw new PubmatchError('NOT_FOUND', `no process ${pid}`)
  }
  return parseProcStatus(status)
}

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc/<pid>/stat.
 * @param pid - the process
 * @throws PubmatchError `NOT_FOUND` when the process is gone
 */
export function processCpuSeconds(pid: number): number {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === undefined) {
    throw new PubmatchError('NOT_FOUND', `no process ${pid}`)
  }
  return parseProcStatTicks(stat) / clockTicksPerSecond()
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
