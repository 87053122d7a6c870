import type { AnalyzedToken } from '../analyzer.ts'

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

/**
 * Splits text on white space and nothing else: no lower-casing, no punctuation handling. Meant
 * for corpora that are already pre-processed, such as NFCorpus (`low-level` and `pg/ml` stay one
 * token each). Positions are 0, 1, 2, …; `original` is the token itself. Pure function.
 * @param text - the text
 */
export function whitespaceTokenize(text: string): AnalyzedToken[] {
  const out: AnalyzedToken[] = []
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
    const term = text.slice(start, i)
    out.push({ term, position: position++, original: term })
  }
  return out
}
