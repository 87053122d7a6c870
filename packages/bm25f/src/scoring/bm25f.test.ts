import { describe, expect, it } from 'vitest'
import { bm25f } from './bm25f.ts'
import { createScorer } from './scorer.ts'
import { averageFieldLengths, type CollectionStats } from './stats.ts'

// The worked example of CONTRIBUTING.md, "Tests": N = 1000, n = 10, k1 = 1.2;
// title w = 2, b = 0.75, tf 1, length 12, avgl 10; abstract w = 1, tf 3, length 220, avgl 200.
const collection: CollectionStats = {
  docCount: 1000,
  fields: [
    { name: 'title', totalLength: 10_000 },
    { name: 'abstract', totalLength: 200_000 },
  ],
}
const term = { docFreq: 10 }
const input = { collection, term, tfs: [1, 3], lengths: [12, 220] }
const weights = { fieldWeights: { title: 2 } }
// tf~ = 2·1/(0.25 + 0.75·12/10) + 1·3/(0.25 + 0.75·220/200) = 2/1.15 + 3/1.075 = 4.529828109
// Lucene idf = ln(1 + 990.5/10.5) = 4.557379522; RSJ idf = ln(990.5/10.5) = 4.546835
// score = idf · tf~/(1.2 + tf~) = 4.557379522 · 0.790571… = 3.602925859
const TF = 4.529828109201214
const LUCENE_IDF = 4.557379522151743

describe('bm25f', () => {
  it('matches the hand-computed value with Lucene idf', () => {
    const { value } = bm25f(input, weights)
    expect(value).toBeCloseTo((LUCENE_IDF * TF) / (1.2 + TF), 13)
    expect(value).toBeCloseTo(3.602925859257396, 13)
  })

  it('reproduces the worked example with the (k1 + 1) factor', () => {
    expect(bm25f(input, { ...weights, k1Plus1: true }).value).toBeCloseTo(7.926437, 6)
  })

  it('uses RSJ idf on request', () => {
    // ln(990.5 / 10.5) · tf~/(1.2 + tf~)
    expect(bm25f(input, { ...weights, idf: 'rsj' }).value).toBeCloseTo(3.5945893711104278, 13)
  })

  it('takes b per field', () => {
    // title b = 0: its part is w·tf = 2; tf~ = 2 + 3/1.075 = 4.790697674
    const { value } = bm25f(input, { ...weights, fieldB: { title: 0 } })
    expect(value).toBeCloseTo(3.6444882824660674, 13)
  })

  it('explains tf~ per field, k1 and idf', () => {
    const { value, explain } = bm25f({ ...input, term: { docFreq: 10, text: 'diet' } }, weights)
    expect(explain.label).toBe('diet')
    expect(explain.value).toBe(value)
    expect(explain.details.map((d) => d.label)).toEqual(['tf~', 'k1', 'idf'])
    const [tf] = explain.details
    expect(tf!.value).toBeCloseTo(TF, 14)
    expect(tf!.details.map((d) => [d.label, d.value])).toEqual([
      ['title', expect.closeTo(2 / 1.15, 14) as number],
      ['abstract', expect.closeTo(3 / 1.075, 14) as number],
    ])
    expect(tf!.details[1]!.details.map((d) => [d.label, d.value])).toEqual([
      ['occ(t,f)', 3],
      ['w(f)', 1],
      ['b(f)', 0.75],
      ['l(f)', 220],
      ['avgl(f)', 200],
    ])
    const k1Plus1 = bm25f(input, { ...weights, k1Plus1: true, idf: 'rsj' }).explain
    expect(k1Plus1.details.map((d) => d.label)).toEqual(['tf~', 'k1', 'idf', 'k1 + 1'])
    expect(k1Plus1.details[2]!.formula).toBe('ln((N − n + 0.5) / (n + 0.5))')
  })
})

