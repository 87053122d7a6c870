/**
 * Highlights for result lists: which words of a title or abstract match the query, and the
 * passage of an abstract that shows the most of them. A word matches when the index's analyzer
 * turns it into a term the query's words also give (so `children` matches `child*`'s stem
 * `child` and `Cancers` matches `cancer`). Offsets are UTF-16 code units into the text, so a
 * client marks them without parsing anything (no HTML is ever produced here).
 */
import type { Analyzer } from '@pubmatch/analysis'
import type { StoredDocument } from '@pubmatch/index'

/** A stretch of text and the matched words in it. */
export interface Highlighted {
  readonly text: string
  /** `[start, end)` offsets of matched words, in order, not overlapping. */
  readonly matches: ReadonlyArray<readonly [number, number]>
}

/** What a query asks to mark: analysed terms, and the prefixes of its truncated words (`child*`). */
export interface QueryTerms {
  readonly terms: ReadonlySet<string>
  /** Lower-cased prefixes of wildcard words. */
  readonly prefixes: readonly string[]
}

/** Options of {@link createHighlighter}. */
export interface HighlighterOptions {
  /** The analyzer of the index's text fields. */
  readonly analyzer: Analyzer
  /** Most characters of an abstract passage. Defaults to `320`. */
  readonly snippetChars?: number
}

/** Marks query terms in texts. */
export interface Highlighter {
  /**
   * The analysed terms of a query's words (field tags and operators left out) and the prefixes of
   * its truncated words.
   * @param query - the query as typed
   */
  terms(query: string): QueryTerms
  /**
   * Every matched word of a text.
   * @param text - a title, say
   * @param terms - from {@link Highlighter.terms}
   */
  highlight(text: string, terms: QueryTerms): Highlighted
  /**
   * The passage of at most `snippetChars` characters that holds the most distinct matched terms
   * (then the most matches, then the earliest), cut at word boundaries, with `…` where text was
   * left out; the start of the text when nothing matches.
   * @param text - an abstract, say
   * @param terms - from {@link Highlighter.terms}
   */
  snippet(text: string, terms: QueryTerms): Highlighted
}

const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu
const QUERY_NOISE = /\[[^\]]*\]|\b(?:AND|OR|NOT)\b|[()"]/g
const TRUNCATED = /([\p{L}\p{N}][\p{L}\p{N}-]*)\*/gu
const ELLIPSIS = '…'

/**
 * A highlighter over an analyzer.
 * @param options - see {@link HighlighterOptions}
 */
export function createHighlighter(options: HighlighterOptions): Highlighter {
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

/**
 * A record's title with the query's words marked and its abstract's best passage (what a result
 * list shows): the same for every engine, from the stored text and the analyzer alone.
 * @param highlighter - over the collection's analyzer
 * @param document - the stored record
 * @param query - the query as typed
 */
export function highlightDocument(
  highlighter: Highlighter,
  document: StoredDocument,
  query: string,
): { readonly title: Highlighted; readonly snippet: Highlighted } {
  const terms = highlighter.terms(query)
  return {
    title: highlighter.highlight(document.title, terms),
    snippet: highlighter.snippet(document.abstract ?? '', terms),
  }
}
