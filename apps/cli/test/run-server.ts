/** Runs a server in a child process in the CLI tests: `pubmatch serve` or `pubmatch-server`. */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { RunPlace } from './run-cli.ts'

/** The built `pubmatch-server` of `apps/server` (`dist/bin.js`). */
export const serverBin: string = join(
  dirname(createRequire(import.meta.url).resolve('@pubmatch/server/package.json')),
  'dist',
  'bin.js',
)

/** A server started in a child process. */
export interface ServerRun {
  /** `http://HOST:PORT` once it listens; undefined when it exited first. */
  readonly url: string | undefined
  /** What it wrote so far. */
  stdout(): string
  stderr(): string
  /** Its exit status, once it has exited. */
  readonly exited: Promise<number | null>
  /** SIGTERM (unless it has exited), then its exit status. */
  stop(): Promise<number | null>
}

/**
 * Starts `node <script> <args>` and waits until it says where it listens (`… at http://…` on
 * stdout, `serve: search page http://…/` on stderr) or exits.
 * @param script - `bin` of `run-cli.ts` (`pubmatch`) or {@link serverBin}
 * @param args - its arguments
 * @param place - working directory and environment. Defaults to the test's.
 */
export async function startServerProcess(
  script: string,
  args: readonly string[],
  place: RunPlace = {},
): Promise<ServerRun> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(place.cwd === undefined ? {} : { cwd: place.cwd }),
    ...(place.env === undefined ? {} : { env: { ...process.env, ...place.env } }),
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const url = await new Promise<string | undefined>((resolve) => {
    const look = (): void => {
      const match =
        /serving .* at (http:\/\/\S+)/.exec(stdout) ??
        /search page (http:\/\/\S+?)\/? /.exec(stderr)
      if (match !== null) {
        resolve(match[1])
      }
    }
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk
      look()
    })
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk
      look()
    })
    void exited.then(() => resolve(undefined))
  })
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
      }
      return exited
    },
  }
}
