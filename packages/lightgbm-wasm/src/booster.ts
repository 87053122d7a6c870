import { PubmatchError } from '@pubmatch/core'
import type { Dataset } from './dataset.ts'
import { checkFeatureMatrix, type FeatureMatrix } from './matrix.ts'
import type { Pointer } from './module.ts'
import { formatParams, type LightGbmParams } from './params.ts'
import type { Runtime } from './runtime.ts'

/** What `Booster.predict` returns per row. */
export type PredictKind =
  /** The objective's output (for lambdarank the raw score; for binary a probability). */
  | 'normal'
  /** The raw sum of tree outputs, before the objective's transformation. */
  | 'raw'
  /** The leaf index each tree puts the row in. */
  | 'leaf'
  /** SHAP feature contributions plus the expected value, per row. */
  | 'contrib'

const PREDICT_TYPE: Record<PredictKind, number> = { normal: 0, raw: 1, leaf: 2, contrib: 3 }

/** Options of `Booster.predict`. */
export interface PredictOptions {
  /** Defaults to `'normal'`. */
  readonly kind?: PredictKind
  /** First iteration used. Defaults to `0`. */
  readonly startIteration?: number
  /**
   * Iterations used; `0` or less means all. Defaults to the booster's `bestIteration`
   * when early stopping set one, else all.
   */
  readonly numIteration?: number
  /** Extra LightGBM prediction parameters (`predict_disable_shape_check`, …). Defaults to `{}`. */
  readonly params?: LightGbmParams
}

/** Feature importance measure: number of splits, or total gain of those splits. */
export type ImportanceType = 'split' | 'gain'

/** Options of `Booster.saveModel`. */
export interface SaveModelOptions {
  /** First iteration saved. Defaults to `0`. */
  readonly startIteration?: number
  /** Iterations saved; `0` or less means all. Defaults to `bestIteration` when set, else all. */
  readonly numIteration?: number
  /** Importance written in the model's `feature_importances:` block. Defaults to `'split'`. */
  readonly importanceType?: ImportanceType
}

/** One metric on one dataset after an iteration. */
export interface EvalResult {
  /** The validation set's name (`training` for the training data). */
  readonly dataName: string
  /** LightGBM's metric name, e.g. `ndcg@10`. */
  readonly metric: string
  /** The value. */
  readonly value: number
  /** Whether larger values are better (NDCG, MAP, AUC). */
  readonly higherIsBetter: boolean
}

/**
 * Whether LightGBM's metric improves upwards. Same rule as LightGBM's Python package:
 * names starting with `auc`, `ndcg@`, `map@` or `average_precision`.
 * @param metric - a metric name as LightGBM reports it
 */
export function isHigherBetter(metric: string): boolean {
  return ['auc', 'ndcg@', 'map@', 'average_precision'].some((prefix) => metric.startsWith(prefix))
}

/**
 * A LightGBM booster (a model, possibly still training) inside one WebAssembly instance.
 * Call {@link Booster.free} when done.
 */
export class Booster {
  /** @internal */
  readonly runtime: Runtime
  #handle: Pointer
  readonly #datasets: Dataset[] = []
  readonly #validNames: string[] = []
  /** Datasets this booster frees with itself. @internal */
  readonly owned: Dataset[] = []
  #evalNames: string[] | undefined
  /** Features per row the model expects. */
  readonly numFeatures: number
  /**
   * The iteration early stopping chose (1-based), or `0` when none was chosen; predictions
   * and saved models default to it.
   */
  bestIteration = 0

