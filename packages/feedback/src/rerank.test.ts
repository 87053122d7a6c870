import { describe, expect, it } from 'vitest'
import { getAnalyzer } from '@pubmatch/analysis'
import { textCandidates } from './candidates.ts'
import { bm25Scores, bordaFuse, explainBm25, explainTfidf, maxNormalisedSum, rankOrder, tfidfScores } from './rerank.ts'
import { documentVector, explicitFeedback, initialQueryVector, remoteExpansionWords, rocchio } from './rocchio.ts'

// Three documents analysed with the whitespace analyzer (lower-cased words, no stemming):
// d0 heart:2 attack:1 (|d| 3), d1 heart:1 failure:1 (|d| 2), d2 kidney:2 stone:1 (|d| 3); avgdl 8/3.
const analyzer = getAnalyzer('whitespace')
const set = textCandidates(
  [
    { id: 'd0', title: 'heart attack', abstract: 'heart' },
    { id: 'd1', title: 'heart failure', abstract: '' },
    { id: 'd2', title: 'kidney', abstract: 'kidney stone' },
  ],
  { analyzer },
)
const query = new Map([
  ['heart', 1],
  ['attack', 2],
])

describe('tfidfScores (Lucene practical scoring function)', () => {
  it('matches the hand-computed coord · queryNorm · Σ √tf · idf² · boost / √|d|', () => {
    // idf(heart) = 1 + ln(3/3) = 1; idf(attack) = 1 + ln(3/2) = 1.405465
    // queryNorm = 1/√((1·1)² + (1.405465·2)²) = 0.335176
    // d0 = (√2·1·1/√3 + 1·1.405465²·2/√3) · 0.335176 · 2/2 = 1.038178
    // d1 = (1·1·1/√2) · 0.335176 · 1/2 = 0.118503; d2 holds no query term
    const scores = tfidfScores(set, query, 'local')
    expect(scores[0]).toBeCloseTo(1.038177939704208, 12)
    expect(scores[1]).toBeCloseTo(0.1185025204982091, 12)
    expect(scores[2]).toBe(0)
    expect(explainTfidf(set, query, 0, 'local').value).toBeCloseTo(scores[0]!, 12)
  })
})

describe('bm25Scores (Lucene 6 BM25, k1 1.2, b 0.75)', () => {
  it('matches the hand-computed Σ boost · idf · tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl))', () => {
    // idf(heart) = ln(1 + 1.5/2.5) = 0.470004; idf(attack) = ln(1 + 2.5/1.5) = 0.980829
    // d0: norm = 1.2·(0.25 + 0.75·3/(8/3)) = 1.3125; 0.470004·2·2.2/3.3125 + 2·0.980829·2.2/2.3125 = 2.490533
    // d1: norm = 1.2·(0.25 + 0.75·2/(8/3)) = 0.975; 0.470004·2.2/1.975 = 0.523548
    const scores = bm25Scores(set, query, 'local')
    expect(scores[0]).toBeCloseTo(2.4905331781216957, 12)
    expect(scores[1]).toBeCloseTo(0.523548346501579, 12)
    expect(scores[2]).toBe(0)
    expect(explainBm25(set, query, 1, 'local').value).toBeCloseTo(scores[1]!, 12)
  })

  it('takes global statistics when a collection is given', () => {
    const global = textCandidates([{ id: 'd0', title: 'heart', abstract: '' }], { analyzer, collection: { size: 1000, docFreq: () => 9 } })
    // idf = ln(1 + (1000 − 9 + 0.5)/(9 + 0.5)) = ln(105.368421); |d| = avgdl = 1: 1·2.2/(1 + 1.2)
    expect(bm25Scores(global, new Map([['heart', 1]]))[0]).toBeCloseTo(Math.log(1 + 991.5 / 9.5), 12)
  })
})

