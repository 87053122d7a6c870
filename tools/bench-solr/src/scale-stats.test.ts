import { describe, expect, it } from 'vitest'
import { compareTotals, summarizePasses } from './scale-stats.ts'

describe('summarizePasses', () => {
  it('keeps the first pass apart from the pooled repeats', () => {
    const summary = summarizePasses([
      [10, 20],
      [1, 2],
      [3, 4],
    ])
    expect(summary.passes).toBe(3)
    expect(summary.firstPass).toMatchObject({ count: 2, p50: 10, max: 20 })
    expect(summary.repeat).toMatchObject({ count: 4, p50: 2, mean: 2.5, max: 4 })
  })

  it('has no repeat with one pass, and needs a first pass with samples', () => {
    expect(summarizePasses([[5]]).repeat).toBeUndefined()
    expect(() => summarizePasses([])).toThrow(/at least one pass/)
    expect(() => summarizePasses([[], [1]])).toThrow(/at least one pass/)
  })
})

describe('compareTotals', () => {
  const pairs = [
    { id: 'a', text: 'asthma', embedded: 0, solr: 0 },
    { id: 'b', text: 'cancer', embedded: 120, solr: 120 },
    { id: 'c', text: 'tnf alpha', embedded: 1000, solr: 995 },
    { id: 'd', text: 'cox-2', embedded: 40, solr: 70 },
    { id: 'e', text: 'x', embedded: 3, solr: 0 },
    { id: 'f', text: 'y', embedded: 0, solr: 2 },
  ]

  it('counts exact agreement, both-zero queries, the 1 % band and one-sided matches', () => {
    const parity = compareTotals(pairs)
    expect(parity).toMatchObject({
      compared: 6,
      exact: 2,
      bothZero: 1,
      nonZero: 5,
      exactNonZero: 1,
      withinOnePercent: 1,
      onlyEmbedded: 1,
      onlySolr: 1,
      embeddedMatches: 1163,
      solrMatches: 1187,
    })
  })

  it('names the largest absolute difference and lists the worst first', () => {
    const parity = compareTotals(pairs, 2)
    expect(parity.largest).toEqual({
      id: 'd',
      text: 'cox-2',
      embedded: 40,
      solr: 70,
      difference: 30,
    })
    expect(parity.worst.map((pair) => pair.id)).toEqual(['d', 'c'])
  })

  it('has no largest difference when everything agrees', () => {
    const parity = compareTotals([{ id: 'a', text: 'q', embedded: 5, solr: 5 }])
    expect(parity.largest).toBeUndefined()
    expect(parity.worst).toEqual([])
    expect(parity.exact).toBe(1)
  })
})