  /** @internal Use `LightGbm.createBooster`, `LightGbm.loadModel` or `LightGbm.train`. */
  constructor(runtime: Runtime, handle: Pointer, trainSet?: Dataset) {
    this.runtime = runtime
    this.#handle = handle
    runtime.liveBoosters += 1
    if (trainSet !== undefined) {
      this.#datasets.push(trainSet)
      trainSet.users.add(this)
    }
    this.numFeatures = this.#int('LGBM_BoosterGetNumFeature', (out) =>
      runtime.module._LGBM_BoosterGetNumFeature(this.handle, out),
    )
  }

  /** The native handle. @internal */
  get handle(): Pointer {
    if (this.#handle === 0) {
      throw new PubmatchError('INVALID_ARGUMENT', 'the booster was freed')
    }
    return this.#handle
  }

  /** Whether {@link Booster.free} has run. */
  get freed(): boolean {
    return this.#handle === 0
  }

  #int(fn: string, call: (out: Pointer) => number): number {
    this.runtime.check(fn, call(this.runtime.scratch))
    return this.runtime.scratchInt32()
  }

  /** Completed boosting iterations. */
  get currentIteration(): number {
    return this.#int('LGBM_BoosterGetCurrentIteration', (out) =>
      this.runtime.module._LGBM_BoosterGetCurrentIteration(this.handle, out),
    )
  }

  /** Trees per iteration (1, or the class count for multiclass). */
  get treesPerIteration(): number {
    return this.#int('LGBM_BoosterNumModelPerIteration', (out) =>
      this.runtime.module._LGBM_BoosterNumModelPerIteration(this.handle, out),
    )
  }

  /**
   * Adds a validation set, evaluated after each iteration.
   * @param dataset - created with the training dataset as `reference`
   * @param name - how evaluation results name it
   * @throws PubmatchError `FEATURE_COUNT_MISMATCH` when its feature count differs; `LIGHTGBM` when LightGBM refuses it
   */
  addValidation(dataset: Dataset, name: string): void {
    if (dataset.runtime !== this.runtime) {
      throw new PubmatchError('INVALID_ARGUMENT', 'the validation dataset belongs to another LightGBM instance')
    }
    if (dataset.numFeatures !== this.numFeatures) {
      throw new PubmatchError(
        'FEATURE_COUNT_MISMATCH',
        `validation set "${name}" has ${dataset.numFeatures} features, the model ${this.numFeatures}`,
      )
    }
    this.runtime.check('LGBM_BoosterAddValidData', this.runtime.module._LGBM_BoosterAddValidData(this.handle, dataset.handle))
    this.#datasets.push(dataset)
    this.#validNames.push(name)
    dataset.users.add(this)
  }

  /**
   * Runs one boosting iteration.
   * @returns `true` when LightGBM could not grow the tree any more (no split met the
   *   constraints) and added nothing
   */
  update(): boolean {
    return (
      this.#int('LGBM_BoosterUpdateOneIter', (out) => this.runtime.module._LGBM_BoosterUpdateOneIter(this.handle, out)) !==
      0
    )
  }

  /** Removes the last iteration's trees. */
  rollback(): void {
    this.runtime.check('LGBM_BoosterRollbackOneIter', this.runtime.module._LGBM_BoosterRollbackOneIter(this.handle))
  }

  /** The metric names LightGBM evaluates, in order (e.g. `ndcg@1`, `ndcg@3`). */
  evalNames(): string[] {
    if (this.#evalNames === undefined) {
      const { runtime } = this
      const count = this.#int('LGBM_BoosterGetEvalCounts', (out) => runtime.module._LGBM_BoosterGetEvalCounts(this.handle, out))
      this.#evalNames = runtime.readStrings('LGBM_BoosterGetEvalNames', this.handle, count, (...args) =>
        runtime.module._LGBM_BoosterGetEvalNames(...args),
      )
    }
    return this.#evalNames
  }

  /**
   * Evaluates every metric on the validation sets (and, when asked, the training data).
   * @param includeTraining - also evaluate the training data (needs the parameter
   *   `is_provide_training_metric=true`). Defaults to `false`.
   */
  evaluate(includeTraining = false): EvalResult[] {
    const names = this.evalNames()
    const results: EvalResult[] = []
    const { runtime } = this
    const first = includeTraining ? 0 : 1
    runtime.withMemory(Math.max(1, names.length) * 8, (values) => {
      for (let dataIndex = first; dataIndex <= this.#validNames.length; dataIndex += 1) {
        runtime.check(
          'LGBM_BoosterGetEval',
          runtime.module._LGBM_BoosterGetEval(this.handle, dataIndex, runtime.scratch, values),
        )
        const count = runtime.scratchInt32()
        const dataName = dataIndex === 0 ? 'training' : (this.#validNames[dataIndex - 1] ?? `valid_${dataIndex}`)
        for (let i = 0; i < count; i += 1) {
          const metric = names[i] ?? `metric_${i}`
          results.push({
            dataName,
            metric,
            value: runtime.heap().f64[(values >>> 3) + i] ?? Number.NaN,
            higherIsBetter: isHigherBetter(metric),
          })
        }
      }
    })
    return results
  }

  /**
   * Scores a feature matrix.
   * @param features - rows to score, with the model's feature count
   * @param options - output kind and iteration range
   * @returns one value per row (per class for multiclass; per tree for `leaf`; features + 1 per row for `contrib`)
   * @throws PubmatchError `FEATURE_COUNT_MISMATCH` when the matrix's feature count is not the model's
   */
  predict(features: FeatureMatrix, options: PredictOptions = {}): Float64Array {
    checkFeatureMatrix(features, 'prediction input')
    if (features.numFeatures !== this.numFeatures) {
      throw new PubmatchError(
        'FEATURE_COUNT_MISMATCH',
        `the model expects ${this.numFeatures} features, the rows have ${features.numFeatures}`,
      )
    }
    const { runtime } = this
    const { module } = runtime
    const kind = options.kind ?? 'normal'
    const startIteration = options.startIteration ?? 0
    const numIteration = options.numIteration ?? this.bestIteration
    const perRow = this.#outputsPerRow(kind, startIteration, numIteration)
    const outLength = perRow * features.numRows
    const matrix = runtime.copyMatrix(features)
    try {
      return runtime.withMemory(outLength * 8, (out) =>
        runtime.withString(formatParams(options.params ?? {}), (params) => {
          runtime.check(
            'LGBM_BoosterPredictForMat',
            module._LGBM_BoosterPredictForMat(
              this.handle,
              matrix.ptr,
              matrix.dtype,
              features.numRows,
              features.numFeatures,
              1,
              PREDICT_TYPE[kind],
              startIteration,
              numIteration,
              params,
              runtime.scratch,
              out,
            ),
          )
          const written = runtime.scratchInt64()
          if (written !== outLength) {
            throw new PubmatchError('INTERNAL', `LightGBM wrote ${written} predictions, expected ${outLength}`)
          }
          return runtime.heap().f64.slice(out >>> 3, (out >>> 3) + outLength)
        }),
      )
    } finally {
      module._free(matrix.ptr)
    }
  }

  #outputsPerRow(kind: PredictKind, startIteration: number, numIteration: number): number {
    const perIteration = this.treesPerIteration
    if (kind === 'normal' || kind === 'raw') {
      return perIteration
    }
    if (kind === 'contrib') {
      return perIteration * (this.numFeatures + 1)
    }
    const total = this.currentIteration
    const start = Math.min(Math.max(startIteration, 0), total)
    const used = numIteration > 0 ? Math.min(numIteration, total - start) : total - start
    return used * perIteration
  }

  /**
   * Per-feature importance: how often each feature splits, or the total gain of its splits.
   * @param type - `'split'` or `'gain'`. Defaults to `'split'`.
   * @param numIteration - iterations counted; `0` or less means all. Defaults to `bestIteration` when set, else all.
   */
  featureImportance(type: ImportanceType = 'split', numIteration: number = this.bestIteration): Float64Array {
    const { runtime } = this
    return runtime.withMemory(this.numFeatures * 8, (out) => {
      runtime.check(
        'LGBM_BoosterFeatureImportance',
        runtime.module._LGBM_BoosterFeatureImportance(this.handle, numIteration, type === 'split' ? 0 : 1, out),
      )
      return runtime.heap().f64.slice(out >>> 3, (out >>> 3) + this.numFeatures)
    })
  }

  /** The model's feature names (LightGBM's `Column_<i>` when none were given). */
  featureNames(): string[] {
    const { runtime } = this
    return runtime.readStrings('LGBM_BoosterGetFeatureNames', this.handle, this.numFeatures, (...args) =>
      runtime.module._LGBM_BoosterGetFeatureNames(...args),
    )
  }

  /**
   * The model in LightGBM's text format (what `model.txt` files hold).
   * @param options - iteration range and importance type
   */
  saveModel(options: SaveModelOptions = {}): string {
    const { runtime } = this
    const { module } = runtime
    const start = options.startIteration ?? 0
    const num = options.numIteration ?? this.bestIteration
    const importance = options.importanceType === 'gain' ? 1 : 0
    let size = 1 << 20
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const text = runtime.withMemory(size, (buffer) => {
        runtime.check(
          'LGBM_BoosterSaveModelToString',
          module._LGBM_BoosterSaveModelToString(this.handle, start, num, importance, BigInt(size), runtime.scratch, buffer),
        )
        const needed = runtime.scratchInt64()
        if (needed > size) {
          size = needed
          return undefined
        }
        return module.UTF8ToString(buffer, needed)
      })
      if (text !== undefined) {
        return text
      }
    }
    throw new PubmatchError('INTERNAL', 'LGBM_BoosterSaveModelToString kept asking for a larger buffer')
  }

  /**
   * Releases the native booster and the datasets it owns (those `LightGbm.train` created
   * from raw input). Calling it again does nothing.
   */
  free(): void {
    if (this.#handle === 0) {
      return
    }
    const handle = this.#handle
    this.#handle = 0
    this.runtime.liveBoosters -= 1
    for (const dataset of this.#datasets) {
      dataset.users.delete(this)
    }
    this.runtime.check('LGBM_BoosterFree', this.runtime.module._LGBM_BoosterFree(handle))
    for (const dataset of this.owned) {
      dataset.free()
    }
  }
}

/**
 * Creates a booster that trains on `trainSet`.
 * @internal
 */
export function createBooster(runtime: Runtime, trainSet: Dataset, params: LightGbmParams): Booster {
  if (trainSet.runtime !== runtime) {
    throw new PubmatchError('INVALID_ARGUMENT', 'the training dataset belongs to another LightGBM instance')
  }
  const handle = runtime.withString(formatParams(params), (paramsPtr) => {
    runtime.check('LGBM_BoosterCreate', runtime.module._LGBM_BoosterCreate(trainSet.handle, paramsPtr, runtime.scratch))
    return runtime.scratchPointer()
  })
  return new Booster(runtime, handle, trainSet)
}

/**
 * Loads a model from LightGBM's text format.
 * @internal
 */
export function loadBooster(runtime: Runtime, modelText: string): Booster {
  const handle = runtime.withString(modelText, (text) => {
    runtime.check(
      'LGBM_BoosterLoadModelFromString',
      runtime.module._LGBM_BoosterLoadModelFromString(text, runtime.scratch + 16, runtime.scratch),
    )
    return runtime.scratchPointer()
  })
  return new Booster(runtime, handle)
}
