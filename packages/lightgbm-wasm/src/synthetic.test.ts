import { describe, expect, it } from 'vitest'
import { createSyntheticRankingSet } from './synthetic.ts'

describe('createSyntheticRankingSet', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const options = { numQueries: 5, docsPerQuery: [3, 9] as const, numFeatures: 14, missingRate: 0.2 }
    const a = createSyntheticRankingSet({ ...options, seed: 9 })
    const b = createSyntheticRankingSet({ ...options, seed: 9 })
    const c = createSyntheticRankingSet({ ...options, seed: 10 })
    expect(b).toEqual(a)
    expect(c.features.data).not.toEqual(a.features.data)
  })

  it('draws query sizes in range and labels every row', () => {
    const set = createSyntheticRankingSet({ numQueries: 50, docsPerQuery: [3, 9], numFeatures: 4, seed: 1 })
    expect(set.groups.every((size) => size >= 3 && size <= 9)).toBe(true)
    expect(set.labels.length).toBe(set.groups.reduce((a, b) => a + b, 0))
    expect(set.features.data.length).toBe(set.labels.length * 4)
  })

  it('grades the top 5/10/15/20 % of each query 4/3/2/1', () => {
    const set = createSyntheticRankingSet({ numQueries: 3, docsPerQuery: 100, numFeatures: 12, seed: 4 })
    for (let q = 0; q < 3; q += 1) {
      const labels = Array.from(set.labels.subarray(q * 100, q * 100 + 100))
      expect([0, 1, 2, 3, 4].map((g) => labels.filter((l) => l === g).length)).toEqual([50, 20, 15, 10, 5])
    }
  })

  it('puts NaNs only in every 13th feature from 7, at about the asked rate', () => {
    const set = createSyntheticRankingSet({ numQueries: 20, docsPerQuery: 50, numFeatures: 21, seed: 2, missingRate: 0.25 })
    const nanPerFeature = Array.from({ length: 21 }, (_, j) => {
      let n = 0
      for (let r = 0; r < set.features.numRows; r += 1) {
        n += Number.isNaN(set.features.data[r * 21 + j]) ? 1 : 0
      }
      return n / set.features.numRows
    })
    expect(nanPerFeature.filter((_, j) => j !== 7 && j !== 20).every((share) => share === 0)).toBe(true)
    expect(nanPerFeature[7]).toBeGreaterThan(0.2)
    expect(nanPerFeature[7]).toBeLessThan(0.3)
  })
})
