/** Runs the built `pubmatch` command in the CLI tests. */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The built CLI (`pnpm build`); the CLI tests run only when it exists. */
export const bin: string = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

/** The bundled sample corpus, or a file in it. */
export { samplePath } from '@pubmatch/sample-data'

/** What one run of the command did. */
export interface CliRun {
  readonly stdout: string
  readonly stderr: string
  /** The exit status (0 on success). */
  readonly code: number
}

/**
 * Runs `pubmatch …` in a child process and returns its output and exit status (never throws for
 * a non-zero status).
 * @param args - the command line after `pubmatch`
 */
export async function pubmatch(...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { maxBuffer: 64 * 1024 * 1024 })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number }
    return { stdout: e.stdout, stderr: e.stderr, code: e.code }
  }
}
