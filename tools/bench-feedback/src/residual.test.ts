import { describe, expect, it } from 'vitest'
import {
  frozenRanking,
  rankedEntries,
  residualQrels,
  residualRanking,
  simulatedGrade,
} from './residual.ts'

describe('simulatedGrade', () => {
  const judgements = new Map([
    ['a', 2],
    ['b', 1],
    ['c', 0],
  ])
  it('maps qrels grades to the user grades, unjudged to non-relevant', () => {
    expect(['a', 'b', 'c', 'd'].map((id) => simulatedGrade(judgements, id))).toEqual([
      'highly-relevant',
      'relevant',
      'non-relevant',
      'non-relevant',
    ])
    expect(simulatedGrade(undefined, 'a')).toBe('non-relevant')
  })
})

describe('frozenRanking', () => {
  it('puts the shown documents first in the order shown, then the current ranking without them', () => {
    // shown in rounds 1 and 2: d3 d1 | d5; the current ranking after round 2
    expect(frozenRanking(['d3', 'd1', 'd5'], ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'])).toEqual([
      'd3',
      'd1',
      'd5',
      'd2',
      'd4',
      'd6',
    ])
  })
  it('cuts at the limit, also inside the shown documents', () => {
    expect(frozenRanking(['d3', 'd1', 'd5'], ['d1', 'd2', 'd3', 'd4'], 4)).toEqual([
      'd3',
      'd1',
      'd5',
      'd2',
    ])
    expect(frozenRanking(['d3', 'd1', 'd5'], ['d1', 'd2'], 2)).toEqual(['d3', 'd1'])
  })
  it('is the current ranking when nothing was shown', () => {
    expect(frozenRanking([], ['x', 'y'])).toEqual(['x', 'y'])
  })
})

describe('residualRanking', () => {
  it('removes the shown documents and keeps the order of the rest', () => {
    expect(residualRanking(['d1', 'd2', 'd3', 'd4', 'd5'], new Set(['d2', 'd5', 'zz']))).toEqual([
      'd1',
      'd3',
      'd4',
    ])
  })
  it('cuts after removing', () => {
    expect(residualRanking(['d1', 'd2', 'd3', 'd4', 'd5'], new Set(['d1']), 2)).toEqual([
      'd2',
      'd3',
    ])
  })
})

describe('residualQrels', () => {
  const qrels = new Map([
    [
      'q1',
      new Map([
        ['a', 2],
        ['b', 1],
        ['c', 0],
      ]),
    ],
    [
      'q2',
      new Map([
        ['x', 1],
        ['y', 0],
      ]),
    ],
    ['q3', new Map([['m', 1]])],
  ])
  it('removes the shown documents per query and drops queries with no relevant document left', () => {
    const shown = new Map([
      ['q1', new Set(['a', 'z'])],
      ['q2', new Set(['x'])],
    ])
    const { qrels: left, dropped } = residualQrels(qrels, shown)
    expect([...left.keys()]).toEqual(['q1', 'q3'])
    expect([...left.get('q1')!]).toEqual([
      ['b', 1],
      ['c', 0],
    ])
    expect([...left.get('q3')!]).toEqual([['m', 1]])
    expect(dropped).toEqual(['q2'])
  })
  it('counts relevance from the given level', () => {
    const shown = new Map([['q1', new Set(['a'])]])
    // with level 2 only 'a' was relevant in q1, and q2, q3 have no grade-2 document at all
    expect(residualQrels(qrels, shown, 2).dropped).toEqual(['q1', 'q2', 'q3'])
  })
})

describe('rankedEntries', () => {
  it('scores n − i so that trec_eval order (score descending) is the list order', () => {
    expect(rankedEntries(['b', 'a', 'c'])).toEqual([
      { docId: 'b', score: 3 },
      { docId: 'a', score: 2 },
      { docId: 'c', score: 1 },
    ])
  })
})
