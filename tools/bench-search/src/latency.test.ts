import { describe, expect, it } from 'vitest'
import { quantile, summarizeLatencies, summarizeRounds } from './latency.ts'

describe('quantile', () => {
  it('takes the nearest rank, sorted[ceil(q·n) − 1]', () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    expect(quantile(ten, 0.5)).toBe(5) // ceil(5) = 5
    expect(quantile(ten, 0.95)).toBe(10) // ceil(9.5) = 10
    expect(quantile(ten, 0.1)).toBe(1)
    expect(quantile(ten, 0)).toBe(1)
    const twoHundred = Array.from({ length: 200 }, (_, i) => i + 1)
    expect(quantile(twoHundred, 0.99)).toBe(198) // ceil(198) = 198
    expect(quantile(twoHundred, 0.95)).toBe(190)
  })

  it('rejects no samples and q outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/bench-search: quantile needs samples and q in [0, 1] (got 0 samples, q 0.5)]`,
    )
    expect(() => quantile([1], 1.5)).toThrow(/q in \[0, 1\]/)
  })
})

describe('summarizeLatencies', () => {
  it('sorts a copy and reports percentiles, mean and max', () => {
    const samples = [3, 1, 2, 4]
    expect(summarizeLatencies(samples)).toEqual({
      count: 4,
      p50: 2,
      p95: 4,
      p99: 4,
      mean: 2.5,
      max: 4,
    })
    expect(samples).toEqual([3, 1, 2, 4])
  })
})

describe('summarizeRounds', () => {
  it('reports rounds 2 … R as the latency and round 1 apart', () => {
    // 2 queries × 3 rounds; round 1 is slow (cold caches).
    const summary = summarizeRounds([10, 20, 1, 2, 3, 4], [5, 5, 1, 1, 3, 3], 2)
    expect(summary.latency).toEqual({ count: 4, p50: 2, p95: 4, p99: 4, mean: 2.5, max: 4 })
    expect(summary.firstRound).toEqual({ count: 2, p50: 10, p95: 20, p99: 20, mean: 15, max: 20 })
    expect(summary.cpuMsPerQuery).toBe(2) // (1 + 1 + 3 + 3) / 4
  })

  it('uses the only round when there is one', () => {
    const summary = summarizeRounds([1, 3], [2, 4], 2)
    expect(summary.latency).toEqual(summary.firstRound)
    expect(summary.cpuMsPerQuery).toBe(3)
  })

  it('rejects partial rounds and mismatched CPU times', () => {
    expect(() => summarizeRounds([1, 2, 3], [1, 2, 3], 2)).toThrow(/whole rounds of 2 samples/)
    expect(() => summarizeRounds([1, 2], [1], 2)).toThrow(/1 CPU times/)
  })
})
