import { PubmatchError } from '@pubmatch/core'

/**
 * Reduces a (lower-case) word to its stem. Injected into the stem filter rather than imported
 * globally (CONTRIBUTING.md, "Code style"); `createSnowballStemmer` is the Porter2 implementation.
 */
export type Stemmer = (word: string) => string

/**
 * Wraps a stemmer with a bounded memo: at most `capacity` words are remembered, and when full
 * the oldest entry is evicted (insertion order, O(1)). Word frequencies in abstracts are Zipfian,
 * so a cache of ~10^5 words answers most calls.
 * @param stemmer - the stemmer to wrap; must be a pure function of its input
 * @param capacity - the most words kept; `0` returns `stemmer` itself. Defaults to `100_000`.
 */
export function createCachedStemmer(stemmer: Stemmer, capacity = 100_000): Stemmer {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `stem cache capacity must be a non-negative integer, got ${String(capacity)}`,
    )
  }
  if (capacity === 0) {
    return stemmer
  }
  const cache = new Map<string, string>()
  return (word) => {
    let stem = cache.get(word)
    if (stem === undefined) {
      stem = stemmer(word)
      if (cache.size >= capacity) {
        cache.delete(cache.keys().next().value!)
      }
      cache.set(word, stem)
    }
    return stem
  }
}
