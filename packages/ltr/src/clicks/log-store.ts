/**
 * The search-log store: a directory of append-only JSON Lines files (`log-000001.jsonl`, …)
 * in the format of `log-format.ts`, kept by the log of `@pubmatch/core/node` (`createJsonlLog`).
 *
 * Why files and not SQLite: Node 20 has no built-in SQLite and the bindings are native
 * (a compiler on install); the files can be read with `head`/`jq`; and an append-only file
 * written one batch at a time (one `write` of complete lines, then `fsync`) is crash-safe
 * enough for a log: a crash can at worst leave a partially written last line, which the
 * reader recognises (no terminating newline) and reports as `TRUNCATED_INPUT` instead of
 * using, and the writer never appends after it (it starts a new file).
 */
import { createJsonlLog } from '@pubmatch/core/node'
import { formatLogEvent, parseLogEvent, type LogEvent, type LogProblem } from './log-format.ts'

/** Options of {@link createLogStore}. */
export interface LogStoreOptions {
  /** A batch that would take the current file past this size starts a new file. Defaults to 64 MiB. */
  maxFileBytes?: number
}

/** Anything events can be appended to (the store, or a test double). */
export interface LogSink {
  /** Appends a batch of events; resolves once they are durable. */
  append(events: readonly LogEvent[]): Promise<void>
}

/** Options of {@link LogStore.read}. */
export interface ReadLogOptions {
  /** Called for each line that is skipped (malformed, or partially written). */
  onProblem?: (problem: LogProblem) => void
}

/** A directory of search-log files: one writer (this process), any number of readers. */
export interface LogStore extends LogSink {
  readonly dir: string
  /**
   * Validates every event, then writes the batch as one `write` of complete lines followed
   * by `fsync`. Batches from concurrent calls are written one after the other.
   * @throws PubmatchError `INVALID_ARGUMENT` if an event is not valid (nothing is written),
   *   `IO` if the file cannot be written
   */
  append(events: readonly LogEvent[]): Promise<void>
  /** Streams the events of every file in order, skipping (and reporting) bad lines. */
  read(options?: ReadLogOptions): AsyncGenerator<LogEvent>
  /** Reads the whole log into memory: the good events and the skipped lines. */
  readAll(): Promise<{ events: LogEvent[]; problems: LogProblem[] }>
  /** The log files, oldest first (absolute or as joined with `dir`). */
  files(): Promise<string[]>
  /** Closes the file being written; a later `append` reopens. */
  close(): Promise<void>
}

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024

/**
 * Opens (creating it on the first append) a search-log store in `dir`.
 * @param dir - the directory of `log-NNNNNN.jsonl` files
 * @param options - see {@link LogStoreOptions}
 */
export function createLogStore(dir: string, options: LogStoreOptions = {}): LogStore {
  const log = createJsonlLog<LogEvent>(dir, {
    prefix: 'log',
    name: 'search log',
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    format: formatLogEvent,
    parse: parseLogEvent,
  })
  return {
    dir,
    append: (events) => log.append(events),
    read: (readOptions = {}) => log.read(readOptions.onProblem === undefined ? {} : { onProblem: readOptions.onProblem }),
    async readAll() {
      const { records, problems } = await log.readAll()
      return { events: records, problems }
    },
    files: () => log.files(),
    close: () => log.close(),
  }
}
