// The second stage of Best Match: NCBI's 179 features, the query memory, search logs → labels,
// LambdaMART training and reranking. Explicit exports only; the span algorithm's scratch
// buffers, token flags and column layout stay internal.

// the recipe every app uses
export {
  acceptedRange,
  bestMatchExtractor,
  DEFAULT_RANGE_MARGIN,
  checkFirstStage,
  createBestMatchReranker,
  memoryQueries,
  openReranker,
  saveBestMatchModel,
  splitQueries,
  trainBestMatch,
} from './best-match.ts'
export type {
  BestMatchReranker,
  BestMatchRerankOptions,
  CurrentFirstStage,
  FeatureContext,
  OpenRerankerOptions,
  TrainBestMatchOptions,
  TrainedBestMatch,
  TrainProgress,
} from './best-match.ts'

// features
export type {
  DocumentUsage,
  FeatureDefinition,
  FeatureExtractor,
  FeatureGroup,
  FeatureMatrix,
  FeatureSchema,
  LabelledQuery,
} from './types.ts'
export { BEST_MATCH_SCHEMA, FEATURE_COUNT, LANGUAGES, PUBLICATION_TYPES } from './features/registry.ts'
export { buildForwardIndex, createForwardIndexBuilder, loadForwardIndex } from './features/forward.ts'
export type { ForwardDocument, ForwardIndex, ForwardIndexBuilder, ForwardIndexOptions } from './features/forward.ts'
export { createFeatureExtractor } from './features/extract.ts'
export type { FeatureExtractorOptions, IdfFunction } from './features/extract.ts'
export { MEMORY_FEATURES, MEMORY_SCHEMA_SUFFIX, createQueryMemory, withFeatureBlock, withMemorySchema, withQueryMemory } from './memory.ts'
export type { FeatureBlock, QueryMemory, QueryMemoryOptions } from './memory.ts'

// training sets and training
export { buildTrainingSet, selectFeatures, selectQueries } from './training-set.ts'
export type { BuildTrainingSetOptions, SkipReason, TrainingSet, TrainingSetStats } from './training-set.ts'
export { formatLetor, formatLightGbmText, parseLetor } from './letor.ts'
export type { FormatLetorOptions } from './letor.ts'
export { DEFAULT_GRID, DEFAULT_LTR_PARAMS, gridCombinations, gridSearch, trainRanker } from './train.ts'
export type { GridPoint, GridSearchOptions, ParamGrid, TrainedRanker, TrainRankerOptions } from './train.ts'

// models and reranking
export {
  MANIFEST_FILE,
  MEMORY_FILE,
  MODEL_FILE,
  MODEL_FORMAT,
  checkSchema,
  loadModel,
  loadModelMemory,
  saveModel,
  saveModelMemory,
  scoreSolrLtr,
  toSolrLtr,
} from './model.ts'
export type { FirstStageRecord, ModelManifest, QueryRange, RankerModel, SolrLtrModel, SolrTreeNode, TrainingRecord } from './model.ts'
export { createReranker, explainScore } from './rerank.ts'
export type { FeatureContribution, RerankedHit, RerankExplanation, Reranker, RerankFallback, RerankOptions, RerankResult } from './rerank.ts'

// search logs
export { LOG_FORMAT_VERSION, formatLogEvent, parseLogEvent, parseLogLines } from './clicks/log-format.ts'
export type { ActionEvent, ActionKind, LogEvent, LogLocation, LogProblem, SearchEvent, ShownResult } from './clicks/log-format.ts'
export { createLogStore } from './clicks/log-store.ts'
export { feedbackRoundEvents } from './clicks/feedback-events.ts'
export type { GradedFeedbackRound, FeedbackRoundGrade } from './clicks/feedback-events.ts'
export type { LogSink, LogStore, LogStoreOptions, ReadLogOptions } from './clicks/log-store.ts'
export { goldOverlap, ncbiEligible, ncbiGrade, ncbiJudgements, yeganovaVotes } from './clicks/labels.ts'
export type { EligibilityOptions, YeganovaVotes } from './clicks/labels.ts'
export { documentUsage, labelQueries, normalizeQuery } from './clicks/pipeline.ts'
export type {
  ActionDropReason,
  ClickCounts,
  ClickLabelledQuery,
  LabelQueriesOptions,
  LabelQueriesResult,
  LabelStats,
  Labelling,
  QueryDropReason,
  SearchDropReason,
} from './clicks/pipeline.ts'
export { readUsage, usageCounts } from './clicks/usage.ts'
export type { UsageCounts } from './clicks/usage.ts'
export { simulateClicks } from './clicks/simulate.ts'
export type { ClickModel, SimulateClicksOptions, SimulatedSearchResult, SimulationStats } from './clicks/simulate.ts'
export { readBestMatchSample } from './clicks/best-match-sample.ts'
export type { BestMatchSample, BestMatchSampleQuery, BestMatchSampleStats } from './clicks/best-match-sample.ts'
