import { createAnalyzer, type Analyzer } from '../analyzer.ts'
import { createStemFilter } from '../filters/stem.ts'
import { createSnowballStemmer } from '../stemmer/snowball.ts'
import type { Stemmer } from '../stemmer/stemmer.ts'
import { whitespaceTokenize } from '../tokenizer/whitespace-tokenizer.ts'

/** Options of {@link whitespaceAnalyzer}. */
export interface WhitespaceAnalyzerOptions {
  /**
   * Stemming: `true` = Snowball English (Porter2), a function = that stemmer, `false` = none.
   * Only all-lower-case ASCII words are stemmed. Defaults to `false`.
   */
  stem?: boolean | Stemmer
  /**
   * The analyzer's name. Defaults to `whitespace`, `whitespace:stem` with Porter2, and
   * `whitespace:custom` with a custom stemmer.
   */
  name?: string
}

/**
 * An analyzer for pre-processed corpora such as NFCorpus: split on white space, nothing else
 * (no lower-casing, no stop words), optionally stemmed.
 * @param options - see {@link WhitespaceAnalyzerOptions}
 */
export function whitespaceAnalyzer(options: WhitespaceAnalyzerOptions = {}): Analyzer {
  const stem = options.stem ?? false
  const name =
    options.name ??
    (stem === false ? 'whitespace' : stem === true ? 'whitespace:stem' : 'whitespace:custom')
  const filters =
    stem === false ? [] : [createStemFilter(stem === true ? createSnowballStemmer() : stem)]
  return createAnalyzer(name, whitespaceTokenize, filters)
}
