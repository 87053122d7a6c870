/**
 * `@pubmatch/ltr/internal`: the parts of the second stage that other pubmatch packages and the
 * benchmarks drive directly: the forward store extended article by article (the engine follows its
 * corpus), the feature extractor and the query memory without the recipe, and training on a
 * training set. Unstable: not part of the public API, it changes without notice; for pubmatch's own
 * packages and benchmarks only. Apps use the package's entry point.
 */

// the forward store, built incrementally
export { createForwardIndexBuilder } from './features/forward.ts'
export type { ForwardIndexBuilder } from './features/forward.ts'

// features and the query memory, assembled by hand
export { createFeatureExtractor } from './features/extract.ts'
export type { FeatureExtractorOptions } from './features/extract.ts'
export { createQueryMemory, MEMORY_SCHEMA_SUFFIX, withQueryMemory } from './memory.ts'
export type { QueryMemory } from './memory.ts'
export { acceptedRange, checkFirstStage, memoryQueries } from './best-match.ts'

// training on a training set, and the model directory written by hand
export { selectFeatures } from './training-set.ts'
export { trainRanker } from './train.ts'
export type { TrainedRanker } from './train.ts'
export { loadModelMemory, MANIFEST_FILE, MODEL_FORMAT, parseModelManifest, saveModel } from './model.ts'
export { explainScore } from './rerank.ts'
