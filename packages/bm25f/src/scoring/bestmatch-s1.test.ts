import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { bestMatchS1 } from './bestmatch-s1.ts'
import { createScorer } from './scorer.ts'
import type { CollectionStats } from './stats.ts'

// N = 100; total lengths title 1000, abstract 15000, mesh 1000; weights 5, 1, 5
// avgdl = (5·1000 + 1·15000 + 5·1000) / 100 = 250
const collection: CollectionStats = {
  docCount: 100,
  fields: [
    { name: 'title', totalLength: 1000 },
    { name: 'abstract', totalLength: 15000 },
    { name: 'mesh', totalLength: 1000 },
  ],
}
const term = { docFreq: 9, text: 'cancer' }
// Document: title 2 of 8 tokens, abstract 4 of 160, mesh empty (length 0).
const tfs = [2, 4, 0]
const lengths = [8, 160, 0]
// tf = 2·5/8 + 4·1/160 = 1.25 + 0.025 = 1.275 (the empty mesh field adds nothing)
// dl = 8·5 + 160·1 + 0·5 = 200
// k1·((1 − b) + b·dl/avgdl) = 1.2·(0.25 + 0.75·200/250) = 1.2·0.85 = 1.02
// idf = 1 + ln(100 / (9 + 1)) = 1 + ln 10 = 3.302585093
// score = 1.275 / (1.02 + 1.275) · idf = (5/9)·(1 + ln 10) = 1.834769496
const EXPECTED = 1.8347694961078034

describe('bestMatchS1', () => {
  it('matches the hand-computed value with title and MeSH weighted 5 and an empty field', () => {
    const { value } = bestMatchS1({ collection, term, tfs, lengths })
    expect(value).toBeCloseTo(EXPECTED, 13)
  })

  it('explains tf, the length norm and idf', () => {
    const { value, explain } = bestMatchS1({ collection, term, tfs, lengths })
    expect(explain.label).toBe('cancer')
    expect(explain.value).toBe(value)
    expect(explain.details.map((d) => [d.label, d.value])).toEqual([
      ['tf', 1.275],
      ['norm', expect.closeTo(1.02, 14) as number],
      ['idf', expect.closeTo(3.302585092994046, 14) as number],
    ])
    const [tf, norm, idf] = explain.details
    expect(tf!.details.map((d) => [d.label, d.value])).toEqual([
      ['title', 1.25],
      ['abstract', 0.025],
    ])
    expect(tf!.details[0]!.details.map((d) => [d.label, d.value])).toEqual([
      ['occ(t,f)', 2],
      ['w(f)', 5],
      ['l(f)', 8],
    ])
    expect(norm!.details.map((d) => [d.label, d.value])).toEqual([
      ['k1', 1.2],
      ['b', 0.75],
      ['dl', 200],
      ['avgdl', 250],
    ])
    expect(norm!.details[2]!.details.map((d) => d.label)).toEqual(['title', 'abstract', 'mesh'])
    expect(idf!.details.map((d) => [d.label, d.value])).toEqual([
      ['N', 100],
      ['n', 9],
    ])
  })

  it('multiplies by the boost and says so', () => {
    const { value, explain } = bestMatchS1({
      collection,
      term: { ...term, boost: 2 },
      tfs,
      lengths,
    })
    expect(value).toBeCloseTo(2 * EXPECTED, 13)
    expect(explain.details.at(-1)).toEqual({ label: 'boost', value: 2, details: [] })
    expect(explain.formula).toBe('tf / (k1·((1 − b) + b·dl/avgdl) + tf) · idf · boost')
  })

  it('takes other weights and defaults by field name', () => {
    // weights title 1, abstract 1, mesh 1: tf = 2/8 + 4/160 = 0.275, dl = 168, avgdl = 170
    // score = 0.275 / (1.2·(0.25 + 0.75·168/170) + 0.275) · (1 + ln 10)
    const { value } = bestMatchS1({ collection, term, tfs, lengths }, { fieldWeights: {} })
    const norm = 1.2 * (0.25 + (0.75 * 168) / 170)
    expect(value).toBeCloseTo((0.275 / (norm + 0.275)) * 3.302585092994046, 13)
    // abstract 5 by name, title and mesh 5 by default, keywords (not a field) ignored:
    // tf = 2·5/8 + 4·5/160 = 1.375, dl = 40 + 800 = 840, avgdl = (5000 + 75000 + 5000) / 100 = 850
    const renamed = bestMatchS1(
      { collection, term, tfs, lengths },
      { fieldWeights: { abstract: 5, keywords: 3 }, defaultFieldWeight: 5 },
    )
    expect(renamed.value).toBeCloseTo(
      (1.375 / (1.2 * (0.25 + (0.75 * 840) / 850) + 1.375)) * 3.302585092994046,
      13,
    )
    expect(renamed.value).toBeCloseTo(1.7707977187460906, 13)
  })

  it('scores 0 when the term is absent', () => {
    expect(bestMatchS1({ collection, term, tfs: [0, 0, 0], lengths }).value).toBe(0)
  })
})

describe('bestmatch-s1 upper bound', () => {
  const scorer = createScorer('bestmatch-s1').prepareQuery(collection, [term]).terms[0]!

  it('equals the score of a document at the maxima and minima', () => {
    expect(scorer.upperBound(tfs, lengths)).toBeCloseTo(EXPECTED, 10)
    expect(scorer.upperBound(tfs, lengths)).toBeGreaterThanOrEqual(scorer.score(tfs, lengths))
  })

  it('caps occ/l at 1 and works without a tf maximum', () => {
    // occ(t,f)/l(f) ≤ 1: tf ≤ 5 + 1 + 5 = 11 with zero minimum lengths (dl ≥ 0)
    // bound = 11 / (1.2·0.25 + 11) · (1 + ln 10)
    const unknown = [Infinity, Infinity, Infinity]
    expect(scorer.upperBound(unknown, [0, 0, 0])).toBeCloseTo(
      (11 / (0.3 + 11)) * 3.302585092994046,
      10,
    )
    // maxTf 2 in a title of at least 8 tokens: title ratio 2/8
    expect(scorer.upperBound([2, 0, 0], [8, 100, 0])).toBeCloseTo(
      (1.25 / (1.2 * (0.25 + (0.75 * 140) / 250) + 1.25)) * 3.302585092994046,
      10,
    )
    expect(scorer.upperBound([0, 0, 0], [1, 1, 1])).toBe(0)
  })
})

describe('bestmatch-s1 parameters', () => {
  it('rejects b outside [0, 1] and negative weights', () => {
    expect(() => createScorer('bestmatch-s1', { b: 1.5 })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: bestmatch-s1 parameter b must be a finite number in [0, 1], got 1.5]`,
    )
    const scorer = createScorer('bestmatch-s1', { fieldWeights: { title: -1 } })
    try {
      scorer.prepareQuery(collection, [term])
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
      expect((error as Error).message).toMatchInlineSnapshot(
        `"bestmatch-s1 parameter fieldWeights.title must be a finite number ≥ 0, got -1"`,
      )
    }
  })
})
