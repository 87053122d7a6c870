import { PubmatchError, truncateForMessage, type PubmatchErrorCode } from '@pubmatch/core'

/** Where a problem was found: the file (or a label for in-memory input) and the record. */
export interface Place {
  file?: string
  /** The record's id (a PMCID, document id, query id) or `#<ordinal>`; goes into `details.record`. */
  record?: string
  /** How the message names the record, e.g. `document PMC123`. Defaults to `record`. */
  label?: string
  /** 1-based line number, when known. */
  line?: number
}

/**
 * A {@link PubmatchError} whose message names the file and the record, says what is wrong and
 * quotes at most 200 characters of the offending input.
 * @param code - the error code
 * @param place - file and record
 * @param problem - what is wrong, in a few words
 * @param input - the offending input, quoted (truncated) when given
 * @param cause - the underlying error
 */
export function ingestError(
  code: PubmatchErrorCode,
  place: Place,
  problem: string,
  input?: string,
  cause?: unknown,
): PubmatchError {
  const where = [
    place.file,
    place.line === undefined ? undefined : `line ${place.line}`,
    place.label ?? place.record,
  ]
    .filter((part): part is string => part !== undefined && part !== '')
    .join(', ')
  const quoted = input === undefined ? '' : `: "${truncateForMessage(input)}"`
  const message = `${where === '' ? '' : `${where}: `}${problem}${quoted}`
  const details: Record<string, unknown> = {}
  if (place.file !== undefined) {
    details.file = place.file
  }
  if (place.record !== undefined) {
    details.record = place.record
  }
  if (place.line !== undefined) {
    details.position = place.line
  }
  return new PubmatchError(code, message, cause === undefined ? { details } : { details, cause })
}
