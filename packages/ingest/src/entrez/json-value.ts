import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** A JSON value as `JSON.parse` returns it, typed so that nothing leaks as `any`. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue }

/**
 * Parses an E-utilities JSON answer.
 * @param body - the answer body
 * @param source - what was read (URL or file), for error messages
 * @throws PubmatchError `MALFORMED_JSON` when the text is not JSON (e.g. truncated)
 */
export function parseJsonBody(body: string, source: string): JsonValue {
  try {
    return JSON.parse(body) as JsonValue
  } catch (error) {
    throw malformedJson(source, (error as Error).message, body, error)
  }
}

/**
 * The error for JSON that is unreadable or has the wrong shape.
 * @param source - what was read (URL or file)
 * @param reason - what is wrong
 * @param body - the offending text (quoted, truncated)
 * @param cause - the underlying error, if any
 */
export function malformedJson(
  source: string,
  reason: string,
  body: string,
  cause?: unknown,
): PubmatchError {
  return new PubmatchError(
    'MALFORMED_JSON',
    `entrez answer from ${source} is not the expected JSON: ${reason}; body starts "${truncateForMessage(body)}"`,
    { cause, details: { url: source } },
  )
}

/**
 * Whether a value is a JSON object (not an array, not null).
 * @param value - any JSON value
 */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A JSON value as an array: arrays as they are, `undefined`/`null` as empty, anything else
 * as a one-element array (E-utilities JSON sometimes collapses one-element lists).
 * @param value - any JSON value
 */
export function jsonArray(value: JsonValue | undefined): JsonValue[] {
  if (value === undefined || value === null) {
    return []
  }
  return Array.isArray(value) ? value : [value]
}

/**
 * A JSON scalar as a string (numbers and booleans stringified), or `undefined`.
 * @param value - any JSON value
 */
export function jsonString(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') {
    return value
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value)
  }
  return undefined
}
