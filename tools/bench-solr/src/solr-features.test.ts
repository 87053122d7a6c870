import { describe, expect, it } from 'vitest'
import type { TrainingSet } from '@pubmatch/ltr'
import { SOLR_COLUMNS, runOf } from './solr-features.ts'

describe('the Solr-computable feature subset', () => {
  it('keeps F1–F143 and F176–F179 and drops the 32 query-term features F144–F175', () => {
    expect(SOLR_COLUMNS).toHaveLength(147)
    expect(SOLR_COLUMNS).toContain(142) // F143, the first-stage score
    expect(SOLR_COLUMNS.some((c) => c >= 143 && c <= 174)).toBe(false)
    expect(SOLR_COLUMNS.slice(-4)).toEqual([175, 176, 177, 178]) // F176–F179
  })
})

describe('runOf', () => {
  it('orders each query by score, ties by first-stage rank', () => {
    const set = {
      groups: Int32Array.from([3, 2]),
      queryIds: ['q1', 'q2'],
      docIds: ['a', 'b', 'c', 'd', 'e'],
      firstStageRanks: Int32Array.from([1, 2, 3, 1, 2]),
    } as unknown as TrainingSet
    const run = runOf(set, Float64Array.from([0.1, 0.5, 0.5, 2, 3]))
    expect(run.queries.get('q1')!.map((e) => e.docId)).toEqual(['b', 'c', 'a'])
    expect(run.queries.get('q2')!.map((e) => [e.docId, e.rank])).toEqual([['e', 1], ['d', 2]])
  })
})
