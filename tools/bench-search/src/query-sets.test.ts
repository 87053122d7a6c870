import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearcher } from '@pubmatch/bm25f'
import { emptyArticle, type Article } from '@pubmatch/core'
import { sharedDataDir } from '@pubmatch/core/testing'
import { buildIndex, defaultPubmedFields, openIndex } from '@pubmatch/index'
import { queryTerms } from '@pubmatch/synth'
import { describe, expect, it } from 'vitest'
import {
  bagOfWords,
  loadQuerySet,
  logQuerySample,
  searchOptions,
  anchorStopwords,
  type SearchCell,
} from './query-sets.ts'

/** The real data set (only in suites tagged `real-data`). */
const SHARED = sharedDataDir()

describe('logQuerySample', () => {
  it('draws distinct 1–5-term real log queries, the warm-up ones first', () => {
    const { measured, warmup } = logQuerySample({ measured: 500, warmup: 100 })
    expect(measured).toHaveLength(500)
    expect(warmup).toHaveLength(100)
    const ids = new Set([...measured, ...warmup].map((q) => q.id))
    expect(ids.size).toBe(600)
    for (const q of [...measured, ...warmup]) {
      expect(q.id).toMatch(/^qid\d+$/)
      const terms = queryTerms(q.text).length
      expect(terms).toBeGreaterThanOrEqual(1)
      expect(terms).toBeLessThanOrEqual(5)
    }
  })

  it('is the same sample on every call', () => {
    expect(logQuerySample({ measured: 5, warmup: 2 })).toEqual(
      logQuerySample({ measured: 5, warmup: 2 }),
    )
  })
})

describe('bagOfWords', () => {
  it('keeps the content words of real PubMed log queries', () => {
    expect(bagOfWords('"Rabbani F"[Author] AND asthma')).toBe('rabbani f asthma')
    expect(bagOfWords('neuhausen AND garner AND ding')).toBe('neuhausen garner ding')
    expect(bagOfWords('ultrasound and chronic pancreatitis')).toBe(
      'ultrasound chronic pancreatitis',
    )
  })
})

describe('loadQuerySet (real queries)', { tags: ['real-data'] }, () => {
  it('measures the 325 NFCorpus dev title queries and warms up with train ones', async () => {
    const set = await loadQuerySet('nfcorpus-dev', SHARED, { measured: 500, warmup: 100 })
    expect(set.measured).toHaveLength(325)
    expect(set.measured[0]).toEqual({
      id: 'PLAIN-1',
      text: 'why deep fried foods may cause cancer',
    })
    expect(set.warmup).toHaveLength(100)
    const dev = new Set(set.measured.map((q) => q.id))
    expect(set.warmup.some((q) => dev.has(q.id))).toBe(false)
  })
})

describe('loadQuerySet (the log sample of the committed synth model)', () => {
  it('reduces the log sample to bags of words for log-bag', async () => {
    const size = { measured: 50, warmup: 10 }
    const typed = await loadQuerySet('log-pubmed', '/the/log/sets/read/no/file', size)
    const bag = await loadQuerySet('log-bag', '/the/log/sets/read/no/file', size)
    expect(bag.measured.map((q) => q.id)).toEqual(typed.measured.map((q) => q.id))
    expect(bag.measured.map((q) => q.text)).toEqual(typed.measured.map((q) => bagOfWords(q.text)))
  })
})

describe('anchorStopwords', () => {
  it('adds the question stop words only for natural-language NFCorpus queries', () => {
    expect(anchorStopwords('nfcorpus-dev')).toEqual(expect.arrayContaining(['the', 'why']))
    expect(anchorStopwords('log-bag')).toContain('the')
    expect(anchorStopwords('log-bag')).not.toContain('why')
  })
})

describe('searchOptions', () => {
  const cell = (set: SearchCell['set']): SearchCell => ({
    set,
    match: 'all',
    limit: 500,
    pruning: true,
  })

  it('keeps PubMed semantics for typed log queries', () => {
    expect(searchOptions(cell('log-pubmed'), 'pubmed')).toEqual({
      match: 'all',
      limit: 500,
      pruning: true,
      syntax: 'pubmed',
      parse: { recover: true },
    })
  })

  it('restricts plain-text sets to title and abstract on a PubMed index only', () => {
    expect(searchOptions(cell('log-bag'), 'pubmed')).toEqual({
      match: 'all',
      limit: 500,
      pruning: true,
      defaultFields: ['title', 'abstract'],
      scoredFields: ['title', 'abstract'],
      syntax: 'plain',
      queryStopwords: false,
      exactTotal: false,
    })
    expect(searchOptions({ ...cell('nfcorpus-dev'), match: 'any' }, 'test-collection')).toEqual({
      match: 'any',
      limit: 500,
      pruning: true,
      syntax: 'plain',
    })
  })

  it('finds a word that is only in the MeSH field with PubMed semantics but not in the Xapian comparison', async () => {
    const article = (id: string, title: string, mesh: string[]): Article => ({
      ...emptyArticle(id, 'pubmed'),
      title,
      abstract: [{ text: 'an abstract about patients' }],
      mesh: mesh.map((descriptorName) => ({ descriptorName, majorTopic: false, qualifiers: [] })),
    })
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-options-'))
    try {
      await buildIndex(
        [
          article('1', 'Aspirin in stroke', ['Neoplasms']),
          article('2', 'Neoplasms of the colon', []),
        ],
        dir,
        { fields: defaultPubmedFields() },
      )
      const searcher = createSearcher(await openIndex(dir))
      const ids = (set: SearchCell['set']): string[] =>
        searcher.search('neoplasms', searchOptions(cell(set), 'pubmed')).hits.map((h) => h.id)
      expect(ids('log-pubmed').sort()).toEqual(['1', '2'])
      expect(ids('log-bag')).toEqual(['2'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
