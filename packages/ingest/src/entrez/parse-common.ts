import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** The answer format of an E-utility request (`retmode`). */
export type EntrezFormat = 'xml' | 'json'

/**
 * The error for an answer that parses but does not have the shape the E-utility sends
 * (`MALFORMED_XML` or `MALFORMED_JSON` by format).
 * @param format - the answer format
 * @param source - the request URL or file
 * @param reason - what is wrong
 * @param body - the answer, quoted truncated
 */
export function malformedAnswer(
  format: EntrezFormat,
  source: string,
  reason: string,
  body: string,
): PubmatchError {
  return new PubmatchError(
    format === 'json' ? 'MALFORMED_JSON' : 'MALFORMED_XML',
    `ingest: entrez answer from ${source} ${reason}: "${truncateForMessage(body)}"`,
    { details: { url: source } },
  )
}

/**
 * The error for an XML answer whose root element is not the one the E-utility sends.
 * @param source - the request URL or file
 * @param expected - the expected root element
 * @param actual - the root element found
 * @param body - the answer, quoted truncated
 */
export function wrongRoot(
  source: string,
  expected: string,
  actual: string,
  body: string,
): PubmatchError {
  return malformedAnswer('xml', source, `has root <${actual}>, expected <${expected}>`, body)
}

/**
 * Reads a non-negative integer field of an answer.
 * @param text - the field's text
 * @param what - the field's name, for messages
 * @param format - the answer format (picks the error code)
 * @param source - the request URL or file
 * @throws PubmatchError `MALFORMED_XML`/`MALFORMED_JSON` when the text is not digits
 */
export function readCount(
  text: string,
  what: string,
  format: EntrezFormat,
  source: string,
): number {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) {
    throw malformedAnswer(format, source, `has a non-numeric ${what}`, text)
  }
  return Number(trimmed)
}
