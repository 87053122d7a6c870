import { describe, expect, it } from 'vitest'
import { summarize } from './report.ts'

describe('summarize', () => {
  it('summarises an unsorted sample in the fields of the tables', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ n: 4, p50: 2, p90: 4, p99: 4, mean: 2.5, max: 4 })
    expect(Object.keys(summarize([1]))).toEqual(['n', 'p50', 'p90', 'p99', 'mean', 'max'])
  })
  it('gives n 0 and NaN for no values', () => {
    expect(summarize([])).toEqual({ n: 0, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, mean: Number.NaN, max: Number.NaN })
  })
})
