// @pubmatch/synth — public API: a deterministic synthetic PubMed-like corpus generator fitted to
// real articles, and a sampler of real PubMed queries.

// Fitting
export { fitCorpusModel } from './fit/fit.ts'
export type { FitOptions } from './fit/fit.ts'
export type { MeshVocabularyInput } from './fit/fit-mesh.ts'
export { contentGrowth, isGrowthTerm } from './fit/fit-vocabulary.ts'
export type { ContentGrowth } from './fit/fit-vocabulary.ts'

// The model
export {
  CORPUS_MODEL_VERSION,
  DEFAULT_MODEL_PATH,
  loadCorpusModel,
  parseCorpusModel,
} from './model.ts'
export type {
  AuthorModel,
  CorpusModel,
  DescriptorEntry,
  JournalEntry,
  MeshModel,
  MetadataModel,
  ModelProvenance,
  QueryLogEntry,
  SectionShape,
  TextModel,
  TopicModel,
  VocabularyModel,
  Weighted,
} from './model.ts'

// Generating
export { createArticleGenerator, generateCorpus } from './generate.ts'
export type { ArticleGenerator, GenerateOptions } from './generate.ts'
export { toJsonlRecord } from './jsonl-record.ts'
export type { JsonlArticle } from './jsonl-record.ts'
export { writeCorpusJsonl } from './jsonl.ts'
export type { WriteJsonlOptions, WriteJsonlResult } from './jsonl.ts'

// Queries
export { parseQueryLog, queryTerms, sampleQueries } from './queries.ts'
export type { SampleQueriesOptions } from './queries.ts'

// Statistics and the building blocks (distributions, laws, randomness)
export { corpusStatistics, summarize } from './stats.ts'
export type { CorpusStatistics, StatisticsOptions, Summary } from './stats.ts'
export { fitCountDistribution, fitLogNormal, sampleCount } from './distributions.ts'
export type { CountDistribution, LogNormalFit } from './distributions.ts'
export { createRankSampler, expectedVocabulary, fitHeaps, fitZipfMandelbrot } from './zipf.ts'
export type { HeapsFit, RankLaw, RankSampler, ZipfFitOptions, ZipfMandelbrotFit } from './zipf.ts'
export {
  createVocabularySampler,
  FUNCTION_TOPIC,
  GENERAL_TOPIC,
  isNumericTail,
} from './vocabulary.ts'
export type { VocabularySampler } from './vocabulary.ts'
export { createAliasTable } from './alias.ts'
export type { AliasTable } from './alias.ts'
export { createRng, createXoshiro128, hashString, mix32 } from './random.ts'
export type { Rng } from './random.ts'
export { syntheticNumber, syntheticWord, SYNTHETIC_WORD_CAPACITY } from './words.ts'
export { tokenTerms, TOKENIZER_DESCRIPTION } from './text.ts'
