import { createAnalyzer, type Analyzer, type TokenFilter } from '../analyzer.ts'
import { greekFilter } from '../filters/greek.ts'
import { createStemFilter } from '../filters/stem.ts'
import { createStopwordFilter } from '../filters/stopwords.ts'
import { createSnowballStemmer } from '../stemmer/snowball.ts'
import type { Stemmer } from '../stemmer/stemmer.ts'
import { PUBMED_STOPWORDS } from '../stopwords/pubmed-stopwords.ts'
import {
  createBiomedicalTokenizer,
  type BiomedicalTokenizerOptions,
} from '../tokenizer/biomedical-tokenizer.ts'

/** Options of {@link biomedicalAnalyzer}. */
export interface BiomedicalAnalyzerOptions {
  /**
   * Stemming: `true` = Snowball English (Porter2) via `createSnowballStemmer()`, a function =
   * that stemmer, `false` = none. Defaults to `true`.
   */
  stem?: boolean | Stemmer
  /**
   * Stop words: `true` = {@link PUBMED_STOPWORDS}, an iterable = that list, `false` = keep every
   * word. Defaults to `true`.
   */
  stopwords?: boolean | Iterable<string>
  /** Spell Greek letters out (`α` → `alpha`). Defaults to `true`. */
  greek?: boolean
  /** Tokenizer options. Defaults to the tokenizer's defaults. */
  tokenizer?: BiomedicalTokenizerOptions
  /**
   * The analyzer's name. Defaults to the registry name of the configuration: `biomedical`, with
   * `:nostem` and/or `:nostop` appended when those are off, and `:custom` when a custom stemmer,
   * stop-word list, tokenizer options or `greek: false` are given (such analyzers are not in the
   * built-in registry; give them a name and use `createAnalyzerRegistry`).
   */
  name?: string
}

/**
 * The default analyzer for PubMed titles and abstracts: biomedical tokenizer → Greek letters
 * spelled out → PubMed stop words dropped → Porter2 stemming. Token order and positions are
 * the tokenizer's; `original` keeps the unstemmed surface form.
 * @param options - see {@link BiomedicalAnalyzerOptions}
 */
export function biomedicalAnalyzer(options: BiomedicalAnalyzerOptions = {}): Analyzer {
  const stem = options.stem ?? true
  const stopwords = options.stopwords ?? true
  const greek = options.greek ?? true
  const filters: TokenFilter[] = []
  if (greek) {
    filters.push(greekFilter)
  }
  if (stopwords !== false) {
    filters.push(createStopwordFilter(stopwords === true ? PUBMED_STOPWORDS : stopwords))
  }
  if (stem !== false) {
    filters.push(createStemFilter(stem === true ? createSnowballStemmer() : stem))
  }
  const custom =
    typeof stem === 'function' ||
    (stopwords !== true && stopwords !== false) ||
    !greek ||
    options.tokenizer !== undefined
  const name =
    options.name ??
    `biomedical${stem === false ? ':nostem' : ''}${stopwords === false ? ':nostop' : ''}${custom ? ':custom' : ''}`
  return createAnalyzer(name, createBiomedicalTokenizer(options.tokenizer), filters)
}
