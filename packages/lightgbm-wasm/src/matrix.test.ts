import { describe, expect, it } from 'vitest'
import { checkFeatureMatrix, featureMatrixFromRows } from './matrix.ts'

describe('featureMatrixFromRows', () => {
  it('lays rows out row-major in a Float64Array', () => {
    const matrix = featureMatrixFromRows([
      [1, 2, 3],
      [4, Number.NaN, 6],
    ])
    expect(matrix.numRows).toBe(2)
    expect(matrix.numFeatures).toBe(3)
    expect(Array.from(matrix.data)).toEqual([1, 2, 3, 4, Number.NaN, 6])
  })

  it('rejects rows whose feature count differs from the first row', () => {
    expect(() => featureMatrixFromRows([[1, 2], [3]])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: row 1 has 1 features, row 0 has 2]`,
    )
  })
})

describe('checkFeatureMatrix', () => {
  it('rejects storage that is not rows × features', () => {
    expect(() =>
      checkFeatureMatrix({ data: new Float32Array(5), numRows: 2, numFeatures: 3 }, 'training data'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: training data holds 5 values, not 2 rows × 3 features = 6]`,
    )
    expect(() => checkFeatureMatrix({ data: new Float64Array(0), numRows: 0, numFeatures: 3 }, 'x')).toThrow(/positive/)
  })
})