describe('fusion', () => {
  it('weighted Borda: n − r + 1 points at rank r, times the weight', () => {
    const a = Float64Array.from([3, 2, 1])
    const b = Float64Array.from([1, 2, 3])
    // a: d0 3, d1 2, d2 1 points; b (weight 2): d2 6, d1 4, d0 2 → d0 5, d1 6, d2 7
    expect([...bordaFuse([{ scores: a }, { scores: b, weight: 2 }])]).toEqual([5, 6, 7])
  })

  it('max-normalised addition divides each ranking by its largest score', () => {
    const a = Float64Array.from([4, 2, 0])
    const b = Float64Array.from([1, 1, 2])
    // a/4 = 1, .5, 0; b/2 = .5, .5, 1
    expect([...maxNormalisedSum([{ scores: a }, { scores: b }])]).toEqual([1.5, 1, 1])
    expect([...rankOrder(Float64Array.from([1.5, 1, 1]))]).toEqual([0, 1, 2])
  })
})

describe('query vectors and Rocchio', () => {
  it('weighs query terms twice their TF-IDF', () => {
    // local: N 3; heart df 2 → idf 1 + ln(3/3) = 1; attack df 1 → 1 + ln(3/2)
    const vector = initialQueryVector('heart attack heart', analyzer, set, 'local')
    expect(vector.get('heart')).toBeCloseTo(2 * Math.SQRT2 * 1, 12)
    expect(vector.get('attack')).toBeCloseTo(2 * (1 + Math.log(1.5)), 12)
  })

  it('keeps the terms of a feedback document that score at least the threshold', () => {
    // d2: kidney tf 2, idf 1 + ln(3/2) = 1.405465 → √2·1.405465²/√3 = 1.612861; stone tf 1 → 1.975332/√3 = 1.140459
    const vector = documentVector(set, 2, { idf: 'local', minScore: 1.2 })
    expect([...vector.keys()]).toEqual(['kidney'])
    expect(vector.get('kidney')).toBeCloseTo((Math.SQRT2 * (1 + Math.log(1.5)) ** 2) / Math.sqrt(3), 12)
  })

  it('adds and subtracts class centroids, drops negative weights and keeps the heaviest terms', () => {
    const q = new Map([['a', 1]])
    const out = rocchio(
      q,
      [
        { vectors: [new Map([['b', 2], ['c', 1]]), new Map([['b', 4]])], weight: 0.5 }, // centroid b 3, c 0.5 → +1.5, +0.25
        { vectors: [new Map([['c', 1], ['a', 20]])], weight: -0.1 }, // c −0.1, a −2
      ],
      { alpha: 1, maxTerms: 2 },
    )
    // a 1 − 2 = −1 (dropped although it is the query's), b 1.5, c 0.15
    expect([...out.keys()]).toEqual(['b', 'c'])
    expect(out.get('b')).toBeCloseTo(1.5, 12)
    expect(out.get('c')).toBeCloseTo(0.15, 12)
  })

  it('weighs highly relevant documents f·b and subtracts non-relevant ones c', () => {
    const vector = explicitFeedback(new Map([['heart', 1]]), set, new Map([[0, 'highly-relevant'], [2, 'non-relevant']]), {
      idf: 'local',
      minScore: 0,
    })
    // d0's vector (tfidf, local): heart √2·1/√3; attack 1.405465²/√3; times f·b = 1.5
    expect(vector.get('heart')).toBeCloseTo(1 + 1.5 * (Math.SQRT2 / Math.sqrt(3)), 12)
    expect(vector.get('attack')).toBeCloseTo(1.5 * ((1 + Math.log(1.5)) ** 2 / Math.sqrt(3)), 12)
    expect(vector.has('kidney')).toBe(false) // only subtracted: negative, dropped
  })

  it('expands a remote query with frequent unstemmed words that are neither stop words nor query words', () => {
    const docs = textCandidates(
      [
        { id: 'a', title: 'Statins and cholesterol', abstract: 'statins lower cholesterol; cholesterol and statins' },
        { id: 'b', title: 'Cholesterol', abstract: 'the cholesterol of the patients' },
      ],
      { analyzer },
    )
    const words = remoteExpansionWords(docs, [0, 1], 'statins', { stopwords: new Set(['and', 'the', 'of']), minOccurrences: 2 })
    // cholesterol 5, statins is the query's, lower 1, patients 1
    expect(words).toEqual(['cholesterol'])
  })
})
