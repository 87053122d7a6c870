import { createReadStream } from 'node:fs'
import { Readable, pipeline } from 'node:stream'
import { TextDecoder } from 'node:util'
import { createGunzip } from 'node:zlib'
import { PubmatchError } from '@pubmatch/core'

/**
 * What the streaming readers accept: a file path (`.xml` or `.xml.gz`; gzip is detected by its
 * magic bytes, not the name), a Node readable stream, or any async iterable of byte or
 * string chunks (string chunks are taken as already-decoded text).
 */
export type XmlInput = string | NodeJS.ReadableStream | AsyncIterable<Uint8Array | string>

/** Options of {@link readXmlText}. */
export interface XmlTextOptions {
  /** The name used in messages. Defaults to the path, or `<stream>`. */
  file?: string
  /** Called with the number of raw (possibly compressed) bytes consumed so far, for progress bars. */
  onBytes?: (bytesRead: number) => void
  /** Read-buffer size for file paths, in bytes. Defaults to `65_536`. */
  chunkSize?: number
}

/**
 * The name an input is called in messages.
 * @param input - the input
 * @param file - an explicit name, which wins
 */
export function inputName(input: XmlInput, file?: string): string {
  return file ?? (typeof input === 'string' ? input : '<stream>')
}

async function* rawChunks(
  input: XmlInput,
  file: string,
  chunkSize: number,
): AsyncGenerator<Uint8Array | string> {
  if (typeof input !== 'string') {
    yield* input as AsyncIterable<Uint8Array | string>
    return
  }
  const stream = createReadStream(input, { highWaterMark: chunkSize })
  try {
    for await (const chunk of stream) {
      yield chunk as Buffer
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (typeof code === 'string' && code.startsWith('E')) {
      throw new PubmatchError(
        'IO',
        `cannot read ${file}: ${(error as Error).message}`,
        {
          cause: error,
          details: { file },
        },
      )
    }
    throw error
  } finally {
    stream.destroy()
  }
}

async function* counted(
  source: AsyncIterable<Uint8Array | string>,
  onBytes: ((bytesRead: number) => void) | undefined,
): AsyncGenerator<Uint8Array | string> {
  let total = 0
  for await (const chunk of source) {
    total += chunk.length
    onBytes?.(total)
    yield chunk
  }
}

/** Yields `first`, then the rest of a started iterator; closing it closes that iterator too (and so the file). */
async function* prepend<T>(first: readonly T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    yield* first
    for (let next = await rest.next(); !next.done; next = await rest.next()) {
      yield next.value
    }
  } finally {
    await rest.return?.()
  }
}

function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) {
    return chunks[0]!
  }
  const total = chunks.reduce((sum, c) => sum + c.length, 0)
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** Reads chunks until at least `min` bytes (or the end); returns them and the remaining iterator. */
async function peekBytes(
  source: AsyncIterable<Uint8Array | string>,
  min: number,
): Promise<{
  head: (Uint8Array | string)[]
  bytes: Uint8Array | undefined
  rest: AsyncIterator<Uint8Array | string>
}> {
  const rest = source[Symbol.asyncIterator]()
  const head: (Uint8Array | string)[] = []
  const bytes: Uint8Array[] = []
  let length = 0
  while (length < min) {
    const next = await rest.next()
    if (next.done) {
      break
    }
    head.push(next.value)
    if (typeof next.value === 'string') {
      return { head, bytes: undefined, rest }
    }
    bytes.push(next.value)
    length += next.value.length
  }
  return { head, bytes: concatBytes(bytes), rest }
}

function gunzip(source: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  const zlib = createGunzip()
  pipeline(Readable.from(source, { objectMode: false }), zlib, () => {
    // Errors reach the consumer through the gunzip stream's iterator.
  })
  return zlib
}

/** Bytes looked at before decoding: enough for a BOM, the gzip magic and an XML declaration. */
const PROLOG_BYTES = 256

const ENCODING_DECLARATION = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/

function pickDecoder(head: Uint8Array, file: string): TextDecoder {
  if (head[0] === 0xff && head[1] === 0xfe) {
    return new TextDecoder('utf-16le')
  }
  if (head[0] === 0xfe && head[1] === 0xff) {
    return new TextDecoder('utf-16be')
  }
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return new TextDecoder('utf-8')
  }
  const prolog = new TextDecoder('latin1').decode(head.subarray(0, PROLOG_BYTES))
  const label = ENCODING_DECLARATION.exec(prolog)?.[1]
  if (label === undefined) {
    return new TextDecoder('utf-8')
  }
  try {
    return new TextDecoder(label)
  } catch (error) {
    throw new PubmatchError(
      'UNSUPPORTED_FORMAT',
      `${file}: unsupported XML encoding "${label}"`,
      {
        cause: error,
        details: { file },
      },
    )
  }
}

/**
 * Decodes an input into a stream of text chunks: gunzips it when it starts with the gzip
 * magic bytes (`1f 8b`, multi-member files included), then decodes with the encoding of a
 * BOM or the XML declaration (UTF-8 by default; invalid bytes become U+FFFD rather than
 * failing, so a binary file reaches the scanner and is reported as not XML). Holds one
 * chunk at a time.
 * @param input - a path, stream or async iterable (see {@link XmlInput})
 * @param options - file name, progress callback, chunk size
 * @throws PubmatchError `IO` when the file cannot be read, `TRUNCATED_INPUT` when the
 *   gzip stream ends early (after yielding everything decoded before the cut), `IO` for corrupt
 *   gzip data, `UNSUPPORTED_FORMAT` for an encoding the platform cannot decode
 */
export async function* readXmlText(
  input: XmlInput,
  options: XmlTextOptions = {},
): AsyncGenerator<string> {
  const file = inputName(input, options.file)
  const source = counted(rawChunks(input, file, options.chunkSize ?? 65_536), options.onBytes)
  const peeked = await peekBytes(source, PROLOG_BYTES)
  if (peeked.bytes === undefined) {
    // Text chunks: already decoded (a byte chunk later on is decoded as UTF-8).
    const utf8 = new TextDecoder('utf-8')
    for await (const chunk of prepend(peeked.head, peeked.rest)) {
      yield typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true })
    }
    return
  }
  let bytes: AsyncIterable<Uint8Array | string> = prepend(peeked.head, peeked.rest)
  let head = peeked.bytes
  const gzipped = head[0] === 0x1f && head[1] === 0x8b
  if (gzipped) {
    const inflated = await peekBytes(gunzipOrFail(gunzip(bytes), file), PROLOG_BYTES)
    bytes = prepend(inflated.head, inflated.rest)
    head = inflated.bytes ?? new Uint8Array(0)
  }
  const decoder = pickDecoder(head, file)
  for await (const chunk of bytes) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    if (text !== '') {
      yield text
    }
  }
  const tail = decoder.decode()
  if (tail !== '') {
    yield tail
  }
}

async function* gunzipOrFail(
  source: AsyncIterable<Uint8Array>,
  file: string,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of source) {
      yield chunk
    }
  } catch (error) {
    if (error instanceof PubmatchError) {
      throw error
    }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'Z_BUF_ERROR') {
      throw new PubmatchError(
        'TRUNCATED_INPUT',
        `${file}: the gzip stream ends early (${(error as Error).message}); the file is truncated`,
        { cause: error, details: { file } },
      )
    }
    if (typeof code === 'string' && code.startsWith('Z_')) {
      throw new PubmatchError(
        'IO',
        `${file}: corrupt gzip data (${(error as Error).message})`,
        {
          cause: error,
          details: { file },
        },
      )
    }
    throw error
  }
}
