/**
 * What can be wrong with a query, and how pubmatch reports it: as a {@link PubmatchError}
 * (strict parsing) or as a {@link QueryWarning} (recovering parsing).
 */
import { PubmatchError, type PubmatchErrorCode } from '@pubmatch/core'

/** The kinds of problem the query parser detects. */
export type QueryProblem =
  /** Nothing searchable is left. */
  | 'EMPTY_QUERY'
  /** A `"` is never closed. */
  | 'UNTERMINATED_QUOTE'
  /** `""`. */
  | 'EMPTY_PHRASE'
  /** A `[` is never closed. */
  | 'UNTERMINATED_TAG'
  /** A `]` with no `[`. */
  | 'UNEXPECTED_BRACKET'
  /** A `(` is never closed, or a `)` was never opened. */
  | 'UNBALANCED_PARENTHESIS'
  /** `()`. */
  | 'EMPTY_GROUP'
  /** `AND`, `OR` or `NOT` with nothing on one side. */
  | 'MISSING_OPERAND'
  /** A field tag that follows no term: at the start, after an operator, a `)`, a tag or `#N`. */
  | 'MISPLACED_FIELD_TAG'
  /** A field tag PubMed does not have. Reported with error code `UNKNOWN_FIELD`. */
  | 'UNKNOWN_FIELD'
  /** `:noexp` on a field that is not exploded, `:~N` on a field without proximity search, or another suffix. */
  | 'BAD_FIELD_MODIFIER'
  /** A proximity search that is not a quoted phrase of two or more words. */
  | 'BAD_PROXIMITY'
  /** A wildcard with fewer than 4 characters before it. */
  | 'SHORT_WILDCARD'
  /** `#0`. */
  | 'BAD_HISTORY_REFERENCE'
  /** Parentheses nested deeper than the parser allows. */
  | 'TOO_DEEP'
  /** The text is an Ovid MEDLINE strategy, not PubMed syntax. */
  | 'OVID_SYNTAX'

/** A problem the parser worked around in recovering mode (see `ParseQueryOptions.recover`). */
export interface QueryWarning {
  readonly problem: QueryProblem
  /** A one-line description, without the excerpt. */
  readonly message: string
  /** 0-based character offset in the query text. */
  readonly position: number
}

/**
 * The excerpt of `text` around `position` as two lines: the text (one line of it, at most
 * ~100 characters) and a caret under the offending character.
 * @param text - the whole query
 * @param position - 0-based offset; clamped to the text
 */
function caretExcerpt(text: string, position: number): string {
  const at = Math.max(0, Math.min(position, text.length))
  const lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1
  const newline = text.indexOf('\n', at)
  const lineEnd = newline === -1 ? text.length : newline
  const line = text.slice(lineStart, lineEnd).replace(/\s/g, ' ')
  let column = at - lineStart
  let from = 0
  let to = line.length
  const radius = 48
  if (line.length > 2 * radius + 4) {
    from = Math.max(0, column - radius)
    to = Math.min(line.length, column + radius)
  }
  const head = from > 0 ? '…' : ''
  const tail = to < line.length ? '…' : ''
  column = column - from + head.length
  return `  ${head}${line.slice(from, to)}${tail}\n  ${' '.repeat(column)}^`
}

/**
 * Builds the error thrown for a query problem. The message says what is wrong, names the query's
 * source when known and the 0-based position, and ends with a caret excerpt.
 * @param problem - what is wrong
 * @param message - one line, e.g. `unexpected ")"`
 * @param text - the whole query
 * @param position - 0-based offset of the problem
 * @param source - where the query came from (a query id, a file and line), if known
 * @param extra - more details for `error.details`
 */
export function queryError(
  problem: QueryProblem,
  message: string,
  text: string,
  position: number,
  source?: string,
  extra: Record<string, unknown> = {},
): PubmatchError {
  const code: PubmatchErrorCode = problem === 'UNKNOWN_FIELD' ? 'UNKNOWN_FIELD' : 'QUERY_SYNTAX'
  const where = source === undefined ? '' : ` in ${source}`
  return new PubmatchError(
    code,
    `${message} at position ${position}${where}\n${caretExcerpt(text, position)}`,
    {
      details: {
        position,
        problem,
        ...(source === undefined ? {} : { record: source }),
        ...extra,
      },
    },
  )
}
