import { CommanderError } from 'commander'
import { isPubmatchError, toPubmatchError, type PubmatchError } from '@pubmatch/core'

/**
 * Exit statuses of `pubmatch` (the README lists them):
 * - `0`: done; batch commands read every input.
 * - `1`: partly done: a batch command stored what it could read, but some records or files
 *   failed (they are listed, and kept in the corpus's error list), or some queries of a `run`
 *   could not run (they are listed; the run holds the others).
 * - `2`: failed: nothing usable was produced (every input failed, or the command could not run:
 *   a missing index, a damaged file, an upstream error).
 * - `64`: usage error (EX_USAGE of sysexits.h): an unknown command or option, a bad option
 *   value, a malformed query.
 * - `130`: interrupted (SIGINT); an interrupted ingest resumes when run again.
 * - `141`: the output was closed (`pubmatch … | head`): the command stops quietly, as a Unix
 *   tool killed by SIGPIPE does (128 + 13).
 */
export const EXIT = {
  OK: 0,
  PARTIAL: 1,
  FAILED: 2,
  USAGE: 64,
  INTERRUPTED: 130,
  OUTPUT_CLOSED: 141,
} as const

/** Error codes that mean the command line itself was wrong. */
const USAGE_CODES = new Set(['INVALID_ARGUMENT', 'QUERY_SYNTAX', 'UNKNOWN_FIELD'])

/**
 * Any thrown value as a `PubmatchError`: a file-system error becomes `NOT_FOUND` (ENOENT) or
 * `IO` (any other errno code) rather than `INTERNAL`.
 * @param error - what was thrown
 */
export function asPubmatchError(error: unknown): PubmatchError {
  if (isPubmatchError(error)) {
    return error
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno)) {
    return toPubmatchError(error, errno === 'ENOENT' ? 'NOT_FOUND' : 'IO')
  }
  return toPubmatchError(error)
}

/**
 * The exit status for an error that ended a command.
 * @param error - what was thrown
 */
export function exitStatusOf(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE
  }
  const failure = asPubmatchError(error)
  if (failure.code === 'ABORTED') {
    return EXIT.INTERRUPTED
  }
  return USAGE_CODES.has(failure.code) ? EXIT.USAGE : EXIT.FAILED
}

/**
 * Makes the process stop quietly with status 141 when its standard output or error is closed
 * by the reader (EPIPE), instead of dying with an unhandled `error` event and a stack trace.
 * @param streams - the streams to guard. Defaults to stdout and stderr.
 */
export function exitQuietlyOnClosedOutput(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
        process.exit(EXIT.OUTPUT_CLOSED)
      }
      throw error
    })
  }
}
