/**
 * What the orchestrator and the cases of this benchmark measure beyond @pubmatch/bench-kit: the
 * V8 heap of a build, and running a case's process.
 */
import { spawn } from 'node:child_process'
import { MIB } from '@pubmatch/bench-kit'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

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
            `${command} ${truncateForMessage(args.join(' '))} exited with ${signal ?? `status ${code}`}`,
          ),
        )
      }
    })
  })
}
