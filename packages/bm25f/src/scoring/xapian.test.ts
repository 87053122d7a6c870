import { describe, expect, it } from 'vitest'
import { createScorer } from './scorer.ts'
import type { CollectionStats } from './stats.ts'
import { xapianBm25 } from './xapian.ts'

const collection: CollectionStats = {
  docCount: 1000,
  fields: [
    { name: 'title', totalLength: 10_000 },
    { name: 'abstract', totalLength: 200_000 },
  ],
}

describe('xapianBm25', () => {
  it('matches the hand-computed value of a rare term', () => {
    // tw = (1000 − 10 + 0.5)/(10 + 0.5) = 94.333; termweight = ln(94.333)·2.2 = 10.003036
    // tf 4, dl 232, avgdl 210: normlen = 1.104762; 4/(1.2·(1.104762·0.75 + 0.25) + 4) = 0.755532
    const { value } = xapianBm25({
      collection,
      term: { docFreq: 10 },
      tfs: [1, 3],
      lengths: [12, 220],
    })
    expect(value).toBeCloseTo(7.557609603693143, 12)
  })

  it('halves a small tw and clamps short documents to min_normlen', () => {
    // N = 10, n = 6: tw = 4.5/6.5 = 0.6923 < 2 → 0.6923/2 + 1 = 1.346154; termweight = ln(1.346154)·2.2
    // dl 2, avgdl 10: 0.2 < 0.5 → normlen 0.5; tf 1: 1/(1.2·(0.5·0.75 + 0.25) + 1) = 1/1.75
    const small: CollectionStats = { docCount: 10, fields: [{ name: 'text', totalLength: 100 }] }
    const { value, explain } = xapianBm25({
      collection: small,
      term: { docFreq: 6 },
      tfs: [1],
      lengths: [2],
    })
    expect(value).toBeCloseTo(0.37368762950254275, 13)
    expect(explain.details.map((d) => [d.label, d.value])).toEqual([
      ['termweight', expect.closeTo(0.6539533516294498, 14) as number],
      ['tf', 1],
      ['normlen', 0.5],
      ['b', 0.75],
    ])
    expect(explain.details[0]!.details[0]).toMatchObject({
      label: 'tw',
      value: expect.closeTo(1.3461538461538463, 14) as number,
    })
  })

  it('bounds as get_maxpart does', () => {
    const term = createScorer('xapian').prepareQuery(collection, [{ docFreq: 10 }]).terms[0]!
    // max wdf 4, min length 1: evaluated at length max(4, 1) = 4, normlen max(4/210, 0.5) = 0.5
    expect(term.upperBound([1, 3], [1, 0])).toBeCloseTo(
      (10.003036139745282 * 4) / (1.2 * 0.625 + 4),
      10,
    )
    // wdf → ∞: 1/(1 + k1·b/avgdl)
    expect(term.upperBound([Infinity, 0], [0, 0])).toBeCloseTo(
      10.003036139745282 / (1 + 0.9 / 210),
      10,
    )
  })
})
