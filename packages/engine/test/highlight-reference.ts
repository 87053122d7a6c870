/**
 * The highlighter as it was written first: regular expressions over the text, every word an
 * object, every window of the snippet filtered again. Kept for the tests only, as the reference
 * the faster `createHighlighter` must equal on every text and query.
 */
import type { Highlighter, HighlighterOptions, QueryTerms } from '../src/highlight.ts'

const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu
const QUERY_NOISE = /\[[^\]]*\]|\b(?:AND|OR|NOT)\b|[()"]/g
const TRUNCATED = /([\p{L}\p{N}][\p{L}\p{N}-]*)\*/gu
const ELLIPSIS = '…'

/**
 * The reference highlighter (the first implementation).
 * @param options - as `createHighlighter`'s
 */
export function createReferenceHighlighter(options: HighlighterOptions): Highlighter {
  const analyzer = options.analyzer
  const maxChars = options.snippetChars ?? 320
  // the terms of recent words, by lower-cased word: two generations of at most 50,000, so a full
  // cache keeps the words in use instead of starting again from nothing
  let cache = new Map<string, readonly string[]>()
  let older = new Map<string, readonly string[]>()
  const termsOf = (word: string, key = word.toLowerCase()): readonly string[] => {
    let terms = cache.get(key)
    if (terms === undefined) {
      terms = older.get(key) ?? analyzer.analyze(word).map((token) => token.term)
      if (cache.size >= 50_000) {
        older = cache
        cache = new Map()
      }
      cache.set(key, terms)
    }
    return terms
  }
  const words = (text: string): Array<{ start: number; end: number; word: string; terms: readonly string[] }> =>
    [...text.matchAll(WORD)].map((match) => {
      const word = match[0].toLowerCase()
      return { start: match.index, end: match.index + match[0].length, word, terms: termsOf(match[0], word) }
    })
  const matched = (word: { word: string; terms: readonly string[] }, query: QueryTerms): boolean =>
    word.terms.some((term) => query.terms.has(term)) || query.prefixes.some((prefix) => word.word.startsWith(prefix))
  const key = (word: { word: string; terms: readonly string[] }, query: QueryTerms): string[] => [
    ...word.terms.filter((term) => query.terms.has(term)),
    ...query.prefixes.filter((prefix) => word.word.startsWith(prefix)).map((prefix) => `${prefix}*`),
  ]

  return {
    terms(query) {
      const cleaned = query.replace(QUERY_NOISE, ' ')
      const prefixes = [...cleaned.matchAll(TRUNCATED)].map((match) => match[1]!.toLowerCase())
      const out = new Set<string>()
      for (const match of cleaned.replace(TRUNCATED, ' ').matchAll(WORD)) {
        for (const term of termsOf(match[0])) {
          out.add(term)
        }
      }
      return { terms: out, prefixes }
    },

    highlight(text, terms) {
      const matches: Array<readonly [number, number]> = []
      for (const word of words(text)) {
        if (matched(word, terms)) {
          matches.push([word.start, word.end])
        }
      }
      return { text, matches }
    },

    snippet(text, terms) {
      if (text.length <= maxChars) {
        return this.highlight(text, terms)
      }
      const all = words(text)
      const hits = all.filter((word) => matched(word, terms))
      // the window [from, from + maxChars) starting at a word, scored by distinct terms, then matches
      let best = { from: 0, distinct: -1, count: -1 }
      for (const first of hits.length > 0 ? hits : [{ start: 0 }]) {
        const from = Math.max(0, Math.min(first.start - 40, text.length - maxChars))
        const inside = hits.filter((word) => word.start >= from && word.end <= from + maxChars)
        const distinct = new Set(inside.flatMap((word) => key(word, terms))).size
        if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count)) {
          best = { from, distinct, count: inside.length }
        }
      }
      // snap to word boundaries
      const startWord = all.find((word) => word.start >= best.from)
      const start = best.from === 0 || startWord === undefined ? 0 : startWord.start
      const inWindow = all.filter((word) => word.start >= start && word.end <= start + maxChars)
      const end = inWindow.length > 0 ? inWindow[inWindow.length - 1]!.end : Math.min(text.length, start + maxChars)
      const prefix = start > 0 ? ELLIPSIS : ''
      const suffix = end < text.length ? ELLIPSIS : ''
      const body = text.slice(start, end)
      const matches = hits
        .filter((word) => word.start >= start && word.end <= end)
        .map((word) => [word.start - start + prefix.length, word.end - start + prefix.length] as const)
      return { text: `${prefix}${body}${suffix}`, matches }
    },
  }
}
