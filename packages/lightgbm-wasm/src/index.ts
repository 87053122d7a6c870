export { loadLightGbm } from './lightgbm.ts'
export type { LightGbm, LightGbmStats } from './lightgbm.ts'
export type { LoadWasmOptions, WasmBuildInfo } from './module.ts'
export { Dataset, checkGroups } from './dataset.ts'
export type { DatasetInput, DatasetOptions } from './dataset.ts'
export { Booster, isHigherBetter } from './booster.ts'
export type { EvalResult, ImportanceType, PredictKind, PredictOptions, SaveModelOptions } from './booster.ts'
export { checkRankingLabels } from './train.ts'
export type { IterationEvent, TrainOptions, TrainResult, ValidationSet } from './train.ts'
export { DEFAULT_LABEL_GAIN, formatParams, isRankingObjective, labelGainLength } from './params.ts'
export type { LightGbmParamValue, LightGbmParams } from './params.ts'
export { checkFeatureMatrix, featureMatrixFromRows } from './matrix.ts'
export type { FeatureMatrix } from './matrix.ts'
export { parseLightGbmModel } from './scorer/parse-model.ts'
export type { LightGbmModel, ModelTree } from './scorer/parse-model.ts'
export { explainRow, prepareModel, scoreRows } from './scorer/score.ts'
export type { ScoreExplanation, ScoreOptions, TreeContribution } from './scorer/score.ts'
export { createSyntheticRankingSet } from './synthetic.ts'
export type { SyntheticRankingOptions, SyntheticRankingSet } from './synthetic.ts'
export { lightGbmWorkerOptions, runWorkerTask, runWorkerTaskSafely, unwrapWorkerOutcome } from './worker-task.ts'
export type {
  LightGbmWorkerData,
  PredictTask,
  PredictTaskResult,
  TrainTask,
  TrainTaskResult,
  WorkerOutcome,
  WorkerTask,
  WorkerTaskResult,
} from './worker-task.ts'
