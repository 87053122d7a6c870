import type { AnalyzedToken, TermSink, Tokenizer } from '../analyzer.ts'

/** Whether a UTF-16 code unit is white space (the characters `\s` matches in a RegExp). */
function isSpace(c: number): boolean {
  if (c <= 0x20) {
    return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  }
  if (c < 0xa0) {
    return false
  }
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/** Sends each white-space-separated word of `text` to `sink` with its position. */
function eachWord(text: string, sink: (term: string, position: number) => void): void {
  const n = text.length
  let position = 0
  let i = 0
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) {
      i++
    }
    if (i >= n) {
      break
    }
    const start = i
    while (i < n && !isSpace(text.charCodeAt(i))) {
      i++
    }
    sink(text.slice(start, i), position++)
  }
}

/**
 * Splits text on white space and nothing else: no lower-casing, no punctuation handling. Meant
 * for corpora that are already pre-processed, such as NFCorpus (`low-level` and `pg/ml` stay one
 * token each). Positions are 0, 1, 2, …; `original` is the token itself. Pure function; its
 * `stream` sends the same tokens to a sink.
 * @param text - the text
 */
export const whitespaceTokenize: Tokenizer = Object.assign(
  function whitespaceTokenize(text: string): AnalyzedToken[] {
    const out: AnalyzedToken[] = []
    eachWord(text, (term, position) => {
      out.push({ term, position, original: term })
    })
    return out
  },
  {
    stream(text: string, sink: TermSink): void {
      eachWord(text, (term, position) => sink(term, position, 1))
    },
  },
)
