import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getAnalyzer, PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { createEntrezClient, createResponseCache } from '@pubmatch/ingest'
import {
  citationTextSearchResponder,
  createInstantClock,
  installManualTimeouts,
  loadCitationStore,
  startReplayServer,
  type ManualTimeouts,
  type ReplayServer,
} from '@pubmatch/ingest/testing'
import { samplePath } from '@pubmatch/sample-data'
import { metasearch, remoteQuery } from './metasearch.ts'

const stopwords = new Set(PUBMED_STOPWORDS)

describe('metasearch over Entrez (loopback replay of real MEDLINE citations)', () => {
  let server: ReplayServer
  let cacheDir: string
  /** No request times out (the tests count them), however slow the machine. */
  let timeouts: ManualTimeouts
  beforeAll(async () => {
    const citations = await loadCitationStore([samplePath('pubmed', 'medline16n0902.xml.gz'), samplePath('pubmed', 'medsamp2006.xml')])
    server = await startReplayServer({ citations, routes: [{ utility: 'esearch', respond: citationTextSearchResponder(citations) }] })
    cacheDir = await mkdtemp(join(tmpdir(), 'feedback-entrez-'))
  })
  afterAll(async () => {
    await server?.close()
    await rm(cacheDir, { recursive: true, force: true })
  })
  beforeEach(() => {
    timeouts = installManualTimeouts()
  })
  afterEach(() => {
    timeouts.restore()
  })

  const client = () =>
    createEntrezClient({
      baseUrl: server.url,
      clock: createInstantClock(),
      cache: createResponseCache(cacheDir),
    })

  it('ORs the query words for the remote search, without tags, operators or stop words', () => {
    expect(remoteQuery('"Breast cancer"[tiab] AND the risk of statins', stopwords)).toBe('breast OR cancer OR risk OR statins')
    expect(() => remoteQuery('the AND of', stopwords)).toThrowError(/has no words to search Entrez with/)
  })

  it('searches, fetches what passes the filter, reranks locally, expands the remote query and adds new articles', async () => {
    const result = await metasearch({
      client: client(),
      query: 'cancer cells',
      analyzer: getAnalyzer('biomedical'),
      stopwords,
      keep: 40,
      expansionArticles: 20,
      batchSize: 25,
    })
    expect(result.remoteQuery).toBe('cancer OR cells')
    expect(result.stats.kept).toBe(40)
    expect(result.articles.every((a) => a.title !== '' && a.abstract.length > 0)).toBe(true)
    expect(result.expansionWords.length).toBeGreaterThan(0)
    expect(result.expansionWords.length).toBeLessThanOrEqual(3)
    expect(result.expandedQuery).toBe(`cancer OR cells OR ${result.expansionWords.join(' OR ')}`)
    expect(result.stats.added).toBeGreaterThan(0)
    expect(result.stats.added).toBeLessThanOrEqual(20)
    expect(result.session.candidates.size).toBe(result.stats.kept + result.stats.added)
    expect(new Set(result.articles.map((a) => a.id)).size).toBe(result.articles.length)
    // the session is ranked and ready: its first round shows 10 candidates
    expect(result.session.next().map((d) => d.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    const esearches = server.requests.filter((r) => r.utility === 'esearch')
    expect(esearches.map((r) => r.params['term'])).toEqual(['cancer OR cells', result.expandedQuery])
    expect(esearches.every((r) => r.params['sort'] === 'relevance')).toBe(true)
  })

  it('fetches again from the cache, not the network, for the same session', async () => {
    const before = server.requests.filter((r) => r.utility === 'efetch').length
    await metasearch({ client: client(), query: 'cancer cells', analyzer: getAnalyzer('biomedical'), stopwords, keep: 40, expansionArticles: 20, batchSize: 25 })
    expect(server.requests.filter((r) => r.utility === 'efetch').length).toBe(before)
  })
})
