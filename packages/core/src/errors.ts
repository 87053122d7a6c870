/**
 * Every failure pubmatch reports on purpose carries one of these codes, so that callers
 * branch on `error.code` rather than on message text.
 */
export type PubmatchErrorCode =
  /** A caller passed a value the API does not accept. */
  | 'INVALID_ARGUMENT'
  /** Input is not well-formed XML (or is XML of the wrong shape). */
  | 'MALFORMED_XML'
  /** Input is not well-formed JSON (or JSON of the wrong shape). */
  | 'MALFORMED_JSON'
  /** A record lacks a field that identifies it (e.g. a citation without a PMID). */
  | 'MISSING_FIELD'
  /** A document declares entities whose expansion would exceed the configured bound. */
  | 'ENTITY_EXPANSION_LIMIT'
  /** A document refers to an external entity or DTD; pubmatch never fetches those. */
  | 'EXTERNAL_ENTITY'
  /** A compressed or streamed input ends before it should. */
  | 'TRUNCATED_INPUT'
  /** An input file is empty. */
  | 'EMPTY_INPUT'
  /** A file's format is not one pubmatch reads. */
  | 'UNSUPPORTED_FORMAT'
  /** An HTTP upstream (NCBI E-utilities) answered with an error status after all retries. */
  | 'UPSTREAM_HTTP'
  /** An HTTP upstream did not answer within the timeout after all retries. */
  | 'UPSTREAM_TIMEOUT'
  /** An upstream answered 200 with an error body (e.g. ESearch `<ERROR>`). */
  | 'UPSTREAM_ERROR'
  /** A network failure (connection refused/reset, truncated body) after all retries. */
  | 'NETWORK'
  /** A file-system operation failed. */
  | 'IO'
  /** A corpus directory is damaged (bad manifest, checksum mismatch). */
  | 'CORPUS_CORRUPTED'
  /** An index segment is damaged (checksum mismatch, bad header). */
  | 'INDEX_CORRUPTED'
  /** A query or document refers to a field that does not exist. */
  | 'UNKNOWN_FIELD'
  /** A query cannot be parsed; `details.position` says where. */
  | 'QUERY_SYNTAX'
  /** A feature vector does not have the length a model expects. */
  | 'FEATURE_COUNT_MISMATCH'
  /** A stored artefact was written with an incompatible schema version. */
  | 'SCHEMA_MISMATCH'
  /** LightGBM reported an error. */
  | 'LIGHTGBM'
  /** Something that was looked up does not exist. */
  | 'NOT_FOUND'
  /** An operation was aborted by its caller. */
  | 'ABORTED'
  /** An operation ran past its deadline and was stopped. */
  | 'TIMEOUT'
  /** A caller lacks the credentials an operation needs. */
  | 'UNAUTHORIZED'
  /** A bug: an invariant pubmatch relies on does not hold. */
  | 'INTERNAL'

/** Where a failure happened, for messages that name the file and record. */
export interface ErrorDetails {
  /** The file (or URL) being read. */
  file?: string
  /** The record being read: a PMID, a PMCID, or `#<ordinal>` when no id is known. */
  record?: string
  /** A character offset or 1-based position in the input. */
  position?: number
  /** HTTP status of an upstream answer. */
  status?: number
  /** Anything else that helps, e.g. the URL of a request. */
  [key: string]: unknown
}

/** Options of {@link PubmatchError}. */
export interface PubmatchErrorOptions {
  /** The underlying error. */
  cause?: unknown
  /** Where it happened. */
  details?: ErrorDetails
}

/**
 * The one error class of pubmatch. Its message says what was wrong and names the offending value
 * or file, quoting at most 200 characters of input (see {@link truncateForMessage}); it does not
 * start with a package name: the code says what kind of failure it is (CONTRIBUTING.md,
 * "Errors").
 */
export class PubmatchError extends Error {
  override readonly name = 'PubmatchError'
  readonly code: PubmatchErrorCode
  readonly details: ErrorDetails

  constructor(code: PubmatchErrorCode, message: string, options: PubmatchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details ?? {}
  }

  /** A plain object for JSON logs and per-record error reports. */
  toJSON(): { code: PubmatchErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details }
  }
}

/**
 * Whether `value` is a {@link PubmatchError}, optionally with the given code.
 * @param value - anything caught
 * @param code - when given, the code it must have
 */
export function isPubmatchError(value: unknown, code?: PubmatchErrorCode): value is PubmatchError {
  return value instanceof PubmatchError && (code === undefined || value.code === code)
}

/**
 * Wraps any thrown value as a {@link PubmatchError} (used at app boundaries). A
 * PubmatchError passes through unchanged; anything else becomes `INTERNAL` (or `fallback`).
 * @param value - anything caught
 * @param fallback - the code for values that are not PubmatchErrors. Defaults to `INTERNAL`.
 */
export function toPubmatchError(value: unknown, fallback: PubmatchErrorCode = 'INTERNAL'): PubmatchError {
  if (value instanceof PubmatchError) {
    return value
  }
  const message = value instanceof Error ? value.message : String(value)
  return new PubmatchError(fallback, message, { cause: value })
}

/**
 * Shortens input quoted in an error message to at most `max` characters, on one line.
 * @param text - the offending input
 * @param max - the most characters to keep. Defaults to `200`.
 */
export function truncateForMessage(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`
}
