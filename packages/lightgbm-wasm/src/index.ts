// @pubmatch/lightgbm-wasm: LightGBM compiled to WebAssembly (datasets, training, prediction,
// model files) and a scorer for its text models. The worker protocol (task types,
// `unwrapWorkerOutcome`) is exported by `@pubmatch/lightgbm-wasm/worker`, the synthetic ranking
// data of tests and benchmarks by `@pubmatch/lightgbm-wasm/testing`.

// an instance: training and datasets
export { loadLightGbm } from './lightgbm.ts'
export type { LightGbm, LightGbmStats } from './lightgbm.ts'
export type { LoadWasmOptions, WasmBuildInfo } from './module.ts'
export type { IterationEvent, TrainOptions, TrainResult, ValidationSet } from './train.ts'
export { DEFAULT_LABEL_GAIN } from './params.ts'
export type { LightGbmParams, LightGbmParamValue } from './params.ts'
export { Dataset } from './dataset.ts'
export type { DatasetInput, DatasetOptions } from './dataset.ts'
export { featureMatrixFromRows } from './matrix.ts'
export type { FeatureMatrix } from './matrix.ts'
// a trained model: prediction, evaluation, importance, model text
export { Booster } from './booster.ts'
export type { EvalResult, ImportanceType, PredictKind, PredictOptions, SaveModelOptions } from './booster.ts'
// the scorer of model texts, without a LightGBM instance
export { parseLightGbmModel, parseLightGbmModelInSteps } from './scorer/parse-model.ts'
export type { LightGbmModel, ModelTree } from './scorer/parse-model.ts'
export { explainRow, prepareModel, prepareModelInSteps, scoreRows } from './scorer/score.ts'
export type { ScoreExplanation, ScoreOptions, TreeContribution } from './scorer/score.ts'
