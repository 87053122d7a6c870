import { describe, expect, it } from 'vitest'
import { parseSearchSummary } from './load.ts'
import { parseQueryLines } from './queries.ts'

describe('parseSearchSummary', () => {
  it('reads the top-level fields of a search answer in any order, not look-alikes inside strings', () => {
    const body =
      '{"query":"\\"total\\":3 \\"reranked\\":false","total":1234,"totalRelation":"eq","page":1,"size":20,"sort":"relevance",' +
      '"reranked":true,"generation":3,"results":[{"pmid":"1","title":{"text":"a \\"tookMs\\":1 b","matches":[]},"firstStage":{"score":2.5,"rank":8}}],' +
      '"warnings":[],"tookMs":12.625,"model":"2026-11-26T02:00:00.000Z/81234"}'
    expect(parseSearchSummary(body)).toEqual({
      total: 1234,
      reranked: true,
      fallback: false,
      generation: 3,
      model: '2026-11-26T02:00:00.000Z/81234',
      tookMs: 12.625,
    })
  })

  it('sees a fallback and a missing model', () => {
    const body =
      '{"query":"x","total":0,"totalRelation":"eq","page":1,"size":20,"sort":"relevance","reranked":false,' +
      '"fallback":{"feature":"F3","value":9,"range":[0,4]},"generation":1,"results":[],"warnings":[],"tookMs":0.5}'
    expect(parseSearchSummary(body)).toEqual({ total: 0, reranked: false, fallback: true, generation: 1, tookMs: 0.5 })
  })

  it('is undefined for an error body', () => {
    expect(parseSearchSummary('{"code":"QUERY_SYNTAX","message":"no"}')).toBeUndefined()
  })
})

describe('parseQueryLines', () => {
  it('keeps queries as typed, trimmed, and skips blank ones', () => {
    expect(parseQueryLines('qid0000|ultrasound and chronic pancreatitis\nqid0012| classification of shock\nqid0099|   \n\nqid0021|#8 AND bell*\n')).toEqual([
      { qid: 'qid0000', text: 'ultrasound and chronic pancreatitis' },
      { qid: 'qid0012', text: 'classification of shock' },
      { qid: 'qid0021', text: '#8 AND bell*' },
    ])
  })
})
