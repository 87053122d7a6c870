import { PubmatchError, toPubmatchError, type ErrorDetails, type PubmatchErrorCode } from '@pubmatch/core'
import type { PredictOptions } from './booster.ts'
import type { DatasetInput } from './dataset.ts'
import type { LightGbm, LightGbmStats } from './lightgbm.ts'
import type { FeatureMatrix } from './matrix.ts'
import type { LoadWasmOptions } from './module.ts'
import type { LightGbmParams } from './params.ts'
import type { IterationEvent } from './train.ts'

/** Train a model in a worker; everything in it is structured-cloneable. */
export interface TrainTask {
  readonly kind: 'train'
  /** LightGBM parameters. */
  readonly params: LightGbmParams
  /** Training rows. */
  readonly train: DatasetInput
  /** Validation sets. Defaults to none. */
  readonly valid?: readonly { readonly name: string; readonly data: DatasetInput }[]
  /** Defaults to `params.num_iterations`, else `100`. */
  readonly numBoostRound?: number
  /** Defaults to no early stopping. */
  readonly earlyStoppingRounds?: number
  /** Defaults to `false`. */
  readonly firstMetricOnly?: boolean
}

/** What a {@link TrainTask} returns. */
export interface TrainTaskResult {
  readonly kind: 'train'
  /** The model in LightGBM's text format (cut at `bestIteration`). */
  readonly modelText: string
  /** Iteration early stopping chose, or `0`. */
  readonly bestIteration: number
  /** Whether training ended before `numBoostRound`. */
  readonly stoppedEarly: boolean
  /** Every iteration's evaluation results. */
  readonly history: readonly IterationEvent[]
  /** Split and gain importance per feature. */
  readonly importance: { readonly split: Float64Array; readonly gain: Float64Array }
  /** The worker's instance after freeing everything (live handles should be 0). */
  readonly stats: LightGbmStats
}

/** Score rows with a model in a worker. */
export interface PredictTask {
  readonly kind: 'predict'
  /** The model in LightGBM's text format. */
  readonly modelText: string
  /** Rows to score. */
  readonly features: FeatureMatrix
  /** Output kind and iteration range. Defaults to `{}`. */
  readonly options?: Omit<PredictOptions, 'params'> & { readonly params?: LightGbmParams }
}

/** What a {@link PredictTask} returns. */
export interface PredictTaskResult {
  readonly kind: 'predict'
  /** One score per row (see `Booster.predict`). */
  readonly scores: Float64Array
}

/** A task for the `@pubmatch/lightgbm-wasm/worker` entry. */
export type WorkerTask = TrainTask | PredictTask

/** A task's result. */
export type WorkerTaskResult = TrainTaskResult | PredictTaskResult

/**
 * What the worker entry returns: errors travel as data, because a thrown error loses its
 * `code` and `details` on the way back from a worker thread.
 */
export type WorkerOutcome<T extends WorkerTaskResult = WorkerTaskResult> =
  | { readonly ok: true; readonly result: T }
  | { readonly ok: false; readonly error: { readonly code: PubmatchErrorCode; readonly message: string; readonly details: ErrorDetails } }

/**
 * Runs one worker task on a LightGBM instance, freeing every handle it creates.
 * @param lightgbm - the worker's instance
 * @param task - what to do
 */
export function runWorkerTask(lightgbm: LightGbm, task: WorkerTask): WorkerTaskResult {
  if (task.kind === 'predict') {
    const booster = lightgbm.loadModel(task.modelText)
    try {
      return { kind: 'predict', scores: booster.predict(task.features, task.options) }
    } finally {
      booster.free()
    }
  }
  const { booster, bestIteration, stoppedEarly, history } = lightgbm.train({
    params: task.params,
    train: task.train,
    valid: task.valid ?? [],
    ...(task.numBoostRound === undefined ? {} : { numBoostRound: task.numBoostRound }),
    ...(task.earlyStoppingRounds === undefined ? {} : { earlyStoppingRounds: task.earlyStoppingRounds }),
    ...(task.firstMetricOnly === undefined ? {} : { firstMetricOnly: task.firstMetricOnly }),
  })
  let modelText: string
  let importance: TrainTaskResult['importance']
  try {
    modelText = booster.saveModel()
    importance = { split: booster.featureImportance('split'), gain: booster.featureImportance('gain') }
  } finally {
    booster.free()
  }
  return { kind: 'train', modelText, bestIteration, stoppedEarly, history, importance, stats: lightgbm.stats() }
}

/**
 * What a pool of `@pubmatch/lightgbm-wasm/worker` workers may pass as Piscina's `workerData`.
 */
export interface LightGbmWorkerData {
  /**
   * Threads of each worker's instance (`LoadWasmOptions.threads`): more than 1 loads the
   * threaded build, whose `threads - 1` helper threads are nested workers of that worker.
   * Defaults to `1`.
   */
  readonly threads?: number
  /** `LoadWasmOptions.spinPolls` of each worker's instance. */
  readonly spinPolls?: number
}

/**
 * The options a worker loads its instance with, from the pool's `workerData` (anything
 * that is not a {@link LightGbmWorkerData} object counts as `{}`).
 * @param data - the `workerData` the worker was started with
 */
export function lightGbmWorkerOptions(data: unknown): LoadWasmOptions {
  if (typeof data !== 'object' || data === null) {
    return {}
  }
  const { threads, spinPolls } = data as LightGbmWorkerData
  return {
    ...(threads === undefined ? {} : { threads }),
    ...(spinPolls === undefined ? {} : { spinPolls }),
  }
}

/**
 * Runs a task and turns a failure into data (see {@link WorkerOutcome}).
 * @param lightgbm - the worker's instance
 * @param task - what to do
 */
export function runWorkerTaskSafely(lightgbm: LightGbm, task: WorkerTask): WorkerOutcome {
  try {
    return { ok: true, result: runWorkerTask(lightgbm, task) }
  } catch (error) {
    const { code, message, details } = toPubmatchError(error).toJSON()
    return { ok: false, error: { code, message, details } }
  }
}

/**
 * Returns a worker's result, or rethrows its failure as a {@link PubmatchError} with the
 * original code, message and details.
 * @param outcome - what the worker returned
 */
export function unwrapWorkerOutcome<T extends WorkerTaskResult>(outcome: WorkerOutcome<T>): T {
  if (outcome.ok) {
    return outcome.result
  }
  const { code, message, details } = outcome.error
  throw new PubmatchError(code, message, { details })
}
