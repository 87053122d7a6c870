// The second stage of Best Match: NCBI's 179 features, the query memory, search logs → labels,
// LambdaMART training and reranking. What another pubmatch package or a benchmark drives directly
// (the incremental forward-store builder, the bare extractor and memory, training on a training
// set) is `@pubmatch/ltr/internal` (src/internal.ts); the rest stays in its module.

// the recipe: train on labelled queries, save the model, open it over an index, rerank
export { bestMatchExtractor, DEFAULT_RANGE_MARGIN, openReranker, saveBestMatchModel, splitQueries, trainBestMatch } from './best-match.ts'
export type {
  BestMatchReranker,
  BestMatchRerankOptions,
  CurrentFirstStage,
  FeatureContext,
  OpenRerankerOptions,
  TrainBestMatchOptions,
  TrainedBestMatch,
} from './best-match.ts'

// features: the 179 (+ M1–M3, + extra blocks) over an index and its forward store
export type { DocumentUsage, FeatureExtractor, FeatureSchema, LabelledQuery } from './types.ts'
export { BEST_MATCH_SCHEMA } from './features/registry.ts'
export { MEMORY_FEATURES } from './memory.ts'
export type { FeatureBlock } from './memory.ts'
export { buildForwardIndex, loadForwardIndex } from './features/forward.ts'
export type { ForwardDocument, ForwardIndex, ForwardIndexOptions } from './features/forward.ts'

// training sets and feature logging
export { buildTrainingSet } from './training-set.ts'
export type { BuildTrainingSetOptions, TrainingSet } from './training-set.ts'
export { formatLetor, formatLightGbmText } from './letor.ts'
export type { FormatLetorOptions } from './letor.ts'

// models and reranking
export { loadModel, toSolrLtr } from './model.ts'
export type { ModelManifest, QueryRange, RankerModel, SolrLtrModel } from './model.ts'
export { createReranker } from './rerank.ts'
export type { FeatureContribution, RerankedHit, Reranker, RerankFallback, RerankOptions, RerankResult } from './rerank.ts'

// search logs → labels, past usage, simulated clicks, NCBI's sample
export { createLogStore } from './clicks/log-store.ts'
export type { LogSink, LogStore, LogStoreOptions } from './clicks/log-store.ts'
export type { LogEvent } from './clicks/log-format.ts'
export { feedbackRoundEvents } from './clicks/feedback-events.ts'
export type { GradedFeedbackRound } from './clicks/feedback-events.ts'
export { labelQueries } from './clicks/pipeline.ts'
export type { ClickLabelledQuery, LabelQueriesOptions, LabelQueriesResult } from './clicks/pipeline.ts'
export { ncbiEligible } from './clicks/labels.ts'
export type { EligibilityOptions } from './clicks/labels.ts'
export { readUsage } from './clicks/usage.ts'
export type { UsageCounts } from './clicks/usage.ts'
export { simulateClicks } from './clicks/simulate.ts'
export type { ClickModel, SimulateClicksOptions, SimulationStats } from './clicks/simulate.ts'
export { readBestMatchSample } from './clicks/best-match-sample.ts'
export type { BestMatchSample } from './clicks/best-match-sample.ts'
