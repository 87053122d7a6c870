/**
 * An append-only log of JSON lines in a directory of numbered files (`<prefix>-000001.jsonl`, …),
 * the one durable log format of pubmatch (search logs, feedback sessions). A batch is written as
 * one `write` of complete lines followed by `fsync`, so a crash can at worst leave a partially
 * written last line: the reader recognises it (no terminating newline) and reports it instead of
 * using it, and the writer never appends after it (it starts the next file).
 */
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError } from '../errors.ts'
import { syncDirectory } from './fs.ts'

/** Where a line came from, for error messages. */
export interface LogLocation {
  readonly file: string
  /** 1-based line number. */
  readonly line: number
}

/** A line that could not be used: where, and why. */
export interface LogProblem extends LogLocation {
  readonly error: PubmatchError
}

/** Options of {@link createJsonlLog}. */
export interface JsonlLogOptions<T> {
  /** File name prefix: `<prefix>-000001.jsonl`. Defaults to `log`. */
  readonly prefix?: string
  /** What the log is called in messages (`search log`). Defaults to `log`. */
  readonly name?: string
  /** A batch that would take the current file past this size starts a new file. Defaults to 64 MiB. */
  readonly maxFileBytes?: number
  /** One record as one line of JSON (no newline). */
  readonly format: (record: T) => string
  /**
   * Reads one line back; throws a `PubmatchError` for a line that is not a valid record. Every
   * record is checked with it before a batch is written, so nothing unreadable is ever written.
   */
  readonly parse: (line: string, where: LogLocation) => T
}

/** An append-only JSON-lines log: one writer (this process), any number of readers. */
export interface JsonlLog<T> {
  readonly dir: string
  /**
   * Validates every record, then writes the batch as one `write` of complete lines and `fsync`s.
   * Batches of concurrent calls are written one after the other.
   * @throws PubmatchError `INVALID_ARGUMENT` if a record is not valid (nothing is written),
   *   `IO` if the file cannot be written
   */
  append(records: readonly T[]): Promise<void>
  /** Streams the records of every file in order, skipping (and reporting) bad lines. */
  read(options?: { readonly onProblem?: (problem: LogProblem) => void }): AsyncGenerator<T>
  /** Reads the whole log into memory: the good records and the skipped lines. */
  readAll(): Promise<{ records: T[]; problems: LogProblem[] }>
  /** The log files, oldest first. */
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

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024

/**
 * Opens (creating it on the first append) a JSON-lines log in `dir`.
 * @param dir - the directory of `<prefix>-NNNNNN.jsonl` files
 * @param options - see {@link JsonlLogOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad `maxFileBytes` or prefix
 */
export function createJsonlLog<T>(dir: string, options: JsonlLogOptions<T>): JsonlLog<T> {
  const prefix = options.prefix ?? 'log'
  const name = options.name ?? 'log'
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `${name}: maxFileBytes must be a positive integer, got ${maxFileBytes}`)
  }
  if (!/^[A-Za-z0-9_-]+$/.test(prefix)) {
    throw new PubmatchError('INVALID_ARGUMENT', `${name}: the file prefix must be letters, digits, _ or -, got "${prefix}"`)
  }
  const pattern = new RegExp(`^${prefix}-(\\d{6,})\\.jsonl$`)
  const fileName = (n: number): string => `${prefix}-${String(n).padStart(6, '0')}.jsonl`
  const ioError = (what: string, path: string, cause: unknown): PubmatchError =>
    new PubmatchError('IO', `${name}: cannot ${what} ${path}: ${String(cause)}`, { cause, details: { file: path } })

  const listFiles = async (): Promise<{ n: number; path: string }[]> => {
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
    for (const entry of names) {
      const match = pattern.exec(entry)
      if (match?.[1] !== undefined) {
        files.push({ n: Number(match[1]), path: join(dir, entry) })
      }
    }
    return files.sort((a, b) => a.n - b.n)
  }

  let current: OpenFile | null = null
  let queue: Promise<void> = Promise.resolve()

  const openFile = async (n: number): Promise<OpenFile> => {
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

  const ensureOpen = async (bytes: number): Promise<OpenFile> => {
    let file = current
    if (file === null) {
      try {
        await mkdir(dir, { recursive: true })
      } catch (cause) {
        throw ioError('create', dir, cause)
      }
      const last = (await listFiles()).at(-1)
      if (last === undefined) {
        file = await openFile(1)
      } else {
        const size = (await stat(last.path)).size
        // never append after a partially written line: it would glue two records together
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

  const writeBatch = async (records: readonly T[]): Promise<void> => {
    let text = ''
    records.forEach((record, i) => {
      let line: string
      try {
        line = options.format(record)
        if (line.includes('\n')) {
          throw new Error('a record must format as one line')
        }
        options.parse(line, { file: '<append>', line: i + 1 })
      } catch (cause) {
        throw new PubmatchError('INVALID_ARGUMENT', `${name}: record ${i} of the batch is not valid: ${(cause as Error).message}`, { cause })
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

  async function* read(readOptions: { readonly onProblem?: (problem: LogProblem) => void } = {}): AsyncGenerator<T> {
    const onProblem = readOptions.onProblem ?? (() => undefined)
    for (const { path } of await listFiles()) {
      const lines = fileLines(path, ioError, (line, text) => {
        onProblem({
          file: path,
          line,
          error: new PubmatchError(
            'TRUNCATED_INPUT',
            `${name} ${path}:${line}: partially written last line (${text.length} characters, no newline), skipped`,
            { details: { file: path, position: line } },
          ),
        })
      })
      for await (const { line, text } of lines) {
        if (text.trim() === '') {
          continue
        }
        try {
          yield options.parse(text, { file: path, line })
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
    append(records) {
      const done = queue.then(() => writeBatch(records))
      queue = done.catch(() => undefined)
      return done
    },
    read,
    async readAll() {
      const records: T[] = []
      const problems: LogProblem[] = []
      for await (const record of read({ onProblem: (p) => problems.push(p) })) {
        records.push(record)
      }
      return { records, problems }
    },
    async files() {
      return (await listFiles()).map((f) => f.path)
    },
    async close() {
      await queue
      if (current !== null) {
        const { handle } = current
        current = null
        await handle.close()
      }
    },
  }
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

/**
 * Yields the lines of one file with their 1-based numbers, and reports a final line that has no
 * terminating newline (a write cut short by a crash) instead of yielding it.
 */
async function* fileLines(
  path: string,
  ioError: (what: string, path: string, cause: unknown) => PubmatchError,
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
        const text = rest.charCodeAt(end - 1) === 0x0d ? rest.slice(start, end - 1) : rest.slice(start, end)
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
