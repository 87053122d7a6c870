import { PubmatchError } from '@pubmatch/core'
import { checkFeatureMatrix, type FeatureMatrix } from './matrix.ts'
import type { Pointer } from './module.ts'
import { formatParams, type LightGbmParams } from './params.ts'
import { DTYPE_FLOAT32, DTYPE_INT32, type Runtime } from './runtime.ts'

/** Rows for LightGBM: features plus, for training and validation, labels and query groups. */
export interface DatasetInput {
  /** The feature matrix. */
  readonly features: FeatureMatrix
  /** One label per row; for ranking, integer grades below `label_gain.length`. */
  readonly labels?: ArrayLike<number>
  /**
   * Query group sizes in row order (rows of a query are contiguous): `[3, 2]` means rows
   * 0–2 are one query and rows 3–4 the next. They must sum to the row count.
   */
  readonly groups?: ArrayLike<number>
  /** One non-negative weight per row. Defaults to 1 for every row. */
  readonly weights?: ArrayLike<number>
  /** One name per feature (no whitespace). Defaults to LightGBM's `Column_0`, `Column_1`, … */
  readonly featureNames?: readonly string[]
}

/** Options of `LightGbm.createDataset`. */
export interface DatasetOptions {
  /**
   * Parameters for binning (`max_bin`, `min_data_in_bin`, `categorical_feature`, …); pass
   * the training parameters, as LightGBM's own wrappers do. Defaults to `{}`.
   */
  readonly params?: LightGbmParams
  /**
   * The training dataset whose bins a validation dataset must share. Required for data
   * passed to `Booster.addValidation`.
   */
  readonly reference?: Dataset
}

function toFiniteArray(values: ArrayLike<number>, what: string, numRows: number): Float32Array {
  if (values.length !== numRows) {
    throw new PubmatchError('INVALID_ARGUMENT', `${values.length} ${what} for ${numRows} rows`)
  }
  const out = new Float32Array(numRows)
  for (let i = 0; i < numRows; i += 1) {
    const value = values[i] ?? Number.NaN
    if (!Number.isFinite(value)) {
      throw new PubmatchError('INVALID_ARGUMENT', `${what} of row ${i} is ${value}, not a finite number`, {
        details: { record: `#${i}` },
      })
    }
    out[i] = value
  }
  return out
}

/**
 * Checks query group sizes: positive whole numbers that add up to the row count.
 * @param groups - query sizes in row order
 * @param numRows - rows of the dataset
 * @throws PubmatchError `INVALID_ARGUMENT` otherwise
 */
export function checkGroups(groups: ArrayLike<number>, numRows: number): Int32Array {
  const out = new Int32Array(groups.length)
  let sum = 0
  for (let i = 0; i < groups.length; i += 1) {
    const size = groups[i] ?? Number.NaN
    if (!Number.isInteger(size) || size <= 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `query group ${i} has size ${size}, not a positive whole number`, {
        details: { record: `#${i}` },
      })
    }
    out[i] = size
    sum += size
  }
  if (sum !== numRows) {
    throw new PubmatchError('INVALID_ARGUMENT', `query group sizes sum to ${sum}, but the data has ${numRows} rows`)
  }
  return out
}

/**
 * A LightGBM dataset (binned features plus labels and groups) inside one WebAssembly
 * instance. Create it with `LightGbm.createDataset`; call {@link Dataset.free} when done.
 */
export class Dataset {
  /** Rows. */
  readonly numRows: number
  /** Features per row. */
  readonly numFeatures: number
  /** The labels as LightGBM holds them (float32), if any. */
  readonly labels: Float32Array | undefined
  /** The query group sizes, if any. */
  readonly groups: Int32Array | undefined
  /** @internal */
  readonly runtime: Runtime
  #handle: Pointer
  /** Boosters that train on or evaluate this dataset and are not yet freed. @internal */
  readonly users: Set<object> = new Set()

