/**
 * LambdaMART training with `@pubmatch/lightgbm-wasm` (LightGBM's own lambdarank): one model with
 * early stopping on a validation set, and a small hyper-parameter grid chosen by k-fold
 * cross-validation over training queries.
 */
import { PubmatchError } from '@pubmatch/core'
import { kFold } from '@pubmatch/eval'
import type { EvalResult, LightGbm, LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { selectQueries, type TrainingSet } from './training-set.ts'

/**
 * The defaults: lambdarank optimising NDCG@20 (Best Match's objective), which early stopping watches;
 * single-threaded and deterministic so a model is reproducible from its manifest.
 */
export const DEFAULT_LTR_PARAMS: LightGbmParams = {
  objective: 'lambdarank',
  metric: 'ndcg',
  eval_at: [20],
  lambdarank_truncation_level: 20,
  num_leaves: 31,
  learning_rate: 0.05,
  min_data_in_leaf: 50,
  feature_fraction: 0.8,
  bagging_fraction: 1,
  seed: 1,
  deterministic: true,
  num_threads: 1,
  verbosity: -1,
}

/** Options of {@link trainRanker}. */
export interface TrainRankerOptions {
  /** A loaded LightGBM (`loadLightGbm()`). */
  readonly lightgbm: LightGbm
  readonly train: TrainingSet
  /** For early stopping and the reported metrics. Defaults to none (then `numBoostRound` trees). */
  readonly valid?: TrainingSet
  /** Merged over {@link DEFAULT_LTR_PARAMS}. */
  readonly params?: LightGbmParams
  /** Most trees. Defaults to `500`. */
  readonly numBoostRound?: number
  /** Stop after this many rounds without a better validation NDCG@20. Defaults to `50`. */
  readonly earlyStoppingRounds?: number
  /** Feature names written into the model (no white space). */
  readonly featureNames?: readonly string[]
  /** Called after each iteration with the validation metrics. */
  readonly onIteration?: (iteration: number, evals: readonly EvalResult[]) => void
}

/** A trained model and how it got there. */
export interface TrainedRanker {
  /** LightGBM's text model, cut at the best iteration. */
  readonly modelText: string
  /** The parameters it was trained with (defaults merged). */
  readonly params: LightGbmParams
  /** Trees kept (the best iteration with early stopping). */
  readonly iterations: number
  /** Validation metrics at the kept iteration, e.g. `{ 'ndcg@20': 0.41 }` (empty without `valid`). */
  readonly validMetrics: Readonly<Record<string, number>>
  /** Validation NDCG@20 after each iteration (empty without `valid`). */
  readonly curve: readonly number[]
  /** Per feature: total gain of its splits. */
  readonly gainImportance: Float64Array
  /** Per feature: number of splits. */
  readonly splitImportance: Float64Array
}

function checkSet(set: TrainingSet, what: string): void {
  if (set.features.numRows === 0 || set.groups.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `the ${what} set has no rows (no query had candidates with a relevant document)`)
  }
}

function input(set: TrainingSet, featureNames?: readonly string[]) {
  return {
    features: set.features,
    labels: set.labels,
    groups: set.groups,
    ...(featureNames === undefined ? {} : { featureNames }),
  }
}

/**
 * Trains one LambdaMART model.
 * @param options - see {@link TrainRankerOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for an empty set, `LIGHTGBM` for LightGBM's errors
 */
