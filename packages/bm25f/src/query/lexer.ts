/**
 * Splits PubMed query text into tokens. Internal to the parser.
 *
 * - Whitespace separates words; `(` `)` `[` `]` and double quotes (straight `"` or curly
 *   `“` `”`, in any pairing) are delimiters, so `(1999)AND(Rimm)` is five tokens.
 * - `AND`, `OR`, `NOT` are operators only in upper case; `and` is a word (PubMed).
 * - `#12` is a history reference; a `:` where a word would start is its own token (the
 *   range separator in `"2015"[dp] : "2020"[dp]`); inside a word it is a letter (`2015:2020`).
 */
import { truncateForMessage } from '@pubmatch/core'
import type { QueryProblem } from './problems.ts'

/** One token; `start`/`end` are 0-based offsets into the query text (end exclusive). */
export type Token =
  | { readonly type: 'word'; readonly text: string; readonly start: number; readonly end: number }
  | { readonly type: 'quoted'; readonly text: string; readonly start: number; readonly end: number }
  | { readonly type: 'tag'; readonly text: string; readonly start: number; readonly end: number }
  | {
      readonly type: 'op'
      readonly op: 'AND' | 'OR' | 'NOT'
      readonly start: number
      readonly end: number
    }
  | {
      readonly type: 'history'
      readonly text: string
      readonly start: number
      readonly end: number
    }
  | { readonly type: 'colon' | 'lparen' | 'rparen'; readonly start: number; readonly end: number }

/** Reports a problem: throws in strict mode, records a warning when recovering. */
export type ReportProblem = (problem: QueryProblem, message: string, position: number) => void

const QUOTES = new Set(['"', '\u201C', '\u201D'])
const isSpace = (char: string): boolean => /\s/.test(char)
const isDelimiter = (char: string): boolean =>
  isSpace(char) || char === '(' || char === ')' || char === '[' || char === ']' || QUOTES.has(char)

/**
 * Tokenizes `text`. Problems (an unclosed quote or tag, a stray `]`) go to `report`; when
 * it returns, the offending character is skipped.
 * @param text - the query
 * @param report - called for each problem
 */
export function tokenize(text: string, report: ReportProblem): Token[] {
  const tokens: Token[] = []
  // Cached next "]" and "[" positions, so that many unclosed "[" cost linear time.
  let nextClose = -2
  let nextOpen = -2
  let i = 0
  while (i < text.length) {
    const char = text.charAt(i)
    if (isSpace(char)) {
      i += 1
    } else if (char === '(') {
      tokens.push({ type: 'lparen', start: i, end: i + 1 })
      i += 1
    } else if (char === ')') {
      tokens.push({ type: 'rparen', start: i, end: i + 1 })
      i += 1
    } else if (char === ']') {
      report('UNEXPECTED_BRACKET', 'unexpected "]" with no "[" before it', i)
      i += 1
    } else if (char === '[') {
      if (nextClose !== -1 && nextClose <= i) {
        nextClose = text.indexOf(']', i + 1)
      }
      if (nextOpen !== -1 && nextOpen <= i) {
        nextOpen = text.indexOf('[', i + 1)
      }
      const close = nextClose
      if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
        report('UNTERMINATED_TAG', 'field tag "[" is never closed with "]"', i)
        i += 1
      } else {
        tokens.push({ type: 'tag', text: text.slice(i + 1, close), start: i, end: close + 1 })
        i = close + 1
      }
    } else if (QUOTES.has(char)) {
      let close = -1
      for (let j = i + 1; j < text.length; j += 1) {
        if (QUOTES.has(text.charAt(j))) {
          close = j
          break
        }
      }
      if (close === -1) {
        report('UNTERMINATED_QUOTE', `quote is never closed: ${quoteForMessage(text.slice(i))}`, i)
        i += 1
      } else {
        tokens.push({ type: 'quoted', text: text.slice(i + 1, close), start: i, end: close + 1 })
        i = close + 1
      }
    } else if (char === ':') {
      tokens.push({ type: 'colon', start: i, end: i + 1 })
      i += 1
    } else {
      let j = i
      while (j < text.length && !isDelimiter(text.charAt(j))) {
        j += 1
      }
      const word = text.slice(i, j)
      if (word === 'AND' || word === 'OR' || word === 'NOT') {
        tokens.push({ type: 'op', op: word, start: i, end: j })
      } else if (/^#\d+$/.test(word)) {
        tokens.push({ type: 'history', text: word, start: i, end: j })
      } else {
        tokens.push({ type: 'word', text: word, start: i, end: j })
      }
      i = j
    }
  }
  return tokens
}

/**
 * Quotes a piece of input for a message: one line, at most 40 characters.
 * @param text - the input
 */
export function quoteForMessage(text: string): string {
  return JSON.stringify(truncateForMessage(text, 40))
}
