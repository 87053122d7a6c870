import { parseQuery, type SearchResult } from '@pubmatch/bm25f'
import { describe, expect, it } from 'vitest'
import { decodeTask, encodeTask, joinReplies } from './protocol.ts'

const result: SearchResult = {
  hits: [
    { id: 'MED-1', docNumber: 7, score: 3.5, rank: 1 },
    { id: 'MED-2', docNumber: 2, score: 2.25, rank: 2 },
    { id: 'MED-3', docNumber: 9, score: 1, rank: 3 },
  ],
  total: 12,
  totalRelation: 'gte',
  query: parseQuery('vitamin d'),
  warnings: [],
  stats: { docsScored: 5, postingsScored: 8, docsMatched: 12, windows: 1, blocksSkipped: 0, clauses: 2, pruned: true },
}

describe('encodeTask / decodeTask', () => {
  it('carries a slice of the candidates and the whole header through a structured clone', () => {
    const task = structuredClone(encodeTask('vitamin d', result, 1, 3))
    expect(task.query).toBe('vitamin d')
    expect([...task.docNumbers]).toEqual([2, 9])
    const decoded = decodeTask(task)
    expect(decoded.hits).toEqual(result.hits.slice(1, 3))
    expect(decoded.total).toBe(12)
    expect(decoded.totalRelation).toBe('gte')
    expect(decoded.query).toEqual(result.query)
    expect(decoded.stats).toEqual(result.stats)
  })

  it('encodes every candidate by default', () => {
    expect(decodeTask(encodeTask('q', result)).hits).toEqual(result.hits)
  })

  it('rejects a range outside the hits', () => {
    expect(() => encodeTask('q', result, 2, 4)).toThrowError(/candidates \[2, 4\) of 3/)
  })
})

describe('joinReplies', () => {
  it('concatenates the parts’ rows in order', () => {
    const joined = joinReplies([
      { data: Float64Array.of(1, 2, 3, 4), numRows: 2, numFeatures: 2, computeMs: 1 },
      { data: Float64Array.of(5, 6), numRows: 1, numFeatures: 2, computeMs: 1 },
    ])
    expect(joined.numRows).toBe(3)
    expect([...joined.data]).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('rejects parts with different feature counts', () => {
    expect(() =>
      joinReplies([
        { data: Float64Array.of(1, 2), numRows: 1, numFeatures: 2, computeMs: 0 },
        { data: Float64Array.of(1, 2, 3), numRows: 1, numFeatures: 3, computeMs: 0 },
      ]),
    ).toThrowError(/a part has 3 features, the first 2/)
  })
})
