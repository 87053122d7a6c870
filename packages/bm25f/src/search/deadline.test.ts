import { emptyArticle, isPubmatchError } from '@pubmatch/core'
import { defaultPubmedFields, type IndexReader } from '@pubmatch/index'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { createSearcher } from './searcher.ts'

let reader: IndexReader

beforeAll(async () => {
  // 5,000 documents that all hold "cell": the top-k loop visits every one of them
  const articles = Array.from({ length: 5000 }, (_, i) => ({ ...emptyArticle(String(i + 1), 'pubmed'), title: `cell ${i % 7 === 0 ? 'cell' : 'line'} study ${i}` }))
  reader = await suiteIndex(articles, { fields: defaultPubmedFields({ analyzer: 'biomedical' }) })
})

describe('search deadlines', () => {
  it('stops a search that runs past its deadline with TIMEOUT', () => {
    const searcher = createSearcher(reader)
    let error: unknown
    try {
      searcher.search('cell', { deadline: performance.now() - 1, pruning: false })
    } catch (caught) {
      error = caught
    }
    expect(isPubmatchError(error, 'TIMEOUT')).toBe(true)
    expect((error as Error).message).toBe('the search ran past its deadline')
    // the term-at-a-time loop (500 hits of a one-word disjunction) checks it too
    expect(searcher.search('cell', { match: 'any', defaultFields: ['title'] }).stats.strategy).toBe('termAtATime')
    expect(() => searcher.search('cell', { match: 'any', defaultFields: ['title'], deadline: performance.now() - 1 })).toThrowError(
      expect.objectContaining({ code: 'TIMEOUT' }),
    )
  })

  it('stops while counting the exact total too, and finishes when there is time', () => {
    const searcher = createSearcher(reader)
    expect(() => searcher.search('cell', { deadline: performance.now() - 1, limit: 10 })).toThrowError(
      expect.objectContaining({ code: 'TIMEOUT' }),
    )
    // a deadline that is checked but never passes, however slow the machine
    const result = searcher.search('cell', { deadline: Number.POSITIVE_INFINITY, limit: 10 })
    expect(result.total).toBe(5000)
  })
})
