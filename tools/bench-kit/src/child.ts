import { spawn, type ChildProcess } from 'node:child_process'
import { parseJson, PubmatchError, toPubmatchError, type JsonShape } from '@pubmatch/core'

/**
 * What a benchmark case run in a child process reports: the JSON object on the last non-empty
 * line of its standard output (whatever it logged before), checked against its shape. Anything
 * after that line (a traceback) makes it fail.
 * @param stdout - the process's whole standard output
 * @param shape - the shape of its result
 * @param what - names the process in messages (`case build nfcorpus`)
 * @throws PubmatchError `MALFORMED_JSON` naming the process when the last line is not JSON or not of the shape
 */
export function lastJsonLine<T>(
  stdout: string,
  shape: JsonShape<T>,
  what: string,
  options: { readonly nullAsNaN?: boolean } = {},
): T {
  const last = stdout.trimEnd().split('\n').at(-1) ?? ''
  return parseJson(last, shape, {
    file: `the last line of ${what}`,
    ...(options.nullAsNaN === true ? { nullAsNaN: true } : {}),
  })
}

/** Options of {@link runJsonChild}. */
export interface JsonChildOptions {
  /** Names the process in messages (`case build nfcorpus`). */
  readonly what: string
  /** The child is killed (SIGKILL) this long after its start, plus a minute's grace. */
  readonly timeLimitMs: number
  /** Node.js flags before the script. Defaults to none. */
  readonly nodeArgs?: readonly string[]
  /** `null` in the result reads as `NaN`. Defaults to `false`. */
  readonly nullAsNaN?: boolean
  /** Called with the child when it starts and with `undefined` when it ends (to kill it on a signal). */
  readonly onChild?: (child: ChildProcess | undefined) => void
}

/**
 * Runs a Node.js script in a child process (its standard error inherited) and returns
 * {@link lastJsonLine} of its standard output.
 * @param script - the script's path
 * @param args - its arguments
 * @param shape - the shape of its result
 * @param options - see {@link JsonChildOptions}
 * @throws PubmatchError `TIMEOUT` when it was killed at its time limit, `INTERNAL` when it exited
 *   otherwise than with status 0, `MALFORMED_JSON` as {@link lastJsonLine}
 */
export function runJsonChild<T>(
  script: string,
  args: readonly string[],
  shape: JsonShape<T>,
  options: JsonChildOptions,
): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    options.onChild?.(child)
    const chunks: Buffer[] = []
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, options.timeLimitMs + 60_000)
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', fail)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      options.onChild?.(undefined)
      if (code !== 0) {
        fail(
          new PubmatchError(
            killed ? 'TIMEOUT' : 'INTERNAL',
            `${options.what} ${killed ? 'was killed at its time limit' : `exited with ${signal ?? `status ${code}`}`}`,
          ),
        )
        return
      }
      try {
        done(
          lastJsonLine(Buffer.concat(chunks).toString('utf8'), shape, options.what, {
            nullAsNaN: options.nullAsNaN === true,
          }),
        )
      } catch (error) {
        fail(toPubmatchError(error))
      }
    })
  })
}
