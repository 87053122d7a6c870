import type { RunEntry } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { judgeRanking, NOT_IN_POOL, UNJUDGED, type JudgedRanking } from './judged-ranking.ts'
import {
  averagePrecision,
  bpref,
  interpolatedPrecision,
  ndcg,
  ndcgAt,
  precisionAt,
  rPrecision,
  recallAt,
  reciprocalRank,
  successAt,
  trecInfAP,
} from './metrics.ts'

/** A judged ranking built directly: `rels` in rank order, `gradeCounts` over all judged docs. */
function ranking(rels: number[], gradeCounts: number[], relevanceLevel = 1): JudgedRanking {
  let numRel = 0
  gradeCounts.forEach((c, g) => {
    numRel += g >= relevanceLevel ? c : 0
  })
  return {
    rels,
    gradeCounts,
    relevanceLevel,
    numRel,
    numRet: rels.length,
    numRelRet: rels.filter((r) => r >= relevanceLevel).length,
    numNonpool: rels.filter((r) => r === NOT_IN_POOL).length,
    numUnjudged: rels.filter((r) => r === UNJUDGED).length,
  }
}

const entries = (...pairs: [string, number][]): RunEntry[] =>
  pairs.map(([docId, score]) => ({ docId, score }))

describe('judgeRanking', () => {
  it('ranks by score descending and breaks ties by document id descending, ignoring the rank column', () => {
    const judged = judgeRanking(
      [
        { docId: 'd1', score: 1, rank: 1 },
        { docId: 'd3', score: 1, rank: 2 },
        { docId: 'D4', score: 1, rank: 3 },
        { docId: 'd9', score: 2, rank: 4 },
      ],
      new Map([
        ['d1', 2],
        ['d3', 1],
        ['D4', 0],
      ]),
    )
    // d9 first (higher score); then d3 > d1 > D4 in strcmp order ('D' < 'd')
    expect(judged.rels).toEqual([NOT_IN_POOL, 1, 2, 0])
  })

  it('orders ids by code point like strcmp, not by UTF-16 unit', () => {
    // U+FF5E (BMP, one unit 0xFF5E) sorts below U+1F600 (surrogates 0xD83D…) in code point order
    const judged = judgeRanking(
      entries(['\u{FF5E}', 1], ['\u{1F600}', 1]),
      new Map([['\u{1F600}', 1]]),
    )
    expect(judged.rels).toEqual([1, NOT_IN_POOL])
  })

  it('marks negative grades as pooled-but-unjudged and counts grades over all judged documents', () => {
    const judged = judgeRanking(
      entries(['a', 3], ['b', 2], ['c', 1]),
      new Map([
        ['a', -1],
        ['b', 2],
        ['x', 1],
        ['y', 0],
      ]),
    )
    expect(judged).toEqual({
      rels: [UNJUDGED, 2, NOT_IN_POOL],
      gradeCounts: [1, 1, 1],
      relevanceLevel: 1,
      numRel: 2,
      numRet: 3,
      numRelRet: 1,
      numNonpool: 1,
      numUnjudged: 1,
    })
  })

  it('counts only grades at or above the relevance level as relevant', () => {
    const judged = judgeRanking(
      entries(['a', 2], ['b', 1]),
      new Map([
        ['a', 1],
        ['b', 2],
        ['c', 2],
      ]),
      {
        relevanceLevel: 2,
      },
    )
    expect([judged.numRel, judged.numRelRet]).toEqual([2, 1])
  })

  it('drops unjudged documents with judgedOnly and truncates with maxDocs', () => {
    const qrels = new Map([
      ['a', 1],
      ['c', -1],
      ['d', 0],
    ])
    const run = entries(['a', 4], ['b', 3], ['c', 2], ['d', 1])
    expect(judgeRanking(run, qrels, { judgedOnly: true }).rels).toEqual([1, 0])
    expect(judgeRanking(run, qrels, { maxDocs: 2 }).rels).toEqual([1, NOT_IN_POOL])
  })

  it('rejects a document retrieved twice, as trec_eval does', () => {
    expect(() =>
      judgeRanking(entries(['a', 1], ['a', 0.5]), new Map(), { queryId: 'q1' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: query "q1" retrieves document "a" twice; trec_eval rejects such runs (deduplicate with dedupeRun first)]`,
    )
  })

  it('rejects fractional grades', () => {
    expect(() => judgeRanking([], new Map([['a', 1.5]]))).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: judgement of "a" is 1.5; grades must be integers (trec_eval reads them with atol)]`,
    )
  })
})

describe('precisionAt, recallAt, successAt', () => {
  // relevant at ranks 1 and 3 of 4 retrieved; 3 relevant judged in all
  const r = ranking([1, 0, 2, NOT_IN_POOL], [5, 2, 1])

  it('divides by the cutoff even beyond the ranking', () => {
    expect(precisionAt(r, 2)).toBe(0.5)
    expect(precisionAt(r, 10)).toBe(0.2)
  })

  it('divides recall by all relevant documents', () => {
    expect(recallAt(r, 2)).toBeCloseTo(1 / 3, 15)
    expect(recallAt(r, 1000)).toBeCloseTo(2 / 3, 15)
  })

  it('gives recall 0 when the query has no relevant document', () => {
    expect(recallAt(ranking([0, 0], [2]), 5)).toBe(0)
  })

  it('reports success once a relevant document is within the cutoff', () => {
    expect([
      successAt(r, 1),
      successAt(ranking([0, 1], [1, 1]), 1),
      successAt(ranking([0, 1], [1, 1]), 2),
    ]).toEqual([1, 0, 1])
  })
})

describe('averagePrecision', () => {
  it('averages precision at each relevant rank over all relevant documents', () => {
    // relevant at 1 and 3, R = 3: (1/1 + 2/3) / 3
    expect(averagePrecision(ranking([1, 0, 1, 0, 0], [2, 3]))).toBeCloseTo((1 + 2 / 3) / 3, 15)
  })

  it('stops at the cutoff for map_cut', () => {
    expect(averagePrecision(ranking([1, 0, 1], [1, 3]), 2)).toBeCloseTo(1 / 3, 15)
  })

  it('is 0 without relevant documents', () => {
    expect(averagePrecision(ranking([0], [1]))).toBe(0)
    expect(averagePrecision(ranking([], [0, 2]))).toBe(0)
  })
})

describe('reciprocalRank and rPrecision', () => {
  it('takes the rank of the first relevant document', () => {
    expect(reciprocalRank(ranking([0, NOT_IN_POOL, 2], [1, 0, 1]))).toBeCloseTo(1 / 3, 15)
    expect(reciprocalRank(ranking([0, 0], [2, 1]))).toBe(0)
  })

  it('computes precision at R over the retrieved documents only', () => {
    // R = 3, relevant at ranks 1 and 3 → 2/3
    expect(rPrecision(ranking([1, 0, 1, 1], [1, 3]))).toBeCloseTo(2 / 3, 15)
    // only 2 retrieved, 1 relevant among them, R = 3 → 1/3
    expect(rPrecision(ranking([1, 0], [1, 3]))).toBeCloseTo(1 / 3, 15)
  })
})

describe('bpref', () => {
  it('penalises each relevant document by the judged non-relevant ones above it', () => {
    // R = 2, N = 3; first relevant has 1 non-relevant above: 1 − 1/min(3,2) = 0.5;
    // second has 2 above: 1 − 2/2 = 0; unjudged (−1) skipped → (0.5 + 0) / 2
    expect(bpref(ranking([0, 1, NOT_IN_POOL, 0, 1], [3, 2]))).toBe(0.25)
  })

  it('scores relevant documents above every judged non-relevant one as 1', () => {
    expect(bpref(ranking([UNJUDGED, 1, 0], [1, 1]))).toBe(1)
  })
})

describe('trecInfAP', () => {
  it('follows trec_eval m_infap.c on a hand example', () => {
    // j=0 relevant → 1. j=3 relevant with 1 relevant, 1 non-relevant and 1 unjudged above:
    // 1/4 + (3/4)·(3/3)·((1+ε)/(1+1+2ε)) = 1/4 + 3/8 exactly in the limit; R = 2
    const eps = 0.00001
    const expected = (1 + 0.25 + 0.75 * ((1 + eps) / (2 + 2 * eps))) / 2
    expect(trecInfAP(ranking([1, UNJUDGED, 0, 1], [1, 2]))).toBeCloseTo(expected, 15)
    expect(expected).toBeCloseTo(0.8125, 12)
  })

  it('equals AP when every pooled document is judged and nothing unpooled is retrieved above a relevant one', () => {
    const r = ranking([1, 0, 1, 0], [2, 2])
    expect(trecInfAP(r)).toBeCloseTo(averagePrecision(r), 4)
  })
})

describe('ndcgAt', () => {
  // ranking grades 1, 2, 0; one judged document at each of grades 0, 1, 2
  const r = ranking([1, 2, 0], [1, 1, 1])

  it('uses gain = grade and discount log2(rank + 1), as trec_eval ndcg_cut', () => {
    const dcg = 1 + 2 / Math.log2(3)
    const ideal = 2 + 1 / Math.log2(3)
    expect(ndcgAt(r, 3)).toBeCloseTo(dcg / ideal, 15)
    expect(ndcgAt(r, 3)).toBeCloseTo(0.8597186998, 9)
  })

  it('offers the 2^grade − 1 gain (not trec_eval’s)', () => {
    const dcg = 1 + 3 / Math.log2(3)
    const ideal = 3 + 1 / Math.log2(3)
    expect(ndcgAt(r, 3, { gain: 'exponential' })).toBeCloseTo(dcg / ideal, 15)
    expect(ndcgAt(r, 3, { gain: 'exponential' })).toBeCloseTo(0.79670758, 8)
  })

  it('cuts the ideal ranking at k too', () => {
    // top 1: DCG 1, ideal 2
    expect(ndcgAt(r, 1)).toBe(0.5)
  })

  it('counts grades as gains whatever the relevance level', () => {
    expect(ndcgAt(ranking([1, 2, 0], [1, 1, 1], 2), 3)).toBeCloseTo(ndcgAt(r, 3), 15)
  })

  it('is 0 for an empty ranking and for a query without relevant documents', () => {
    expect(ndcgAt(ranking([], [0, 3]), 10)).toBe(0)
    expect(ndcgAt(ranking([0, 0], [4]), 10)).toBe(0)
  })
})

describe('ndcg (full ranking, custom gains)', () => {
  it('applies rel_level=gain overrides like trec_eval -m ndcg.1=3,2=9', () => {
    const r = ranking([1, 2, 0], [1, 1, 1])
    const dcg = 3 + 9 / Math.log2(3)
    const ideal = 9 + 3 / Math.log2(3)
    expect(
      ndcg(
        r,
        new Map([
          [1, 3],
          [2, 9],
        ]),
      ),
    ).toBeCloseTo(dcg / ideal, 15)
  })

  it('lets a negative gain lower DCG without entering the ideal ranking', () => {
    const r = ranking([0, 1], [1, 1])
    const dcg = -1 + 1 / Math.log2(3)
    expect(ndcg(r, new Map([[0, -1]]))).toBeCloseTo(dcg / 1, 15)
  })
})

describe('interpolatedPrecision', () => {
  it('takes the best precision at or beyond each recall level', () => {
    // relevant at ranks 2 and 4 of 5, R = 2: P = 1/2 at recall .5 and 2/4 at recall 1
    const r = ranking([0, 1, 0, 1, 0], [3, 2])
    expect(interpolatedPrecision(r, [0, 0.5, 1])).toEqual([0.5, 0.5, 0.5])
  })

  it('reports 0 for recall levels never reached', () => {
    const r = ranking([1, 0], [1, 4])
    // R = 4, cutoffs floor(l·4 + 0.9): 0→0, .25→1, .5→2
    expect(interpolatedPrecision(r, [0, 0.25, 0.5])).toEqual([1, 1, 0])
  })

  it('is 0 everywhere for an empty ranking', () => {
    expect(interpolatedPrecision(ranking([], [0, 1]), [0, 1])).toEqual([0, 0])
  })
})
