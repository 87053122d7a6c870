import { PubmatchError } from '@pubmatch/core'
import { createBooster, loadBooster, type Booster, type EvalResult } from './booster.ts'
import { Dataset, type DatasetInput } from './dataset.ts'
import { isRankingObjective, labelGainLength, type LightGbmParams } from './params.ts'
import type { Runtime } from './runtime.ts'

/** A validation set: evaluated after each iteration, and watched by early stopping. */
export interface ValidationSet {
  /** How evaluation results name it. */
  readonly name: string
  /** A dataset created with the training dataset as `reference`, or raw input to create one. */
  readonly data: Dataset | DatasetInput
}

/** What happened in one boosting iteration. */
export interface IterationEvent {
  /** 1-based iteration number. */
  readonly iteration: number
  /** Every metric on every validation set (and on the training data when `evalTraining`). */
  readonly evals: readonly EvalResult[]
}

/** Options of `LightGbm.train`. */
export interface TrainOptions {
  /** LightGBM parameters (objective, metric, eval_at, num_leaves, learning_rate, …). */
  readonly params: LightGbmParams
  /** Training data: a dataset, or raw input (then created with `params` and freed with the booster). */
  readonly train: Dataset | DatasetInput
  /** Validation sets. Defaults to none. */
  readonly valid?: readonly ValidationSet[]
  /** Boosting iterations. Defaults to `params.num_iterations`, else `100`. */
  readonly numBoostRound?: number
  /**
   * Stop when no metric on a validation set improved for this many iterations (LightGBM's
   * Python rule: each metric counts separately; ties are no improvement). Defaults to no early stopping.
   */
  readonly earlyStoppingRounds?: number
  /** Only watch the first metric for early stopping. Defaults to `false`. */
  readonly firstMetricOnly?: boolean
  /** Also evaluate the training data (sets `is_provide_training_metric`). Defaults to `false`. */
  readonly evalTraining?: boolean
  /** Called after each iteration; return `false` to stop training there. */
  readonly onIteration?: (event: IterationEvent) => boolean | undefined | void
  /**
   * Keep the booster attached to its training data (to continue training it). Otherwise the
   * returned booster is reloaded from the model text (cut at `bestIteration`) and the
   * datasets `train` created are freed. Defaults to `false`.
   */
  readonly keepTrainingBooster?: boolean
}

/** The outcome of `LightGbm.train`. */
export interface TrainResult {
  /** The trained model; free it when done. */
  readonly booster: Booster
  /** Iteration early stopping chose (1-based), or `0` without early stopping. */
  readonly bestIteration: number
  /** The watched metrics at `bestIteration` (empty without early stopping). */
  readonly bestScores: readonly EvalResult[]
  /** Whether early stopping (or `onIteration`) ended training before `numBoostRound`. */
  readonly stoppedEarly: boolean
  /** Every iteration's evaluation results. */
  readonly history: readonly IterationEvent[]
}

/**
 * Checks labels for a ranking objective: whole numbers from 0 up to `label_gain.length - 1`.
 * @param labels - the labels of one dataset
 * @param gainLength - the length of `label_gain`
 * @param what - how the message names the dataset
 * @throws PubmatchError `INVALID_ARGUMENT` for the first label out of range
 */
export function checkRankingLabels(labels: ArrayLike<number>, gainLength: number, what: string): void {
  for (let i = 0; i < labels.length; i += 1) {
    const label = labels[i] ?? Number.NaN
    if (!Number.isInteger(label) || label < 0 || label >= gainLength) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `${what} label of row ${i} is ${label}; ranking labels must be whole numbers from 0 to ${gainLength - 1} (the length of label_gain minus one)`,
        { details: { record: `#${i}` } },
      )
    }
  }
}

function checkRankingData(dataset: Dataset, params: LightGbmParams, what: string): void {
  if (!isRankingObjective(params)) {
    return
  }
  if (dataset.labels === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', `${what} has no labels`)
  }
  if (dataset.groups === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', `${what} has no query groups, which ranking needs`)
  }
  checkRankingLabels(dataset.labels, labelGainLength(params), what)
}

