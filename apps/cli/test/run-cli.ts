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
  return pubmatchAt({}, ...args)
}

/** Where {@link pubmatchAt} runs the command. */
export interface RunPlace {
  /** The working directory. Defaults to the test's. */
  readonly cwd?: string
  /** Variables added to the environment. Defaults to none. */
  readonly env?: Readonly<Record<string, string>>
}

/**
 * Runs `pubmatch …` in a child process in another working directory (or environment), and
 * returns its output and exit status (never throws for a non-zero status).
 * @param place - working directory and environment
 * @param args - the command line after `pubmatch`
 */
export async function pubmatchAt(place: RunPlace, ...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      maxBuffer: 64 * 1024 * 1024,
      ...(place.cwd === undefined ? {} : { cwd: place.cwd }),
      ...(place.env === undefined ? {} : { env: { ...process.env, ...place.env } }),
    })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number }
    return { stdout: e.stdout, stderr: e.stderr, code: e.code }
  }
}

/**
 * The commands a message suggests: each `` `pubmatch …` `` in it, split into its arguments as a
 * POSIX shell would (double and single quotes), without the leading `pubmatch`.
 * @param message - what the command printed
 */
export function suggestedCommands(message: string): string[][] {
  return [...message.matchAll(/`pubmatch ([^`]*)`/g)].map((match) => {
    const args: string[] = []
    for (const [, double, single, bare] of match[1]!.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
      args.push(double ?? single ?? bare!)
    }
    return args
  })
}
