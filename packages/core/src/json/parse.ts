import { PubmatchError, truncateForMessage, type PubmatchErrorCode } from '../errors.ts'
import { JsonMismatch, type JsonShape } from './shapes.ts'

/** Where JSON came from and what a failure is called, for {@link checkJson} and {@link parseJson}. */
export interface JsonSource {
  /** The file (or URL, or process) it was read from; every message names it. */
  readonly file: string
  /**
   * The error code of JSON that is invalid or of the wrong shape: what a damaged file means to
   * its reader (`INDEX_CORRUPTED` for an index's files, `CORPUS_CORRUPTED` for a corpus's…).
   * Defaults to `MALFORMED_JSON`.
   */
  readonly code?: PubmatchErrorCode
  /**
   * Read every `null` back as `NaN`: JSON writes `NaN` and infinities as `null`, so a file of
   * measurements (a summary of no samples) gets its `NaN`s back; check such numbers with
   * `json.numberOrNaN`. Only for files that hold no other `null`. Defaults to `false`.
   */
  readonly nullAsNaN?: boolean
}

/** Values quoted in messages are cut to this many characters. */
const QUOTED_VALUE = 60

function describe(value: unknown): string {
  if (value === undefined) {
    return 'missing'
  }
  return typeof value === 'number' ? String(value) : truncateForMessage(JSON.stringify(value) ?? typeof value, QUOTED_VALUE)
}

/**
 * Checks a parsed JSON value against the shape the code relies on.
 * @param value - the parsed value
 * @param shape - its shape (see the `json` namespace)
 * @param source - the file it came from and the error code
 * @returns the value, typed
 * @throws PubmatchError with `source.code` (default `MALFORMED_JSON`) naming the file, the first
 *   value that does not fit and what was expected; `details` holds `file` and `field`
 */
export function checkJson<T>(value: unknown, shape: JsonShape<T>, source: JsonSource): T {
  try {
    return shape.check(value, [])
  } catch (error) {
    if (!(error instanceof JsonMismatch)) {
      throw error
    }
    const found = describe(error.value)
    const what = error.path === '' ? `${source.file} holds ${found}` : `${source.file}: ${error.path} is ${found}`
    throw new PubmatchError(source.code ?? 'MALFORMED_JSON', `${what}, expected ${error.expected}`, {
      details: { file: source.file, ...(error.path === '' ? {} : { field: error.path }) },
    })
  }
}

/**
 * Parses JSON text and checks it against the shape the code relies on.
 * @param text - the JSON text (a leading byte order mark is allowed)
 * @param shape - its shape (see the `json` namespace)
 * @param source - the file it came from and the error code
 * @returns the value, typed
 * @throws PubmatchError with `source.code` (default `MALFORMED_JSON`) naming the file when the
 *   text is empty, is not JSON (quoting at most 200 characters of it) or has another shape
 */
export function parseJson<T>(text: string, shape: JsonShape<T>, source: JsonSource): T {
  const code = source.code ?? 'MALFORMED_JSON'
  if (/^\s*$/.test(text)) {
    throw new PubmatchError(code, `${source.file} is empty, expected JSON`, { details: { file: source.file } })
  }
  let value: unknown
  try {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
    value = source.nullAsNaN === true ? JSON.parse(body, (_key, one: unknown) => (one === null ? Number.NaN : one)) : JSON.parse(body)
  } catch (cause) {
    const reason = (cause as Error).message
    const position = /at position (\d+)/.exec(reason)?.[1]
    const where = position !== undefined ? ` (position ${position})` : /end of JSON input/.test(reason) ? ' (it ends too early)' : ''
    throw new PubmatchError(code, `${source.file} is not valid JSON${where}: "${truncateForMessage(text)}"`, {
      cause,
      details: { file: source.file, ...(position === undefined ? {} : { position: Number(position) }) },
    })
  }
  return checkJson(value, shape, source)
}