export function trainRanker(options: TrainRankerOptions): TrainedRanker {
  checkSet(options.train, 'training')
  if (options.valid !== undefined) {
    checkSet(options.valid, 'validation')
  }
  const params: LightGbmParams = { ...DEFAULT_LTR_PARAMS, ...options.params }
  const train = options.lightgbm.createDataset(input(options.train, options.featureNames), { params })
  const valid =
    options.valid === undefined
      ? undefined
      : options.lightgbm.createDataset(input(options.valid, options.featureNames), { params, reference: train })
  const curve: number[] = []
  try {
    const result = options.lightgbm.train({
      params,
      train,
      valid: valid === undefined ? [] : [{ name: 'valid', data: valid }],
      numBoostRound: options.numBoostRound ?? 500,
      ...(valid === undefined ? {} : { earlyStoppingRounds: options.earlyStoppingRounds ?? 50, firstMetricOnly: true }),
      onIteration: ({ iteration, evals }) => {
        const first = evals[0]
        if (first !== undefined) {
          curve.push(first.value)
        }
        options.onIteration?.(iteration, evals)
      },
    })
    try {
      const iterations = result.bestIteration > 0 ? result.bestIteration : result.history.length
      const validMetrics: Record<string, number> = {}
      const at = result.bestIteration > 0 ? result.bestScores : (result.history.at(-1)?.evals ?? [])
      for (const entry of at) {
        validMetrics[entry.metric] = entry.value
      }
      return {
        modelText: result.booster.saveModel(),
        params,
        iterations,
        validMetrics,
        curve,
        gainImportance: result.booster.featureImportance('gain'),
        splitImportance: result.booster.featureImportance('split'),
      }
    } finally {
      result.booster.free()
    }
  } finally {
    valid?.free()
    train.free()
  }
}

/** A grid of LightGBM parameters: each combination of the listed values is tried. */
export type ParamGrid = Readonly<Record<string, readonly (number | string | boolean)[]>>

/** A small default grid (8 combinations) around the defaults. */
export const DEFAULT_GRID: ParamGrid = {
  num_leaves: [15, 63],
  learning_rate: [0.05, 0.1],
  min_data_in_leaf: [20, 100],
}

/** One grid point's cross-validated score. */
export interface GridPoint {
  readonly params: LightGbmParams
  /** Mean held-out NDCG@20 over the folds (at each fold's best iteration). */
  readonly meanNdcg: number
  /** Per fold. */
  readonly folds: readonly number[]
  /** Mean best iteration over the folds. */
  readonly meanIterations: number
}

/** Options of {@link gridSearch}. */
export interface GridSearchOptions extends Omit<TrainRankerOptions, 'valid' | 'onIteration'> {
  readonly grid?: ParamGrid
  /** Folds of the training queries. Defaults to `3`. */
  readonly folds?: number
  /** Seed of the fold assignment. Defaults to `1`. */
  readonly seed?: number
  /** Called after each grid point. */
  readonly onPoint?: (point: GridPoint, done: number, total: number) => void
}

/**
 * Every combination of a grid.
 * @param grid - parameter name → values
 */
export function gridCombinations(grid: ParamGrid): LightGbmParams[] {
  let combos: Array<Record<string, number | string | boolean>> = [{}]
  for (const [name, values] of Object.entries(grid)) {
    if (values.length === 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `grid parameter ${name} has no values`)
    }
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })))
  }
  return combos
}

/**
 * Chooses parameters by k-fold cross-validation over the training queries: for each grid point
 * and fold, trains on the other folds with early stopping on the held-out fold and records the
 * held-out NDCG@20; the point with the best mean wins (ties: the earlier point).
 * @param options - see {@link GridSearchOptions}
 * @returns every point, best first
 */
export function gridSearch(options: GridSearchOptions): GridPoint[] {
  const k = options.folds ?? 3
  const folds = kFold(options.train.queryIds, k, { seed: options.seed ?? 1 })
  const combos = gridCombinations(options.grid ?? DEFAULT_GRID)
  const points: GridPoint[] = []
  for (const [i, combo] of combos.entries()) {
    const params = { ...options.params, ...combo }
    const scores: number[] = []
    const iterations: number[] = []
    for (const fold of folds) {
      const test = new Set(fold.test)
      const trainPart = selectQueries(options.train, (id) => !test.has(id))
      const testPart = selectQueries(options.train, (id) => test.has(id))
      const trained = trainRanker({ ...options, params, train: trainPart, valid: testPart })
      scores.push(trained.validMetrics['ndcg@20'] ?? Number.NaN)
      iterations.push(trained.iterations)
    }
    const point: GridPoint = {
      params: { ...DEFAULT_LTR_PARAMS, ...params },
      meanNdcg: scores.reduce((a, b) => a + b, 0) / scores.length,
      folds: scores,
      meanIterations: iterations.reduce((a, b) => a + b, 0) / iterations.length,
    }
    points.push(point)
    options.onPoint?.(point, i + 1, combos.length)
  }
  return points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => b.point.meanNdcg - a.point.meanNdcg || a.index - b.index)
    .map(({ point }) => point)
}
