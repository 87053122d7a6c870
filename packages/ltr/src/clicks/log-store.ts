/**
 * The search-log store: a directory of append-only JSON Lines files (`log-000001.jsonl`, …)
 * in the format of `log-format.ts`.
 *
 * Why files and not SQLite: Node 20 has no built-in SQLite and the bindings are native
 * (a compiler on install); the files can be read with `head`/`jq`; and an append-only file
 * written one batch at a time (one `write` of complete lines, then `fsync`) is crash-safe
 * enough for a log: a crash can at worst leave a partially written last line, which the
 * reader recognises (no terminating newline) and reports as `TRUNCATED_INPUT` instead of
 * using, and the writer never appends after it (it starts a new file).
 */
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
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

interface OpenFile {
  readonly handle: FileHandle
  readonly path: string
  readonly n: number
  size: number
}

const FILE_PATTERN = /^log-(\d{6,})\.jsonl$/
const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024

function fileName(n: number): string {
  return `log-${String(n).padStart(6, '0')}.jsonl`
}

function ioError(what: string, path: string, cause: unknown): PubmatchError {
  return new PubmatchError('IO', `@pubmatch/ltr: cannot ${what} ${path}: ${String(cause)}`, {
    cause,
    details: { file: path },
  })
}

async function listFiles(dir: string): Promise<{ n: number; path: string }[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      return []
    }
    throw ioError('list', dir, cause)
  }
  const files: { n: number; path: string }[] = []
  for (const name of names) {
    const match = FILE_PATTERN.exec(name)
    if (match?.[1] !== undefined) {
      files.push({ n: Number(match[1]), path: join(dir, name) })
    }
  }
  return files.sort((a, b) => a.n - b.n)
}

async function endsWithNewline(path: string, size: number): Promise<boolean> {
  if (size === 0) {
    return true
  }
  const handle = await open(path, 'r')
  try {
    const byte = Buffer.alloc(1)
    await handle.read(byte, 0, 1, size - 1)
    return byte[0] === 0x0a
  } finally {
    await handle.close()
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Some platforms cannot fsync a directory; the file's own fsync still holds.
  }
}

/**
 * Yields the lines of one file with their 1-based numbers, and reports a final line that
 * has no terminating newline (a write cut short by a crash) instead of yielding it.
 */
async function* fileLines(
  path: string,
  onTruncated: (line: number, text: string) => void,
): AsyncGenerator<{ line: number; text: string }> {
  const stream = createReadStream(path, { encoding: 'utf8' })
  let rest = ''
  let line = 0
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      rest += chunk
      let start = 0
      let end = rest.indexOf('\n', start)
      while (end !== -1) {
        line++
        const text =
          rest.charCodeAt(end - 1) === 0x0d ? rest.slice(start, end - 1) : rest.slice(start, end)
        yield { line, text }
        start = end + 1
        end = rest.indexOf('\n', start)
      }
      rest = rest.slice(start)
    }
  } catch (cause) {
    throw ioError('read', path, cause)
  } finally {
    stream.destroy()
  }
  if (rest.length > 0) {
    onTruncated(line + 1, rest)
  }
}

/**
 * Opens (creating it on the first append) a search-log store in `dir`.
 * @param dir - the directory of `log-NNNNNN.jsonl` files
 * @param options - see {@link LogStoreOptions}
 */
export function createLogStore(dir: string, options: LogStoreOptions = {}): LogStore {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/ltr: maxFileBytes must be a positive integer, got ${maxFileBytes}`,
    )
  }
  let current: OpenFile | null = null
  let queue: Promise<void> = Promise.resolve()

  async function openFile(n: number): Promise<OpenFile> {
    const path = join(dir, fileName(n))
    let file: OpenFile
    try {
      const handle = await open(path, 'a')
      file = { handle, path, n, size: (await handle.stat()).size }
    } catch (cause) {
      throw ioError('open', path, cause)
    }
    await syncDirectory(dir)
    current = file
    return file
  }

  async function ensureOpen(bytes: number): Promise<OpenFile> {
    let file = current
    if (file === null) {
      try {
        await mkdir(dir, { recursive: true })
      } catch (cause) {
        throw ioError('create', dir, cause)
      }
      const files = await listFiles(dir)
      const last = files.at(-1)
      if (last === undefined) {
        file = await openFile(1)
      } else {
        const size = (await stat(last.path)).size
        // Never append after a partially written line: it would glue two events together.
        const clean = await endsWithNewline(last.path, size)
        file = await openFile(clean && size < maxFileBytes ? last.n : last.n + 1)
      }
    }
    if (file.size > 0 && file.size + bytes > maxFileBytes) {
      current = null
      await file.handle.close()
      file = await openFile(file.n + 1)
    }
    return file
  }

  async function writeBatch(events: readonly LogEvent[]): Promise<void> {
    let text = ''
    events.forEach((event, i) => {
      let line: string
      try {
        line = formatLogEvent(event)
        parseLogEvent(line, { file: '<append>', line: i + 1 })
      } catch (cause) {
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `@pubmatch/ltr: event ${i} of the batch is not a valid log event: ${(cause as Error).message}`,
          { cause },
        )
      }
      text += `${line}\n`
    })
    if (text.length === 0) {
      return
    }
    const bytes = Buffer.from(text, 'utf8')
    const file = await ensureOpen(bytes.length)
    try {
      let written = 0
      while (written < bytes.length) {
        const { bytesWritten } = await file.handle.write(bytes, written, bytes.length - written)
        written += bytesWritten
      }
      await file.handle.sync()
    } catch (cause) {
      throw ioError('append to', file.path, cause)
    }
    file.size += bytes.length
  }

  async function* read(readOptions: ReadLogOptions = {}): AsyncGenerator<LogEvent> {
    const onProblem = readOptions.onProblem ?? (() => undefined)
    for (const { path } of await listFiles(dir)) {
      const lines = fileLines(path, (line, text) => {
        onProblem({
          file: path,
          line,
          error: new PubmatchError(
            'TRUNCATED_INPUT',
            `@pubmatch/ltr: search log ${path}:${line}: partially written last line (${text.length} characters, no newline), skipped`,
            { details: { file: path, position: line } },
          ),
        })
      })
      for await (const { line, text } of lines) {
        if (text.trim() === '') {
          continue
        }
        try {
          yield parseLogEvent(text, { file: path, line })
        } catch (error) {
          if (!(error instanceof PubmatchError)) {
            throw error
          }
          onProblem({ file: path, line, error })
        }
      }
    }
  }

  return {
    dir,
    append(events: readonly LogEvent[]): Promise<void> {
      const done = queue.then(() => writeBatch(events))
      queue = done.catch(() => undefined)
      return done
    },
    read,
    async readAll(): Promise<{ events: LogEvent[]; problems: LogProblem[] }> {
      const events: LogEvent[] = []
      const problems: LogProblem[] = []
      for await (const event of read({ onProblem: (p) => problems.push(p) })) {
        events.push(event)
      }
      return { events, problems }
    },
    async files(): Promise<string[]> {
      return (await listFiles(dir)).map((f) => f.path)
    },
    async close(): Promise<void> {
      await queue
      if (current !== null) {
        const { handle } = current
        current = null
        await handle.close()
      }
    },
  }
}