interface Watch {
  readonly key: string
  best: number
  bestIteration: number
  bestResults: readonly EvalResult[]
}

/**
 * Trains a model. Internal: call `LightGbm.train`.
 * @internal
 */
export function trainModel(runtime: Runtime, options: TrainOptions): TrainResult {
  const params: LightGbmParams = options.evalTraining === true ? { ...options.params, is_provide_training_metric: true } : options.params
  const rounds = options.numBoostRound ?? (typeof params.num_iterations === 'number' ? params.num_iterations : 100)
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `numBoostRound must be a positive whole number, got ${rounds}`)
  }
  const patience = options.earlyStoppingRounds
  if (patience !== undefined && (!Number.isInteger(patience) || patience < 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `earlyStoppingRounds must be a positive whole number, got ${patience}`)
  }
  const validInputs = options.valid ?? []
  if (patience !== undefined && validInputs.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'early stopping needs at least one validation set')
  }

  const created: Dataset[] = []
  const own = (data: Dataset | DatasetInput, reference?: Dataset): Dataset => {
    if (data instanceof Dataset) {
      return data
    }
    const dataset = new Dataset(runtime, data, { params, ...(reference === undefined ? {} : { reference }) })
    created.push(dataset)
    return dataset
  }
  let booster: Booster | undefined
  try {
    const trainSet = own(options.train)
    checkRankingData(trainSet, params, 'training data')
    const validSets = validInputs.map((valid) => {
      const dataset = own(valid.data, trainSet)
      checkRankingData(dataset, params, `validation set "${valid.name}"`)
      return { name: valid.name, dataset }
    })
    booster = createBooster(runtime, trainSet, params)
    for (const { name, dataset } of validSets) {
      booster.addValidation(dataset, name)
    }

    const history: IterationEvent[] = []
    const watches = new Map<string, Watch>()
    let stoppedEarly = false
    let stopWatch: Watch | undefined
    for (let iteration = 1; iteration <= rounds; iteration += 1) {
      const finished = booster.update()
      if (finished) {
        stoppedEarly = true
        break
      }
      const evals = booster.evaluate(options.evalTraining === true)
      const event: IterationEvent = { iteration, evals }
      history.push(event)
      if (options.onIteration?.(event) === false) {
        stoppedEarly = iteration < rounds
        break
      }
      if (patience === undefined) {
        continue
      }
      const watched = evals.filter((result) => result.dataName !== 'training')
      const firstMetric = watched[0]?.metric
      for (const result of watched) {
        if (options.firstMetricOnly === true && result.metric !== firstMetric) {
          continue
        }
        const key = `${result.dataName}\u0000${result.metric}`
        let watch = watches.get(key)
        if (watch === undefined) {
          watch = { key, best: Number.NaN, bestIteration: 0, bestResults: [] }
          watches.set(key, watch)
        }
        const better = Number.isNaN(watch.best) || (result.higherIsBetter ? result.value > watch.best : result.value < watch.best)
        if (better) {
          watch.best = result.value
          watch.bestIteration = iteration
          watch.bestResults = watched
        } else if (iteration - watch.bestIteration >= patience) {
          stopWatch = watch
          break
        }
      }
      if (stopWatch !== undefined) {
        stoppedEarly = iteration < rounds || stoppedEarly
        break
      }
    }
    if (patience !== undefined && stopWatch === undefined) {
      stopWatch = watches.values().next().value
    }
    const bestIteration = stopWatch?.bestIteration ?? 0
    const bestScores = stopWatch?.bestResults ?? []

    let result: Booster = booster
    if (options.keepTrainingBooster === true) {
      result.owned.push(...created.splice(0))
    } else {
      const text = booster.saveModel({ numIteration: bestIteration })
      booster.free()
      booster = undefined
      result = loadBooster(runtime, text)
    }
    result.bestIteration = bestIteration
    return { booster: result, bestIteration, bestScores, stoppedEarly, history }
  } catch (error) {
    booster?.free()
    throw error
  } finally {
    for (const dataset of created) {
      if (!dataset.freed && dataset.users.size === 0) {
        dataset.free()
      }
    }
  }
}
