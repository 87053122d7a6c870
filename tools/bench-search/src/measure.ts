import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** MiB in bytes. */
export const MIB: number = 2 ** 20

/** CPU seconds (user + system, every thread of this process) since `since`. */
export function cpuSecondsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

/** This process's peak resident set so far, MiB (`process.resourceUsage().maxRSS`). */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024
}

/**
 * Bytes of the files of a directory (not recursive), in all and per kind (the extension, or
 * the whole name without one).
 * @param dir - the directory
 */
export function dirBytes(dir: string): { total: number; byKind: Record<string, number> } {
  const byKind: Record<string, number> = {}
  let total = 0
  for (const file of readdirSync(dir)) {
    const size = statSync(join(dir, file)).size
    const dot = file.lastIndexOf('.')
    const kind = dot > 0 ? file.slice(dot + 1) : file
    byKind[kind] = (byKind[kind] ?? 0) + size
    total += size
  }
  return { total, byKind }
}

/** Tracks the largest V8 heap in use seen by `sample()` (and every `intervalMs` while running). */
export interface HeapSampler {
  /** Takes a sample now. */
  sample(): void
  /** Stops the timer and returns the peak, MiB. */
  stop(): number
}

/**
 * Samples `process.memoryUsage().heapUsed`: on a timer (which only fires when the event loop
 * gets a turn) and whenever `sample()` is called from a synchronous loop.
 * @param intervalMs - timer period. Defaults to `50`.
 */
export function createHeapSampler(intervalMs = 50): HeapSampler {
  let peak = process.memoryUsage().heapUsed
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    sample,
    stop: () => {
      clearInterval(timer)
      sample()
      return peak / MIB
    },
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
 * Wraps an iterable so that the time spent producing each item (e.g. generating a synthetic
 * article) is summed, and calls `every` after each `everyN` items (e.g. a heap sample).
 * @param source - the items
 * @param everyN - how often to call `every`. Defaults to `1000`.
 * @param every - called every `everyN` items. Defaults to nothing.
 */
export function timeIterable<T>(
  source: Iterable<T>,
  everyN = 1000,
  every?: () => void,
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
        const next = iterator.next()
        const now = performance.now()
        producingMs += now - t
        if (next.done === true) {
          endedAt = now
          return
        }
        count++
        if (every !== undefined && count % everyN === 0) {
          every()
        }
        yield next.value
      }
    },
  }
}

/**
 * The JSON object a case printed on its last non-empty stdout line.
 * @param stdout - the process's whole standard output
 * @param what - names the process in the error message
 * @throws PubmatchError `MALFORMED_JSON` when the last line is not a JSON object
 */
export function parseLastJsonLine(stdout: string, what: string): unknown {
  const last = stdout.trimEnd().split('\n').at(-1) ?? ''
  try {
    const value: unknown = JSON.parse(last)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return value
    }
  } catch (cause) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `@pubmatch/bench-search: ${what} did not end with a JSON line: ${truncateForMessage(last)}`,
      { cause },
    )
  }
  throw new PubmatchError(
    'MALFORMED_JSON',
    `@pubmatch/bench-search: ${what} ended with JSON that is not an object: ${truncateForMessage(last)}`,
  )
}

/**
 * Runs a command (a benchmark case), passing its stderr through, and returns its stdout.
 * @param command - the executable
 * @param args - its arguments
 * @throws PubmatchError `INTERNAL` when it exits with a non-zero status or a signal
 */
export function runProcess(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve(Buffer.concat(chunks).toString('utf8'))
      } else {
        reject(
          new PubmatchError(
            'INTERNAL',
            `@pubmatch/bench-search: ${command} ${truncateForMessage(args.join(' '))} exited with ${signal ?? `status ${code}`}`,
          ),
        )
      }
    })
  })
}
