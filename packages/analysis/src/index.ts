// Analyzers: a tokenizer and token filters under a name that an index records
export {
  analyzeTerms,
  createAnalyzer,
  isJoinedToken,
  phraseTokens,
  textTerms,
  withTerm,
  withTermStep,
} from './analyzer.ts'
export type {
  AnalyzedToken,
  Analyzer,
  AnalyzerOptions,
  TermSink,
  TermStep,
  TermStream,
  TokenFilter,
  Tokenizer,
} from './analyzer.ts'
// Ready-made analyzers, and analyzers by name
export { biomedicalAnalyzer } from './analyzers/biomedical.ts'
export type { BiomedicalAnalyzerOptions } from './analyzers/biomedical.ts'
export { whitespaceAnalyzer } from './analyzers/whitespace.ts'
export type { WhitespaceAnalyzerOptions } from './analyzers/whitespace.ts'
export { BUILTIN_ANALYZER_NAMES, createAnalyzerRegistry, getAnalyzer } from './registry.ts'
export type { AnalyzerRegistry } from './registry.ts'
// Tokenizers
export { createBiomedicalTokenizer } from './tokenizer/biomedical-tokenizer.ts'
export type { BiomedicalTokenizerOptions } from './tokenizer/biomedical-tokenizer.ts'
export { whitespaceTokenize } from './tokenizer/whitespace-tokenizer.ts'
// Token filters and the PubMed stop words
export { greekFilter } from './filters/greek.ts'
export { lowercaseFilter } from './filters/lowercase.ts'
export { unicodeNormalizeFilter } from './filters/unicode-normalize.ts'
export { createStopwordFilter } from './filters/stopwords.ts'
export { PUBMED_STOPWORDS } from './stopwords/pubmed-stopwords.ts'
export { createStemFilter } from './filters/stem.ts'
export type { StemFilterOptions } from './filters/stem.ts'
// Stemmers
export { createCachedStemmer } from './stemmer/stemmer.ts'
export type { Stemmer } from './stemmer/stemmer.ts'
export { createSnowballStemmer } from './stemmer/snowball.ts'
export type { SnowballLanguage, SnowballStemmerOptions } from './stemmer/snowball.ts'