  /** @internal Use `LightGbm.createDataset`. */
  constructor(runtime: Runtime, input: DatasetInput, options: DatasetOptions = {}) {
    const { features } = input
    checkFeatureMatrix(features, 'dataset features')
    const labels = input.labels === undefined ? undefined : toFiniteArray(input.labels, 'labels', features.numRows)
    const weights = input.weights === undefined ? undefined : toFiniteArray(input.weights, 'weights', features.numRows)
    if (weights?.some((w) => w < 0) === true) {
      throw new PubmatchError('INVALID_ARGUMENT', 'weights must not be negative')
    }
    const groups = input.groups === undefined ? undefined : checkGroups(input.groups, features.numRows)
    if (input.featureNames !== undefined && input.featureNames.length !== features.numFeatures) {
      throw new PubmatchError(
        'FEATURE_COUNT_MISMATCH',
        `${input.featureNames.length} feature names for ${features.numFeatures} features`,
      )
    }
    const { reference } = options
    if (reference !== undefined) {
      if (reference.runtime !== runtime) {
        throw new PubmatchError('INVALID_ARGUMENT', 'the reference dataset belongs to another LightGBM instance')
      }
      if (reference.numFeatures !== features.numFeatures) {
        throw new PubmatchError(
          'FEATURE_COUNT_MISMATCH',
          `dataset has ${features.numFeatures} features, its reference dataset ${reference.numFeatures}`,
        )
      }
    }
    const referenceHandle = reference?.handle ?? 0
    const params = formatParams(options.params ?? {})

    this.runtime = runtime
    this.numRows = features.numRows
    this.numFeatures = features.numFeatures
    this.labels = labels
    this.groups = groups

    const { module } = runtime
    const matrix = runtime.copyMatrix(features)
    let handle: Pointer
    try {
      handle = runtime.withString(params, (paramsPtr) => {
        runtime.check(
          'LGBM_DatasetCreateFromMat',
          module._LGBM_DatasetCreateFromMat(
            matrix.ptr,
            matrix.dtype,
            features.numRows,
            features.numFeatures,
            1,
            paramsPtr,
            referenceHandle,
            runtime.scratch,
          ),
        )
        return runtime.scratchPointer()
      })
    } finally {
      module._free(matrix.ptr)
    }
    this.#handle = handle
    runtime.liveDatasets += 1
    try {
      if (labels !== undefined) {
        this.#setFloatField('label', labels)
      }
      if (weights !== undefined) {
        this.#setFloatField('weight', weights)
      }
      if (groups !== undefined) {
        runtime.withMemory(groups.byteLength, (ptr) => {
          runtime.heap().i32.set(groups, ptr >>> 2)
          runtime.withString('group', (name) =>
            runtime.check('LGBM_DatasetSetField', module._LGBM_DatasetSetField(handle, name, ptr, groups.length, DTYPE_INT32)),
          )
        })
      }
      if (input.featureNames !== undefined) {
        this.#setFeatureNames(input.featureNames)
      }
    } catch (error) {
      this.free()
      throw error
    }
  }

  #setFloatField(field: string, values: Float32Array): void {
    const { runtime } = this
    const { module } = runtime
    runtime.withMemory(values.byteLength, (ptr) => {
      runtime.heap().f32.set(values, ptr >>> 2)
      runtime.withString(field, (name) =>
        runtime.check('LGBM_DatasetSetField', module._LGBM_DatasetSetField(this.handle, name, ptr, values.length, DTYPE_FLOAT32)),
      )
    })
  }

  #setFeatureNames(names: readonly string[]): void {
    const { runtime } = this
    const { module } = runtime
    const pointers = names.map((name) => runtime.string(name))
    try {
      runtime.withMemory(pointers.length * 4, (table) => {
        runtime.heap().u32.set(pointers, table >>> 2)
        runtime.check('LGBM_DatasetSetFeatureNames', module._LGBM_DatasetSetFeatureNames(this.handle, table, names.length))
      })
    } finally {
      pointers.forEach((ptr) => module._free(ptr))
    }
  }

  /** The native handle. @internal */
  get handle(): Pointer {
    if (this.#handle === 0) {
      throw new PubmatchError('INVALID_ARGUMENT', 'the dataset was freed')
    }
    return this.#handle
  }

  /** Whether {@link Dataset.free} has run. */
  get freed(): boolean {
    return this.#handle === 0
  }

  /**
   * Releases the native dataset. Calling it again does nothing.
   * @throws PubmatchError `INVALID_ARGUMENT` while a live booster still trains on or evaluates it
   */
  free(): void {
    if (this.#handle === 0) {
      return
    }
    if (this.users.size > 0) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `the dataset is still used by ${this.users.size} booster(s); free them first`,
      )
    }
    const handle = this.#handle
    this.#handle = 0
    this.runtime.liveDatasets -= 1
    this.runtime.check('LGBM_DatasetFree', this.runtime.module._LGBM_DatasetFree(handle))
  }
}
