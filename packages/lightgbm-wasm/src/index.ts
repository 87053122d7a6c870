// @pubmatch/lightgbm-wasm: LightGBM compiled to WebAssembly (datasets, training, prediction,
// model files) and a scorer for its text models. Explicit exports only. The worker protocol
// (task types, `unwrapWorkerOutcome`) is exported by `@pubmatch/lightgbm-wasm/worker`, the
// synthetic ranking data of tests and benchmarks by `@pubmatch/lightgbm-wasm/testing`.
export { loadLightGbm } from './lightgbm.ts'
export type { LightGbm, LightGbmStats } from './lightgbm.ts'
export type { LoadWasmOptions, WasmBuildInfo } from './module.ts'
export { Dataset } from './dataset.ts'
export type { DatasetInput, DatasetOptions } from './dataset.ts'
export { Booster } from './booster.ts'
export type { EvalResult, ImportanceType, PredictKind, PredictOptions, SaveModelOptions } from './booster.ts'
export type { IterationEvent, TrainOptions, TrainResult, ValidationSet } from './train.ts'
export { DEFAULT_LABEL_GAIN } from './params.ts'
export type { LightGbmParamValue, LightGbmParams } from './params.ts'
export { featureMatrixFromRows } from './matrix.ts'
export type { FeatureMatrix } from './matrix.ts'
export { parseLightGbmModel } from './scorer/parse-model.ts'
export type { LightGbmModel, ModelTree } from './scorer/parse-model.ts'
export { explainRow, prepareModel, scoreRows } from './scorer/score.ts'
export type { ScoreExplanation, ScoreOptions, TreeContribution } from './scorer/score.ts'
