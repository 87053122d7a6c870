import { describe, expect, it } from 'vitest'
import { summarizeRounds } from './latency.ts'

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
