import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { bm25, bm25LengthNorm, lucene6Bm25 } from './bm25.ts'
import { luceneIdf } from './idf.ts'
import { createScorer } from './scorer.ts'
import type { CollectionStats } from './stats.ts'

const collection: CollectionStats = {
  docCount: 1000,
  fields: [
    { name: 'title', totalLength: 10_000 },
    { name: 'abstract', totalLength: 200_000 },
  ],
}
const term = { docFreq: 10 }
// One bag: tf = 1 + 3 = 4, dl = 12 + 220 = 232, avgdl = 10 + 200 = 210
// idf = ln(1 + 990.5/10.5) = 4.557379522
// score = idf · 4 / (4 + 1.2·(0.25 + 0.75·232/210)) = 4.557379522 · 4/5.294286 = 3.443244107
const input = { collection, term, tfs: [1, 3], lengths: [12, 220] }

describe('bm25', () => {
  it('matches the hand-computed Lucene BM25 value over title + abstract', () => {
    expect(bm25(input).value).toBeCloseTo(3.4432441074001296, 13)
  })

  it('multiplies by k1 + 1 as Lucene < 8 did', () => {
    expect(bm25(input, { k1Plus1: true }).value).toBeCloseTo(3.4432441074001296 * 2.2, 12)
  })

  it('restricts the bag to the chosen fields', () => {
    // abstract only: tf 3, dl 220, avgdl 200: idf · 3/(3 + 1.2·(0.25 + 0.75·1.1)) = 3.186978687
    expect(bm25(input, { fields: ['abstract'] }).value).toBeCloseTo(3.1869786868194008, 13)
  })

  it('explains tf, the length norm and idf', () => {
    const { value, explain } = bm25(input)
    expect(explain.value).toBe(value)
    expect(explain.label).toBe('term')
    expect(explain.details.map((d) => d.label)).toEqual(['tf', 'norm', 'idf'])
    expect(explain.details[0]!.details.map((d) => [d.label, d.value])).toEqual([
      ['title', 1],
      ['abstract', 3],
    ])
    expect(explain.details[1]!.details.map((d) => [d.label, d.value])).toEqual([
      ['k1', 1.2],
      ['b', 0.75],
      ['dl', 232],
      ['avgdl', 210],
    ])
  })

  it('rejects an unknown bag field with UNKNOWN_FIELD', () => {
    const scorer = createScorer('bm25', { fields: ['body'] })
    try {
      scorer.prepareQuery(collection, [term])
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'UNKNOWN_FIELD')).toBe(true)
      expect((error as Error).message).toMatchInlineSnapshot(
        `"bm25 field "body" is not a field of the collection (title, abstract)"`,
      )
    }
  })
})

describe('bm25 upper bound', () => {
  const scorer = createScorer('bm25').prepareQuery(collection, [term]).terms[0]!

  it('bounds at the summed maxima and minima, and at unknown tf', () => {
    expect(scorer.upperBound([1, 3], [12, 220])).toBeCloseTo(3.4432441074001296, 10)
    // tf 4 in a bag of at least 2 tokens: evaluated at length max(2, 4) = 4
    expect(scorer.upperBound([1, 3], [1, 1])).toBeCloseTo(
      (4.557379522151743 * 4) / (4 + 1.2 * (0.25 + (0.75 * 4) / 210)),
      10,
    )
    // tf → ∞: tf/(tf + k1·(1 − b) + k1·b·tf/avgdl) → 1/(1 + 1.2·0.75/210)
    expect(scorer.upperBound([Infinity, 0], [0, 0])).toBeCloseTo(
      4.557379522151743 / (1 + 0.9 / 210),
      10,
    )
  })
})

describe('lucene6Bm25', () => {
  it('matches the hand-computed Lucene < 8 BM25 of one term in one field', () => {
    // N 10, n 2, tf 3, dl 20, avgdl 10: ln(4.4) · 3 · 2.2 / (3 + 1.2 · (0.25 + 0.75 · 2)) = ln(4.4) · 6.6 / 5.1
    const norm = bm25LengthNorm(1.2, 0.75, (0.75 * 20) / 10)
    expect(norm).toBeCloseTo(2.1, 14)
    expect(lucene6Bm25(luceneIdf(10, 2), 3, 1.2, norm)).toBeCloseTo((Math.log(4.4) * 6.6) / 5.1, 13)
    expect(lucene6Bm25(luceneIdf(10, 2), 0, 1.2, norm)).toBe(0)
  })

  it('is the bm25 scorer with k1Plus1 over one field', () => {
    const single = { docCount: 1000, fields: [{ name: 'abstract', totalLength: 200_000 }] }
    const expected = bm25(
      { collection: single, term, tfs: [3], lengths: [220] },
      { k1Plus1: true },
    ).value
    const value = lucene6Bm25(
      luceneIdf(1000, 10),
      3,
      1.2,
      bm25LengthNorm(1.2, 0.75, (0.75 * 220) / 200),
    )
    expect(value).toBeCloseTo(expected, 13)
  })
})
