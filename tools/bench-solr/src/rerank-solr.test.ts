import { describe, expect, it } from 'vitest'
import { uncachedParams } from './rerank-solr.ts'

describe('uncachedParams', () => {
  it('adds cache=false to the main query’s and the {!terms} filters’ local parameters', () => {
    expect(
      uncachedParams({
        q: '{!bm25f qf=$p1 mm=any v=$p2}',
        fq: ['{!term f=pubtype v=$p3}', '{!terms f=id separator=$pm.idsep v=$pm.ids}'],
        rows: 500,
      }),
    ).toEqual({
      q: '{!bm25f cache=false qf=$p1 mm=any v=$p2}',
      fq: ['{!term f=pubtype v=$p3}', '{!terms cache=false f=id separator=$pm.idsep v=$pm.ids}'],
      rows: 500,
    })
  })

  it('handles a parser without parameters, a single filter, and leaves cache settings and plain queries alone', () => {
    expect(uncachedParams({ q: '{!bool}', fq: '{!terms f=id v=$x}' })).toEqual({
      q: '{!bool cache=false}',
      fq: '{!terms cache=false f=id v=$x}',
    })
    expect(uncachedParams({ q: '{!bm25f cache=true v=$p}' }).q).toBe('{!bm25f cache=true v=$p}')
    expect(uncachedParams({ q: '*:*', action: 'STATUS' })).toEqual({ q: '*:*', action: 'STATUS' })
  })
})
