import { createBiomedicalTokenizer, PUBMED_STOPWORDS, type Tokenizer } from '@pubmatch/analysis'

/**
 * How every length and count of this package is measured: pubmatch's biomedical tokenizer with
 * normalisation (NFKC, lower case, diacritics folded) and without the joined compound forms, so
 * that one token is one position (`IL-6` → `il`, `6`).
 */
export const TOKENIZER_DESCRIPTION =
  '@pubmatch/analysis createBiomedicalTokenizer({ joinCompounds: false })'

let tokenizer: Tokenizer | undefined
let surfaceTokenizer: Tokenizer | undefined

/**
 * The terms of a text, one per position (see {@link TOKENIZER_DESCRIPTION}).
 * @param text - any text
 */
export function tokenTerms(text: string): string[] {
  tokenizer ??= createBiomedicalTokenizer({ joinCompounds: false })
  return tokenizer(text).map((token) => token.term)
}

/**
 * The tokens of a text with their case kept (no normalisation), one per position; used to find
 * the usual surface form of a word (`DNA`).
 * @param text - any text
 */
export function surfaceTerms(text: string): string[] {
  surfaceTokenizer ??= createBiomedicalTokenizer({ joinCompounds: false, normalize: false })
  return surfaceTokenizer(text).map((token) => token.term)
}

/** PubMed's stop words, the function words of this package. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(PUBMED_STOPWORDS)
