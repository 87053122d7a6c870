export type {
  DocumentUsage,
  FeatureDefinition,
  FeatureExtractor,
  FeatureGroup,
  FeatureMatrix,
  FeatureSchema,
  LabelledQuery,
} from './types.ts'
export { buildTrainingSet, selectFeatures, selectQueries } from './training-set.ts'
export type { BuildTrainingSetOptions, SkipReason, TrainingSet, TrainingSetStats } from './training-set.ts'
export { formatLetor, formatLightGbmText, parseLetor } from './letor.ts'
export type { FormatLetorOptions } from './letor.ts'
export { DEFAULT_GRID, DEFAULT_LTR_PARAMS, gridCombinations, gridSearch, trainRanker } from './train.ts'
export type { GridPoint, GridSearchOptions, ParamGrid, TrainedRanker, TrainRankerOptions } from './train.ts'
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
export type { ModelManifest, RankerModel, SolrLtrModel, SolrTreeNode } from './model.ts'
export { createReranker, explainScore } from './rerank.ts'
export type { FeatureContribution, RerankExplanation, RerankedHit, Reranker, RerankOptions } from './rerank.ts'
export { MEMORY_FEATURES, MEMORY_SCHEMA_SUFFIX, createQueryMemory, withMemorySchema, withQueryMemory } from './memory.ts'
export type { QueryMemory, QueryMemoryOptions } from './memory.ts'
export * from './features/index.ts'
export * from './clicks/index.ts'
