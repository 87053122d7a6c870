import { describe, expect, it } from 'vitest'
import { compareSamples, parseCell, sameAnswer } from './compare.ts'

describe('compare', () => {
  it('reads cells and refuses others', () => {
    expect(parseCell('bag-all-500')).toEqual({ name: 'bag-all-500', set: 'log-bag', match: 'all', limit: 500 })
    expect(parseCell('dev-any-1000').set).toBe('nfcorpus-dev')
    expect(() => parseCell('dev-some-10')).toThrow(/a cell is/)
    expect(() => parseCell('bag-all-0')).toThrow(/a cell is/)
  })

  it('summarises paired samples: all rounds, best rounds, the median of per-query ratios', () => {
    // query 1: 1, 3 ms before; 2, 2 ms after; query 2: 4, 8 before; 1, 9 after
    const c = compareSamples([[1, 3], [4, 8]], [[2, 2], [1, 9]])
    expect(c.before.p50).toBe(3) // nearest rank of 1, 3, 4, 8
    expect(c.after.p99).toBe(9)
    expect(c.beforeBest.p50).toBe(1) // minima 1 and 4
    expect(c.afterBest.p99).toBe(2) // minima 2 and 1
    // ratios of medians (lower middle): 2/1 = 2 and 1/4 = 0.25 → lower middle 0.25
    expect(c.pairedMedianRatio).toBe(0.25)
    expect(() => compareSamples([[1]], [])).toThrow(/same queries/)
  })

  it('takes the same hits and totals, or an exact total at least a lower bound', () => {
    const hits = [{ id: 'a', score: 1.5 }]
    const eq = { hits, total: 7, totalRelation: 'eq' }
    expect(sameAnswer(eq, { ...eq, hits: [{ id: 'a', score: 1.5 }] })).toBe(true)
    expect(sameAnswer(eq, { ...eq, total: 8 })).toBe(false)
    expect(sameAnswer(eq, { ...eq, hits: [{ id: 'a', score: 1.5000000000000002 }] })).toBe(false)
    expect(sameAnswer(eq, { ...eq, hits: [{ id: 'b', score: 1.5 }] })).toBe(false)
    const gte = { hits, total: 5, totalRelation: 'gte' }
    expect(sameAnswer(gte, eq)).toBe(true)
    expect(sameAnswer(gte, { ...eq, total: 4 })).toBe(false)
    expect(sameAnswer(gte, { ...gte })).toBe(true)
    expect(sameAnswer(eq, gte)).toBe(false)
    // -0 and 0 differ under Object.is
    expect(sameAnswer({ ...eq, hits: [{ id: 'a', score: 0 }] }, { ...eq, hits: [{ id: 'a', score: -0 }] })).toBe(false)
  })
})
