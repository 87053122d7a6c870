import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { dfrIneL2 } from './dfr.ts'
import { createScorer } from './scorer.ts'
import type { CollectionStats } from './stats.ts'

// N = 4 documents of mean length 10; the term occurs F = 2 times in n = 2 documents.
const collection: CollectionStats = { docCount: 4, fields: [{ name: 'text', totalLength: 40 }] }
const term = { docFreq: 2, totalTermFreq: 2 }
// ne = N·(1 − ((N − 1)/N)^F) = 4·(1 − 9/16) = 1.75
// A  = log2((N + 1)/(ne + 0.5)) = log2(5/2.25) = log2(20/9) = 1.152003093
// tf 2, dl 10: tfn = 2·log2(1 + 1·10/10) = 2; score = A·2/(2 + 1) = 0.768002062
const A = 1.15200309344505

describe('dfrIneL2', () => {
  it('matches the hand-computed I(ne)L2 value at average length', () => {
    expect(dfrIneL2({ collection, term, tfs: [2], lengths: [10] }).value).toBeCloseTo(
      (A * 2) / 3,
      14,
    )
    expect(dfrIneL2({ collection, term, tfs: [2], lengths: [10] }).value).toBeCloseTo(
      0.7680020622967,
      12,
    )
  })

  it('normalises length with H2', () => {
    // dl 30: tfn = 2·log2(1 + 10/30) = 2·0.415037 = 0.830075; score = A·0.830075/1.830075 = 0.522519
    expect(dfrIneL2({ collection, term, tfs: [2], lengths: [30] }).value).toBeCloseTo(
      0.5225190043487218,
      13,
    )
    // c = 3, dl 30: tfn = 2·log2(1 + 30/30) = 2, as at average length with c = 1
    expect(dfrIneL2({ collection, term, tfs: [2], lengths: [30] }, { c: 3 }).value).toBeCloseTo(
      (A * 2) / 3,
      14,
    )
  })

  it("uses Terrier's Poisson ne on request", () => {
    // ne = 4·(1 − e^(−2/4)) = 1.573877; A = log2(5/2.073877) = 1.269598; score = A·2/3
    expect(
      dfrIneL2({ collection, term, tfs: [2], lengths: [10] }, { ne: 'poisson' }).value,
    ).toBeCloseTo(0.8463983413756692, 13)
  })

  it('explains tfn, A and ne', () => {
    const { value, explain } = dfrIneL2({ collection, term, tfs: [2], lengths: [10] })
    expect(explain.value).toBe(value)
    expect(explain.formula).toBe('A · tfn / (tfn + 1)')
    expect(explain.details.map((d) => [d.label, d.value])).toEqual([
      ['tfn', 2],
      ['A', expect.closeTo(A, 14) as number],
    ])
    expect(explain.details[0]!.details.map((d) => d.label)).toEqual(['tf', 'c', 'avgdl', 'dl'])
    expect(explain.details[1]!.details[1]).toMatchObject({
      label: 'ne',
      value: 1.75,
      formula: 'N · (1 − ((N − 1)/N)^F)',
    })
  })

  it('needs the collection frequency', () => {
    const scorer = createScorer('dfr')
    try {
      scorer.prepareQuery(collection, [{ docFreq: 2, text: 'diet' }])
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
      expect((error as Error).message).toMatchInlineSnapshot(
        `"dfr needs the term's totalTermFreq (a finite number ≥ docFreq = 2), got undefined for "diet""`,
      )
    }
  })
})

describe('dfr upper bound', () => {
  const scorer = createScorer('dfr').prepareQuery(collection, [term]).terms[0]!

  it('bounds at the maximum tf and the larger of min length and max tf', () => {
    expect(scorer.upperBound([2], [10])).toBeCloseTo((A * 2) / 3, 10)
    // tf 2 in documents of at least 1 token: evaluated at length 2, tfn = 2·log2(6) = 5.169925
    const tfn = 2 * Math.log2(6)
    expect(scorer.upperBound([2], [1])).toBeCloseTo((A * tfn) / (tfn + 1), 10)
    // tf → ∞: tfn → c·avgdl/ln 2 = 14.426950
    const limit = 10 / Math.LN2
    expect(scorer.upperBound([Infinity], [0])).toBeCloseTo((A * limit) / (limit + 1), 10)
  })
})
