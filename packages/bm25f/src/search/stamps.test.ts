/**
 * The term-at-a-time and intersection loops mark their work arrays with stamps; a stamp count
 * near the Int32 limit starts again at 0. That may happen only between searches: a search that
 * wrapped midway would lose the scores it had stamped so far. White box: the tests set the
 * searcher's stamp count directly.
 */
import { emptyArticle } from '@pubmatch/core'
import { defaultPubmedFields, type IndexReader } from '@pubmatch/index'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { createSearcher } from './searcher.ts'
import type { FirstStageRanker } from './types.ts'
import { STAMP_HEADROOM, TermAtATimeScratch } from './term-at-a-time.ts'

const MAX = 0x7fffffff

describe('TermAtATimeScratch stamps', () => {
  it('start again only as a search begins, and never past the Int32 limit', () => {
    const scratch = new TermAtATimeScratch(4)
    scratch.setStampForTest(MAX - STAMP_HEADROOM)
    scratch.beginSearch() // enough room left: no wrap
    expect(scratch.nextStamp()).toBe(MAX - STAMP_HEADROOM + 1)
    scratch.beginSearch() // now fewer than STAMP_HEADROOM left
    expect(scratch.nextStamp()).toBe(1)
    scratch.setStampForTest(MAX)
    expect(() => scratch.nextStamp()).toThrowError(expect.objectContaining({ code: 'INTERNAL' }))
  })
})

let reader: IndexReader

beforeAll(async () => {
  const words = ['cell', 'line', 'study', 'studies', 'student', 'tumour', 'growth', 'mouse', 'model', 'protein']
  const articles = Array.from({ length: 1500 }, (_, i) => ({
    ...emptyArticle(String(i + 1), 'pubmed'),
    title: `${words[i % 10]} ${words[(i * 3) % 7]} ${words[(i * 7) % 9]}`,
    abstract: [{ text: Array.from({ length: 12 }, (_, j) => words[(i + j * j) % 10]).join(' ') }],
  }))
  reader = await suiteIndex(articles, { fields: defaultPubmedFields({ analyzer: 'biomedical' }) })
})

function scratchOf(searcher: FirstStageRanker): TermAtATimeScratch {
  const scratch = (searcher as unknown as { scratch: TermAtATimeScratch | null | undefined }).scratch
  if (scratch === null || scratch === undefined) {
    throw new Error('the searcher has no term-at-a-time scratch yet')
  }
  return scratch
}

describe('a search near the stamp limit', () => {
  const cases = [
    { query: 'cell line study tumour growth mouse', match: 'any', strategy: 'termAtATime' },
    { query: 'stud* cell protein', match: 'any', strategy: 'termAtATime' }, // a truncated word: its own stamps
    { query: 'cell study protein', match: 'all', strategy: 'intersection' },
  ] as const

  for (const { query, match, strategy } of cases) {
    it(`ranks "${query}" (${match}) exactly as from a fresh start, whatever the stamp count`, () => {
      const options = { match, limit: 500, defaultFields: ['title', 'abstract'] }
      const expected = createSearcher(reader).search(query, options)
      expect(expected.stats.strategy).toBe(strategy)
      expect(expected.hits.length).toBeGreaterThan(20)
      const starts = [
        ...Array.from({ length: 11 }, (_, k) => MAX - STAMP_HEADROOM - 5 + k),
        ...Array.from({ length: 40 }, (_, k) => MAX - 40 + k),
      ]
      for (const start of starts) {
        // a fresh searcher each time: its arrays hold only the small stamps of its first search, so
        // none can equal the stamps taken from `start` on (setting the count back would reuse some)
        const searcher = createSearcher(reader)
        searcher.search(query, options) // makes the scratch arrays, stamped
        scratchOf(searcher).setStampForTest(start)
        const got = searcher.search(query, options)
        expect(got.total).toBe(expected.total)
        expect(got.hits.map((hit) => [hit.id, hit.score])).toEqual(expected.hits.map((hit) => [hit.id, hit.score]))
      }
    })
  }
})
