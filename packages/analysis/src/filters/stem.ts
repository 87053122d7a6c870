import { PubmatchError } from '@pubmatch/core'
import { withTerm, withTermStep, type TokenFilter } from '../analyzer.ts'
import type { Stemmer } from '../stemmer/stemmer.ts'

/** Options of {@link createStemFilter}. */
export interface StemFilterOptions {
  /**
   * Terms shorter than this are not stemmed. Porter2 leaves words of one or two letters alone,
   * so the default skips only calls that cannot change anything. Defaults to `3`.
   */
  minLength?: number
}

/** Terms made of ASCII lower-case letters only (a regex test is faster than a char loop here). */
const LOWER_ASCII_WORD = /^[a-z]+$/

/**
 * Creates a filter that stems the term with an injected {@link Stemmer} (CONTRIBUTING.md,
 * "Code style"). Only terms made of ASCII lower-case letters are stemmed: numbers, alphanumeric
 * joins (`cox2`) and other scripts pass unchanged. The unstemmed form stays in `original` (set
 * from the term when the tokenizer did not set it).
 * @param stemmer - the stemmer, e.g. `createSnowballStemmer()`
 * @param options - see {@link StemFilterOptions}
 */
export function createStemFilter(stemmer: Stemmer, options: StemFilterOptions = {}): TokenFilter {
  const minLength = options.minLength ?? 3
  if (!Number.isInteger(minLength) || minLength < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `minLength must be a non-negative integer, got ${String(minLength)}`,
    )
  }
  const step = (term: string): string =>
    term.length < minLength || !LOWER_ASCII_WORD.test(term) ? term : stemmer(term)
  return withTermStep((token) => {
    const { term } = token
    if (term.length < minLength || !LOWER_ASCII_WORD.test(term)) {
      return token
    }
    const stem = stemmer(term)
    return stem === term && token.original !== undefined ? token : withTerm(token, stem)
  }, step)
}
