import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'

/** How a child process ended, and what it printed. */
export interface Finished {
  /** The exit status, or `null` when a signal ended it. */
  readonly status: number | null
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

const running = new Set<ChildProcess>()

/**
 * Runs a program to its end, with no time limit and without blocking the test's thread (a
 * synchronous spawn would keep vitest's hang guard from ever stopping a program that does not
 * end). Call {@link stopChildren} in an `afterAll`/`afterEach` so that nothing outlives the test.
 * @param command - the program
 * @param args - its arguments
 * @param env - its environment. Defaults to the test's.
 */
export async function runToEnd(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<Finished> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env === undefined ? {} : { env }),
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  try {
    const [status, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null]
    return { status, signal, stdout, stderr }
  } finally {
    running.delete(child)
  }
}

/** Kills every child {@link runToEnd} started that is still running, and waits until each has exited. */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = once(child, 'close')
        child.kill('SIGKILL')
        await closed
      }
    }),
  )
}
