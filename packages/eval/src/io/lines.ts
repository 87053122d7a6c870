import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { createGunzip } from 'node:zlib'
import { PubmatchError } from '@pubmatch/core'

/**
 * Where TREC text comes from: a file path or `file:` URL (gzip-compressed when the name
 * ends in `.gz`), a byte or text stream, or any (async) iterable of text chunks.
 */
export type TextSource =
  string | URL | Readable | AsyncIterable<string | Uint8Array> | Iterable<string>

/** Options shared by the streaming readers. */
export interface ReadOptions {
  /** Name used in error messages. Defaults to the path, or `<stream>`. */
  file?: string
}

/**
 * Name of a source for error messages.
 * @param source - the source
 * @param options - `file` overrides the name
 */
export function sourceName(source: TextSource, options: ReadOptions): string {
  if (options.file !== undefined) {
    return options.file
  }
  if (typeof source === 'string') {
    return source
  }
  return source instanceof URL ? fileURLToPath(source) : '<stream>'
}

/**
 * Yields the lines of a source one at a time (without line terminators), so that files
 * larger than memory stream through.
 * @param source - see {@link TextSource}
 * @param options - see {@link ReadOptions}
 * @throws PubmatchError `IO` when the file cannot be read or decompressed
 */
export async function* readLines(
  source: TextSource,
  options: ReadOptions = {},
): AsyncGenerator<string> {
  const name = sourceName(source, options)
  let input: AsyncIterable<string | Uint8Array> | Iterable<string>
  if (typeof source === 'string' || source instanceof URL) {
    const path = typeof source === 'string' ? source : fileURLToPath(source)
    const raw = createReadStream(path)
    input = path.endsWith('.gz') ? raw.pipe(createGunzip()).on('error', (e) => raw.destroy(e)) : raw
  } else {
    input = source
  }
  const lines = createInterface({
    input: toReadable(input),
    crlfDelay: Infinity,
  })
  try {
    for await (const line of lines) {
      yield line
    }
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PubmatchError(missing ? 'NOT_FOUND' : 'IO', `cannot read ${name}: ${missing ? 'no such file' : String(cause)}`, {
      cause,
      details: { file: name },
    })
  } finally {
    lines.close()
  }
}

function toReadable(input: AsyncIterable<string | Uint8Array> | Iterable<string>): Readable {
  return input instanceof Readable ? input : Readable.from(input)
}

/**
 * Splits a line into whitespace-separated fields, as trec_eval and sample_eval do.
 * @param line - one line of text
 */
export function fields(line: string): string[] {
  const trimmed = line.trim()
  return trimmed === '' ? [] : trimmed.split(/\s+/)
}

/** A decimal number as C's `strtod` reads it, without hex, `inf` or `nan`. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * Parses a decimal number field, or returns `undefined` if it is not one.
 * @param text - the field
 */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) {
    return undefined
  }
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}
