/**
 * The tokens of query texts a searcher has analysed, kept per analyzer (bounded, least recently
 * used first out), so that a repeated query does not run the tokenizer and filter chain again.
 *
 * Only built-in analyzers (`getAnalyzer(name)` returns the very object) are cached: they are pure
 * functions of the text. Any other analyzer (a registry's, or one passed as `queryAnalyzer`) may
 * keep state, so it analyses every time. Cached tokens are frozen, so no caller can change them.
 */
import { getAnalyzer, type AnalyzedToken, type Analyzer } from '@pubmatch/analysis'

/** How many (analyzer, text) entries a searcher keeps. */
export const QUERY_ANALYSIS_CACHE_SIZE = 4096

/** Longer texts are analysed every time (they are rarely repeated, and would hold memory). */
const MAX_CACHED_TEXT = 256

/** Whether an analyzer is a built-in one (memoised per analyzer object). */
const builtin = new WeakMap<Analyzer, boolean>()

function isBuiltin(analyzer: Analyzer): boolean {
  let known = builtin.get(analyzer)
  if (known === undefined) {
    try {
      known = getAnalyzer(analyzer.name) === analyzer
    } catch {
      known = false // not a built-in name
    }
    builtin.set(analyzer, known)
  }
  return known
}

/** A bounded cache of analysed query texts. */
export class QueryAnalysisCache {
  private readonly capacity: number
  private readonly entries = new Map<Analyzer, Map<string, readonly AnalyzedToken[]>>()
  private size = 0

  /** @param capacity - the most (analyzer, text) entries kept; defaults to {@link QUERY_ANALYSIS_CACHE_SIZE} */
  constructor(capacity: number = QUERY_ANALYSIS_CACHE_SIZE) {
    this.capacity = capacity
  }

  /**
   * `analyzer.analyze(text)`, from the cache when the analyzer is built in and the text was seen.
   * @param analyzer - the analyzer
   * @param text - the text
   */
  analyze(analyzer: Analyzer, text: string): readonly AnalyzedToken[] {
    if (text.length > MAX_CACHED_TEXT || !isBuiltin(analyzer)) {
      return analyzer.analyze(text)
    }
    let texts = this.entries.get(analyzer)
    if (texts === undefined) {
      texts = new Map()
      this.entries.set(analyzer, texts)
    }
    const hit = texts.get(text)
    if (hit !== undefined) {
      // most recently used last
      texts.delete(text)
      texts.set(text, hit)
      return hit
    }
    const tokens = analyzer.analyze(text)
    for (const token of tokens) {
      Object.freeze(token)
    }
    Object.freeze(tokens)
    if (this.size >= this.capacity) {
      this.evict()
    }
    texts.set(text, tokens)
    this.size++
    return tokens
  }

  /** How many entries are kept. */
  get count(): number {
    return this.size
  }

  /** Drops the least recently used entry of the analyzer with the most entries. */
  private evict(): void {
    let largest: Map<string, readonly AnalyzedToken[]> | undefined
    for (const texts of this.entries.values()) {
      if (largest === undefined || texts.size > largest.size) {
        largest = texts
      }
    }
    if (largest !== undefined && largest.size > 0) {
      largest.delete(largest.keys().next().value!)
      this.size--
    }
  }
}
