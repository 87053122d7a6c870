import { PubmatchError } from '@pubmatch/core'

/**
 * A dense row-major feature matrix: row `r`, feature `f` is `data[r * numFeatures + f]`.
 * `NaN` marks a missing value (LightGBM's `use_missing`).
 */
export interface FeatureMatrix {
  /** The values, row after row. Float32 halves the memory; Float64 keeps full precision. */
  readonly data: Float32Array | Float64Array
  /** Number of rows. */
  readonly numRows: number
  /** Number of features (columns) of every row. */
  readonly numFeatures: number
}

/**
 * Builds a {@link FeatureMatrix} (Float64) from rows of numbers.
 * @param rows - one array of feature values per row; all of the same length
 * @throws PubmatchError `FEATURE_COUNT_MISMATCH` when a row's length differs from the first row's
 * @throws PubmatchError `INVALID_ARGUMENT` when there are no rows or no features
 */
export function featureMatrixFromRows(rows: readonly (readonly number[])[]): FeatureMatrix {
  const first = rows[0]
  if (first === undefined || first.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a feature matrix needs at least one row and one feature')
  }
  const numFeatures = first.length
  const data = new Float64Array(rows.length * numFeatures)
  rows.forEach((row, r) => {
    if (row.length !== numFeatures) {
      throw new PubmatchError(
        'FEATURE_COUNT_MISMATCH',
        `row ${r} has ${row.length} features, row 0 has ${numFeatures}`,
        { details: { record: `#${r}` } },
      )
    }
    data.set(row, r * numFeatures)
  })
  return { data, numRows: rows.length, numFeatures }
}

/**
 * Checks that a matrix's shape and storage agree.
 * @param matrix - the matrix to check
 * @param what - how the message names it, e.g. `training data`
 * @throws PubmatchError `INVALID_ARGUMENT` for non-integer or non-positive sizes or a data length that is not rows × features
 */
export function checkFeatureMatrix(matrix: FeatureMatrix, what: string): void {
  const { numRows, numFeatures, data } = matrix
  if (!Number.isInteger(numRows) || numRows <= 0 || !Number.isInteger(numFeatures) || numFeatures <= 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${what} must have a positive whole number of rows and features, got ${numRows} × ${numFeatures}`,
    )
  }
  if (!(data instanceof Float32Array) && !(data instanceof Float64Array)) {
    throw new PubmatchError('INVALID_ARGUMENT', `${what} must be a Float32Array or Float64Array`)
  }
  if (data.length !== numRows * numFeatures) {
    throw new PubmatchError(
      'FEATURE_COUNT_MISMATCH',
      `${what} holds ${data.length} values, not ${numRows} rows × ${numFeatures} features = ${numRows * numFeatures}`,
    )
  }
  if (numRows > 0x7fffffff || numFeatures > 0x7fffffff) {
    throw new PubmatchError('INVALID_ARGUMENT', `${what} is larger than LightGBM's 32-bit row and column counts`)
  }
}
