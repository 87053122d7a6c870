import { describe, expect, it } from 'vitest'
import { createScorer } from './scorer.ts'
import type { CollectionStats } from './stats.ts'
import { tfIdf } from './tfidf.ts'

// N = 9 documents. Query: t1 in n = 2 documents, t2 in n = 8.
const collection: CollectionStats = { docCount: 9, fields: [{ name: 'text', totalLength: 90 }] }
const t1 = { docFreq: 2, text: 't1' }
const t2 = { docFreq: 8, text: 't2' }
// idf(t1) = 1 + ln(9/3) = 2.098612289; idf(t2) = 1 + ln(9/9) = 1
// queryNorm = 1/sqrt(2.098612289² + 1²) = 1/sqrt(5.404174) = 0.430165282
// Document: t1 4 times, t2 absent, 16 tokens.
// t1: sqrt(4) · idf² · queryNorm · 1/sqrt(16) = 2 · 4.404174 · 0.430165 · 0.25 = 0.947261277
// coord = 1/2 → score = 0.473630639
const IDF1 = 2.09861228866811
const QUERY_NORM = 0.430165282498796

describe('tfIdf', () => {
  it("matches the hand-computed value of Lucene's practical scoring function", () => {
    const { value } = tfIdf({ collection, terms: [t1, t2], tfs: [[4], [0]], lengths: [16] })
    expect(value).toBeCloseTo(2 * IDF1 * IDF1 * QUERY_NORM * 0.25 * 0.5, 14)
    expect(value).toBeCloseTo(0.4736306385528754, 14)
  })

  it('drops coord and queryNorm and smooths idf as Lucene ≥ 7', () => {
    // idf = 1 + ln(10/3) = 2.203972804; score = sqrt(4) · idf² · 1/4 = 2.428748061
    const { value } = tfIdf(
      { collection, terms: [t1, t2], tfs: [[4], [0]], lengths: [16] },
      { coord: false, queryNorm: false, idf: 'smooth' },
    )
    expect(value).toBeCloseTo(2.428748061104165, 13)
  })

  it('weights boosted terms in the score and in queryNorm', () => {
    // queryNorm = 1/sqrt((2·2.098612)² + 1) = 0.231765462; t1 = 2 · idf² · 2 · queryNorm · 1/4
    const { value } = tfIdf({
      collection,
      terms: [{ ...t1, boost: 2 }, t2],
      tfs: [[4], [0]],
      lengths: [16],
    })
    expect(value).toBeCloseTo(0.5103676582583668, 14)
  })

  it('quantises the norm as Lucene ≤ 6 (byte315) and Lucene ≥ 7 (byte4)', () => {
    // 3 tokens: 1/sqrt(3) = 0.577 is stored as 0.5; t1 twice: sqrt(2) · idf² · queryNorm · 0.5
    const terms = [t1, t2]
    const exact = tfIdf({ collection, terms, tfs: [[2], [0]], lengths: [3] }, { coord: false })
    const byte315 = tfIdf(
      { collection, terms, tfs: [[2], [0]], lengths: [3] },
      { coord: false, norms: 'byte315' },
    )
    expect(exact.value).toBeCloseTo(1.5468711880041537, 13)
    expect(byte315.value).toBeCloseTo(Math.SQRT2 * IDF1 * IDF1 * QUERY_NORM * 0.5, 13)
    expect(byte315.value).toBeCloseTo(1.3396297451938115, 13)
    // 41 tokens are stored as 40: norm = float32(1/sqrt(40)) = 0.15811388194561005
    const byte4 = tfIdf(
      { collection, terms, tfs: [[1], [0]], lengths: [41] },
      { coord: false, norms: 'byte4' },
    )
    expect(byte4.value).toBeCloseTo(IDF1 * IDF1 * QUERY_NORM * 0.15811388194561005, 14)
    expect(byte4.explain.details[0]!.details.at(-1)).toMatchObject({
      label: 'lengthNorm',
      value: 0.15811388194561005,
      formula: '1 / sqrt(byte4ToInt(intToByte4(dl)))',
    })
  })

  it('explains each matched term and coord', () => {
    const { value, explain } = tfIdf({
      collection,
      terms: [t1, t2],
      tfs: [[4], [0]],
      lengths: [16],
    })
    expect(explain.value).toBe(value)
    expect(explain.label).toBe('tfidf')
    expect(explain.formula).toBe('coord · Σ_t score(t)')
    expect(explain.details.map((d) => [d.label, d.value])).toEqual([
      ['t1', expect.closeTo(0.9472612771057508, 14) as number],
      ['coord', 0.5],
    ])
    const term = explain.details[0]!
    expect(term.formula).toBe('sqrt(tf) · idf² · queryNorm · lengthNorm')
    expect(term.details.map((d) => [d.label, d.value])).toEqual([
      ['sqrt(tf)', 2],
      ['idf', expect.closeTo(IDF1, 14) as number],
      ['queryNorm', expect.closeTo(QUERY_NORM, 14) as number],
      ['lengthNorm', 0.25],
    ])
  })
})

describe('tfidf scorer', () => {
  it('is not additive with coord, and combines the per-term sum', () => {
    const query = createScorer('tfidf').prepareQuery(collection, [t1, t2])
    expect(query.additive).toBe(false)
    const part = query.terms[0]!.score([4], [16])
    expect(query.combine(part, 1)).toBe(part * 0.5)
    expect(query.score([[4], [0]], [16])).toBe(part * 0.5)
    expect(
      createScorer('tfidf', { coord: false }).prepareQuery(collection, [t1, t2]).additive,
    ).toBe(true)
  })

  it('bounds quantised norms too', () => {
    for (const norms of ['exact', 'byte315', 'byte4'] as const) {
      const term = createScorer('tfidf', { norms }).prepareQuery(collection, [t1, t2]).terms[0]!
      for (let length = 1; length <= 300; length++) {
        for (let tf = 1; tf <= Math.min(length, 12); tf++) {
          expect(term.score([tf], [length])).toBeLessThanOrEqual(term.upperBound([tf], [length]))
          expect(term.score([tf], [length])).toBeLessThanOrEqual(term.upperBound([12], [1]))
          expect(term.score([tf], [length])).toBeLessThanOrEqual(term.upperBound([Infinity], [0]))
        }
      }
    }
  })
})
