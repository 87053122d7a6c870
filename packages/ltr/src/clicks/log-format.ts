/**
 * The search-log format, version 1: JSON Lines, one event per line, every line a complete
 * JSON object with `"v": 1`. Two event types:
 *
 * ```json
 * {"v":1,"type":"search","id":"s1","time":"2026-01-05T10:00:00.000Z","session":"u7","query":"asthma children","filters":[],"total":5120,"results":[{"position":1,"id":"31234567"},{"position":2,"id":"30111111"}]}
 * {"v":1,"type":"action","time":"2026-01-05T10:00:09.000Z","session":"u7","search":"s1","id":"30111111","position":2,"kind":"abstract_click"}
 * ```
 *
 * The parser is strict: unknown fields, a missing field, a wrong type or an unknown version
 * are errors naming the file, the 1-based line and the field.
 */
import { PubmatchError, truncateForMessage, type PubmatchErrorCode } from '@pubmatch/core'

/** The version written in every line's `v` field. */
export const LOG_FORMAT_VERSION = 1

/** One result as it was shown to the user. */
export interface ShownResult {
  /** 1-based position in the whole ranking (page 2 of 20 per page starts at 21). */
  readonly position: number
  /** The document id (a PMID for PubMed). */
  readonly id: string
}

/** A search the user ran and the page of results it showed. */
export interface SearchEvent {
  readonly type: 'search'
  /** Unique within a log; actions refer to it. */
  readonly id: string
  /** ISO-8601 date-time with a time zone (`2026-01-05T10:00:00.000Z`). */
  readonly time: string
  readonly session: string
  /** The query text exactly as typed. */
  readonly query: string
  /** Facets and filters applied to the search (`"Free full text"`, `"Review"`); `[]` when none. */
  readonly filters: readonly string[]
  /** How many documents matched. */
  readonly total: number
  /** The page shown, positions strictly increasing, ids distinct. */
  readonly results: readonly ShownResult[]
}

/** What a user can do with a shown result. */
export type ActionKind = 'abstract_click' | 'fulltext_request'

/** An action on one result of a search. */
export interface ActionEvent {
  readonly type: 'action'
  readonly time: string
  readonly session: string
  /** The `id` of the {@link SearchEvent} whose results the action was taken on. */
  readonly search: string
  /** The document id. */
  readonly id: string
  /** Its 1-based position in that search's results. */
  readonly position: number
  readonly kind: ActionKind
}

/** One line of a search log. */
export type LogEvent = SearchEvent | ActionEvent

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

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/
const SEARCH_KEYS = new Set([
  'v',
  'type',
  'id',
  'time',
  'session',
  'query',
  'filters',
  'total',
  'results',
])
const ACTION_KEYS = new Set(['v', 'type', 'time', 'session', 'search', 'id', 'position', 'kind'])
const RESULT_KEYS = new Set(['position', 'id'])

function fail(
  code: PubmatchErrorCode,
  where: LogLocation,
  field: string | null,
  what: string,
): never {
  const at = `${where.file}:${where.line}`
  const message =
    field === null
      ? `search log ${at}: ${what}`
      : `search log ${at}: field "${field}" ${what}`
  throw new PubmatchError(code, message, {
    details: { file: where.file, position: where.line, ...(field === null ? {} : { field }) },
  })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkKeys(
  obj: Record<string, unknown>,
  allowed: Set<string>,
  where: LogLocation,
  prefix = '',
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) {
      fail('MALFORMED_JSON', where, `${prefix}${key}`, 'is not part of the log format')
    }
  }
}

function field(
  obj: Record<string, unknown>,
  name: string,
  where: LogLocation,
  prefix = '',
): unknown {
  if (!Object.hasOwn(obj, name)) {
    fail('MISSING_FIELD', where, `${prefix}${name}`, 'is missing')
  }
  return obj[name]
}

function nonEmptyString(
  obj: Record<string, unknown>,
  name: string,
  where: LogLocation,
  prefix = '',
): string {
  const value = field(obj, name, where, prefix)
  if (typeof value !== 'string' || value.length === 0) {
    fail(
      'MALFORMED_JSON',
      where,
      `${prefix}${name}`,
      `must be a non-empty string, got ${describe(value)}`,
    )
  }
  return value
}

function positiveInteger(
  obj: Record<string, unknown>,
  name: string,
  where: LogLocation,
  prefix = '',
): number {
  const value = field(obj, name, where, prefix)
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail(
      'MALFORMED_JSON',
      where,
      `${prefix}${name}`,
      `must be an integer ≥ 1, got ${describe(value)}`,
    )
  }
  return value
}

function describe(value: unknown): string {
  return truncateForMessage(JSON.stringify(value) ?? String(value), 60)
}

function timestamp(obj: Record<string, unknown>, where: LogLocation): string {
  const value = nonEmptyString(obj, 'time', where)
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    fail(
      'MALFORMED_JSON',
      where,
      'time',
      `must be an ISO-8601 date-time with a time zone, got ${describe(value)}`,
    )
  }
  return value
}

