/**
 * Best Match's 179 features: the registry, the forward store of document text, the span
 * algorithm and the extractor.
 */
export {
  BEST_MATCH_SCHEMA,
  COLUMNS,
  FEATURE_COUNT,
  LANGUAGES,
  NEUTRAL_YEAR,
  NO_POSITION,
  PUBLICATION_TYPES,
  SPAN_FEATURES,
} from './registry.ts'
export {
  FORWARD_FIELDS,
  buildForwardIndex,
  createForwardIndexBuilder,
  loadForwardIndex,
  tokenFlags,
} from './forward.ts'
export type {
  ForwardDocument,
  ForwardField,
  ForwardFieldName,
  ForwardIndex,
  ForwardIndexBuilder,
  ForwardIndexOptions,
} from './forward.ts'
export {
  SINGLE_MATCH_SPAN_LENGTH,
  SPAN_BREAK_GAP,
  SPAN_FEATURE_COUNT,
  TOKEN_DEFINITE,
  TOKEN_INDEFINITE,
  TOKEN_STOPWORD,
  createSpanScratch,
  findSpans,
  findSpansInto,
  spanFeatures,
} from './spans.ts'
export type { SpanScratch } from './spans.ts'
export { createFeatureExtractor, logIdf, queryTextFeatures } from './extract.ts'
export type { FeatureExtractorOptions, IdfFunction } from './extract.ts'