describe('bm25f upper bound', () => {
  it('bounds at the maximum tf and minimum length per field', () => {
    const term10 = createScorer('bm25f', weights).prepareQuery(collection, [term]).terms[0]!
    expect(term10.upperBound([1, 3], [12, 220])).toBeCloseTo(term10.score([1, 3], [12, 220]), 10)
    // tf 3 in a title of at least 2 tokens: the length used is max(2, 3) = 3
    // title: 2·3/(0.25 + 0.75·3/10) = 6/0.475; nothing in the abstract
    const tf = 6 / 0.475
    expect(term10.upperBound([3, 0], [2, 0])).toBeCloseTo((LUCENE_IDF * tf) / (1.2 + tf), 10)
    // unknown tf: each field tends to w·avgl/b, so tf~ → 2·10/0.75 + 200/0.75
    const limit = (2 * 10) / 0.75 + 200 / 0.75
    expect(term10.upperBound([Infinity, Infinity], [0, 0])).toBeCloseTo(
      (LUCENE_IDF * limit) / (1.2 + limit),
      10,
    )
  })

  it('is 0 for a term whose RSJ idf is negative', () => {
    const common = createScorer('bm25f', { idf: 'rsj' }).prepareQuery(collection, [
      { docFreq: 900 },
    ]).terms[0]!
    expect(common.score([1, 3], [12, 220])).toBeLessThan(0)
    expect(common.upperBound([1, 3], [12, 220])).toBe(0)
  })
})

describe('bm25f over frozen collection statistics', () => {
  it('keeps the derived field constants of a frozen collection and scores as over a fresh copy', () => {
    const fields = [
      { name: 'title', totalLength: 200 },
      { name: 'abstract', totalLength: 3000 },
    ]
    const frozen = Object.freeze({ docCount: 20, fields: Object.freeze(fields.map((f) => Object.freeze({ ...f }))) })
    const fresh = { docCount: 20, fields: fields.map((f) => ({ ...f })) }
    // the same array for the same frozen statistics, a new one otherwise
    expect(averageFieldLengths(frozen)).toBe(averageFieldLengths(frozen))
    expect(averageFieldLengths(fresh)).not.toBe(averageFieldLengths(fresh))
    expect([...averageFieldLengths(frozen)]).toEqual([10, 150])
    const scorer = createScorer('bm25f')
    const term = { docFreq: 4, totalTermFreq: 9 }
    const a = scorer.prepareQuery(frozen, [term, term]).terms
    const b = scorer.prepareQuery(fresh, [term]).terms[0]!
    expect(a[0]!.fieldwise!.offset).toBe(a[1]!.fieldwise!.offset)
    // title: occ 2, length 10 = avgl → 5·2/1 = 10; tf~/(k1 + tf~)·idf with idf ln(1 + 16.5/4.5)
    const expected = (10 / (1.2 + 10)) * Math.log(1 + 16.5 / 4.5)
    for (const t of [a[0]!, a[1]!, b]) {
      expect(t.score([2, 0], [10, 150])).toBeCloseTo(expected, 12)
    }
    // a frozen collection's prepared terms are kept per statistics (label included)
    const again = scorer.prepareQuery(frozen, [term, { ...term, docFreq: 5 }, { ...term, text: 'x' }]).terms
    expect(again[0]).toBe(a[0])
    expect(again[1]).not.toBe(a[0])
    expect(again[1]!.score([2, 0], [10, 150])).toBeCloseTo((10 / 11.2) * Math.log(1 + 15.5 / 5.5), 12)
    expect(again[2]).not.toBe(a[0])
    expect(again[2]!.term.text).toBe('x')
    // another scorer (other parameters) prepares its own
    expect(createScorer('bm25f', { k1: 2 }).prepareQuery(frozen, [term]).terms[0]).not.toBe(a[0])
    // a mutable collection changed between queries is read again
    fresh.fields[0]!.totalLength = 400
    expect(scorer.prepareQuery(fresh, [term]).terms[0]!.score([2, 0], [10, 150])).not.toBeCloseTo(expected, 6)
  })
})