function parseSearch(obj: Record<string, unknown>, where: LogLocation): SearchEvent {
  checkKeys(obj, SEARCH_KEYS, where)
  const id = nonEmptyString(obj, 'id', where)
  const time = timestamp(obj, where)
  const session = nonEmptyString(obj, 'session', where)
  const query = field(obj, 'query', where)
  if (typeof query !== 'string') {
    fail('MALFORMED_JSON', where, 'query', `must be a string, got ${describe(query)}`)
  }
  const filters = field(obj, 'filters', where)
  if (
    !Array.isArray(filters) ||
    !filters.every((f): f is string => typeof f === 'string' && f.length > 0)
  ) {
    fail(
      'MALFORMED_JSON',
      where,
      'filters',
      `must be an array of non-empty strings, got ${describe(filters)}`,
    )
  }
  const total = field(obj, 'total', where)
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) {
    fail('MALFORMED_JSON', where, 'total', `must be an integer ≥ 0, got ${describe(total)}`)
  }
  const rawResults = field(obj, 'results', where)
  if (!Array.isArray(rawResults)) {
    fail('MALFORMED_JSON', where, 'results', `must be an array, got ${describe(rawResults)}`)
  }
  const results: ShownResult[] = []
  const seen = new Set<string>()
  let last = 0
  rawResults.forEach((raw: unknown, i) => {
    const prefix = `results[${i}].`
    if (!isRecord(raw)) {
      fail('MALFORMED_JSON', where, `results[${i}]`, `must be an object, got ${describe(raw)}`)
    }
    checkKeys(raw, RESULT_KEYS, where, prefix)
    const position = positiveInteger(raw, 'position', where, prefix)
    const docId = nonEmptyString(raw, 'id', where, prefix)
    if (position <= last) {
      fail(
        'MALFORMED_JSON',
        where,
        `${prefix}position`,
        `must be greater than the previous position ${last}`,
      )
    }
    if (seen.has(docId)) {
      fail('MALFORMED_JSON', where, `${prefix}id`, `repeats document ${describe(docId)}`)
    }
    seen.add(docId)
    last = position
    results.push({ position, id: docId })
  })
  if (last > total) {
    fail('MALFORMED_JSON', where, 'total', `is ${total} but a result is shown at position ${last}`)
  }
  return { type: 'search', id, time, session, query, filters: filters.slice(), total, results }
}

function parseAction(obj: Record<string, unknown>, where: LogLocation): ActionEvent {
  checkKeys(obj, ACTION_KEYS, where)
  const time = timestamp(obj, where)
  const session = nonEmptyString(obj, 'session', where)
  const search = nonEmptyString(obj, 'search', where)
  const id = nonEmptyString(obj, 'id', where)
  const position = positiveInteger(obj, 'position', where)
  const kind = field(obj, 'kind', where)
  if (kind !== 'abstract_click' && kind !== 'fulltext_request') {
    fail(
      'MALFORMED_JSON',
      where,
      'kind',
      `must be "abstract_click" or "fulltext_request", got ${describe(kind)}`,
    )
  }
  return { type: 'action', time, session, search, id, position, kind }
}

/**
 * Parses and validates one line of a search log.
 * @param line - the line, without its terminator
 * @param where - file and 1-based line number, quoted in errors
 * @throws PubmatchError `MALFORMED_JSON` (not JSON, wrong type or value, unknown field),
 *   `MISSING_FIELD`, or `SCHEMA_MISMATCH` (a `v` other than {@link LOG_FORMAT_VERSION});
 *   `details` holds `file`, `position` (the line) and `field`
 */
export function parseLogEvent(line: string, where: LogLocation): LogEvent {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (cause) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `search log ${where.file}:${where.line}: not JSON: ${truncateForMessage(line)}`,
      { cause, details: { file: where.file, position: where.line } },
    )
  }
  if (!isRecord(value)) {
    fail('MALFORMED_JSON', where, null, `expected a JSON object, got ${describe(value)}`)
  }
  const version = field(value, 'v', where)
  if (version !== LOG_FORMAT_VERSION) {
    fail(
      'SCHEMA_MISMATCH',
      where,
      'v',
      `is ${describe(version)}; this reader understands version ${LOG_FORMAT_VERSION}`,
    )
  }
  const type = field(value, 'type', where)
  if (type === 'search') {
    return parseSearch(value, where)
  }
  if (type === 'action') {
    return parseAction(value, where)
  }
  return fail(
    'MALFORMED_JSON',
    where,
    'type',
    `must be "search" or "action", got ${describe(type)}`,
  )
}

/**
 * Writes an event as one log line (no terminator), fields in a fixed order.
 * @param event - the event; it is not validated here (the store validates before writing)
 */
export function formatLogEvent(event: LogEvent): string {
  if (event.type === 'search') {
    return JSON.stringify({
      v: LOG_FORMAT_VERSION,
      type: 'search',
      id: event.id,
      time: event.time,
      session: event.session,
      query: event.query,
      filters: event.filters,
      total: event.total,
      results: event.results.map((r) => ({ position: r.position, id: r.id })),
    })
  }
  return JSON.stringify({
    v: LOG_FORMAT_VERSION,
    type: 'action',
    time: event.time,
    session: event.session,
    search: event.search,
    id: event.id,
    position: event.position,
    kind: event.kind,
  })
}

/**
 * Parses the lines of a log, keeping the good events and reporting the bad lines.
 * @param lines - the lines, without terminators; empty lines are skipped
 * @param file - the name quoted in problems
 */
export function parseLogLines(
  lines: Iterable<string>,
  file: string,
): { events: LogEvent[]; problems: LogProblem[] } {
  const events: LogEvent[] = []
  const problems: LogProblem[] = []
  let line = 0
  for (const text of lines) {
    line++
    if (text.trim() === '') {
      continue
    }
    try {
      events.push(parseLogEvent(text, { file, line }))
    } catch (error) {
      if (!(error instanceof PubmatchError)) {
        throw error
      }
      problems.push({ file, line, error })
    }
  }
  return { events, problems }
}
