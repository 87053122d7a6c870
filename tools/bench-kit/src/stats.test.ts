import { describe, expect, it } from 'vitest'
import { checkJson } from '@pubmatch/core'
import { LATENCY_SUMMARY, quantile, summarize, summarizeLatencies } from './stats.ts'

const oneToTen = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const oneTo200 = Array.from({ length: 200 }, (_, i) => i + 1)

describe('quantile (nearest rank: sorted[ceil(q · n) − 1])', () => {
  it('is a measured value, by hand on 1 … 10 and 1 … 200', () => {
    expect(quantile(oneToTen, 0.5)).toBe(5) // ceil(5) = 5
    expect(quantile(oneToTen, 0.9)).toBe(9) // ceil(9) = 9
    expect(quantile(oneToTen, 0.95)).toBe(10) // ceil(9.5) = 10
    expect(quantile(oneToTen, 0.99)).toBe(10) // ceil(9.9) = 10
    expect(quantile(oneToTen, 0.01)).toBe(1) // ceil(0.1) = 1
    expect(quantile(oneToTen, 0)).toBe(1) // rank 0 is taken as 1
    expect(quantile(oneToTen, 1)).toBe(10)
    expect(quantile(oneTo200, 0.99)).toBe(198) // ceil(198) = 198
    expect(quantile(oneTo200, 0.995)).toBe(199) // ceil(199) = 199
    expect(quantile([2.5], 0.5)).toBe(2.5)
  })

  it('computes q · n in floating point, as every benchmark did: 0.07 · 100 = 7.000000000000001, rank 8', () => {
    const oneTo100 = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(0.07 * 100).toBe(7.000000000000001)
    expect(quantile(oneTo100, 0.07)).toBe(8)
    // a percentile p is quantile(sorted, p / 100): 95 / 100 is the same number as 0.95
    expect(95 / 100).toBe(0.95)
  })

  it('refuses no samples and q outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: a quantile needs samples and q in [0, 1] (got 0 samples, q 0.5)]`)
    expect(() => quantile([1], 1.5)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as Error)
    expect(() => quantile([1], Number.NaN)).toThrowError(/q NaN/)
  })
})

describe('summarize', () => {
  it('gives count, mean, extremes and p50/p90/p95/p99 of unsorted values, by hand', () => {
    // sorted 1 2 3 4 10: mean 20/5; p50 rank ceil(2.5) = 3; p90, p95, p99 rank 5
    expect(summarize([10, 1, 4, 3, 2])).toEqual({ count: 5, mean: 4, min: 1, max: 10, p50: 3, p90: 10, p95: 10, p99: 10 })
    // 1 … 200 reversed: mean 100.5; ranks 100, 180, 190, 198
    expect(summarize([...oneTo200].reverse())).toEqual({ count: 200, mean: 100.5, min: 1, max: 200, p50: 100, p90: 180, p95: 190, p99: 198 })
  })

  it('sums in ascending order and leaves its input alone', () => {
    const samples = [0.3, 1e16, 0.1, -1e16, 0.2]
    // ascending: −1e16 + 0.1 + 0.2 + 0.3 + 1e16 = 0 in floating point, as the benchmarks summed
    expect(summarize(samples).mean).toBe(0)
    expect(samples).toEqual([0.3, 1e16, 0.1, -1e16, 0.2])
  })

  it('refuses no values, or gives count 0 and NaN when asked', () => {
    expect(() => summarize([])).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: a summary needs at least one sample]`)
    expect(summarize([], { empty: 'nan' })).toEqual({
      count: 0,
      mean: Number.NaN,
      min: Number.NaN,
      max: Number.NaN,
      p50: Number.NaN,
      p90: Number.NaN,
      p95: Number.NaN,
      p99: Number.NaN,
    })
  })
})

describe('summarizeLatencies', () => {
  it('keeps the fields of the search benchmarks’ results files, in their order', () => {
    const summary = summarizeLatencies([4, 1, 3, 2])
    expect(Object.keys(summary)).toEqual(['count', 'p50', 'p95', 'p99', 'mean', 'max'])
    expect(summary).toEqual({ count: 4, p50: 2, p95: 4, p99: 4, mean: 2.5, max: 4 })
    expect(checkJson(JSON.parse(JSON.stringify(summary)), LATENCY_SUMMARY, { file: 'results.json' })).toEqual(summary)
  })
})
