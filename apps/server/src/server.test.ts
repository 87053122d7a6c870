/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- response bodies are JSON (any); the contract test below checks every one against its schema */
/**
 * The server on the bundled sample (`@pubmatch/sample-data`): every route through `inject` (and a
 * listening server where sockets matter), with Best Match models trained on the sample for
 * reranking, explanations, deadlines and hot swaps, and every answer checked against
 * `/openapi.json`. The real data set adds NFCorpus cases in `real-data.test.ts`.
 */
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFulltext, openSearch, sectionModelFile, updateFulltext, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { saveSectionModel, trainSectionModel } from '@pubmatch/fulltext'
import { createEntrezClient } from '@pubmatch/ingest'
import { citationTextSearchResponder, createInstantClock, loadCitationStore, startReplayServer, type ReplayServer } from '@pubmatch/ingest/testing'
import { BEST_MATCH_SCHEMA, createLogStore, labelQueries, type LabelledQuery } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import { createContract } from '../test/contract.ts'
import { ingest, meshHeadingQueries, sampleIndex, trainModel } from '../test/fixtures.ts'
import { createServer } from './server.ts'

/** Every answer the tests saw, checked against /openapi.json at the end. */
const contract = createContract()
const { call } = contract

/** NLM's 2006 MEDLINE sample (88 citations) with sampled MeSH descriptors. */
const MEDLINE_SAMPLE = [samplePath('pubmed', 'medsamp2006.xml'), samplePath('mesh', 'desc-samples.xml')]
/** Both MEDLINE samples (692 citations) with the MeSH descriptors: the models' corpus. */
const MODEL_SAMPLE = [samplePath('pubmed', 'medline16n0902.xml.gz'), ...MEDLINE_SAMPLE]

describe('pubmatch server on the bundled MEDLINE sample', () => {
  let dir: string
  let engine: SearchEngine
  let app: FastifyInstance
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-pubmed-'))
    engine = await openSearch({ index: await sampleIndex(dir, MEDLINE_SAMPLE) })
    app = await createServer({ engine, logDir: join(dir, 'log'), rateLimit: false })
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('searches with PubMed syntax and pages through the ranking with highlighted titles and snippets', async () => {
    const page1 = (await call(app, 'GET', '/search?q=cell%20OR%20patients&size=5', '/search')).json()
    const page2 = (await call(app, 'GET', '/search?q=cell%20OR%20patients&size=5&page=2', '/search')).json()
    expect(page1.total).toBe(31)
    expect(page2.results.map((r: { rank: number }) => r.rank)).toEqual([6, 7, 8, 9, 10])
    const direct = engine.search('cell OR patients', { offset: 5, limit: 5 })
    expect(page2.results.map((r: { pmid: string }) => r.pmid)).toEqual(direct.hits.map((h) => h.id))
    const withMatches = page1.results.find((r: { snippet: { matches: unknown[] } }) => r.snippet.matches.length > 0)
    const [start, end] = withMatches.snippet.matches[0]
    expect(withMatches.snippet.text.slice(start, end).toLowerCase()).toMatch(/^(cell|patient)/)
    expect(page1).toMatchObject({ page: 1, size: 5, sort: 'relevance', reranked: false, generation: engine.generation })
    expect(page1.model).toBeUndefined()
  })

  it('shows the article a citation query names first, with what matched (citationMatch); citation=false turns it off', async () => {
    // medsamp2006: PMID 10540283 is Saunders NF et al., Mol Microbiol 1999;34(1):24-36
    const cited = (await call(app, 'GET', `/search?q=${encodeURIComponent('Mol Microbiol 1999;34(1):24-36')}`, '/search')).json()
    expect(cited.citationMatch).toEqual({
      pmid: '10540283',
      form: 'citation',
      matched: { journal: 'mol microbiol', year: '1999', volume: '34', issue: '1', page: '24-36' },
    })
    expect(cited.results[0]).toMatchObject({ pmid: '10540283', rank: 1 })
    const off = (await call(app, 'GET', `/search?q=${encodeURIComponent('Mol Microbiol 1999;34(1):24-36')}&citation=false`, '/search')).json()
    expect(off.citationMatch).toBeUndefined()
    expect(off.results.some((r: { pmid: string }) => r.pmid === '10540283')).toBe(false)
  })

  it('answers the translation of automatic term mapping as searchDetails when the engine maps terms', async () => {
    // desc-samples.xml: "Homo sapiens" is an entry term of D006801 Humans
    const mapping = await createServer({ engine: await openSearch({ index: engine.indexDir, ranking: { termMapping: true } }), logDir: join(dir, 'log-atm'), rateLimit: false })
    try {
      const body = (await call(mapping, 'GET', '/search?q=homo%20sapiens', '/search')).json()
      expect(body.searchDetails).toEqual({ query: '"Humans"[mh] OR Humans OR homo sapiens', mappings: [{ text: 'homo sapiens', kind: 'mesh', to: ['Humans'] }] })
      expect(body.total).toBe(engine.search('"Humans"[mh] OR Humans OR homo sapiens').total)
      expect((await call(app, 'GET', '/search?q=homo%20sapiens', '/search')).json().searchDetails).toBeUndefined()
    } finally {
      await mapping.close()
    }
  })

  it('filters by year (one year, ranges, open ends), publication type and language, and sorts by date', async () => {
    const all = (await call(app, 'GET', '/search?q=cell&size=100', '/search')).json()
    const reviews = (await call(app, 'GET', '/search?q=cell&size=100&pt=Review', '/search')).json()
    expect(reviews.total).toBeLessThan(all.total)
    expect(reviews.results.every((r: { pubTypes: string[] }) => r.pubTypes.includes('Review'))).toBe(true)
    const years = all.results.map((r: { year?: number }) => r.year).filter((y: number | undefined) => y !== undefined) as number[]
    const year = all.results[0].year as number
    const count = (test: (y: number) => boolean): number => years.filter(test).length
    const search = async (range: string): Promise<{ total: number; results: Array<{ year: number }> }> =>
      (await call(app, 'GET', `/search?q=cell&size=100&year=${range}`, '/search')).json()
    const sameYear = await search(String(year))
    expect(sameYear.results.every((r) => r.year === year)).toBe(true)
    expect(sameYear.total).toBe(count((y) => y === year))
    expect((await search(`${year}:`)).total).toBe(count((y) => y >= year))
    expect((await search(`:${year}`)).total).toBe(count((y) => y <= year))
    expect((await search(`${year - 1}:${year + 1}`)).total).toBe(count((y) => y >= year - 1 && y <= year + 1))
    const backwards = await call(app, 'GET', `/search?q=cell&year=${year + 1}:${year}`, '/search')
    expect([backwards.statusCode, backwards.json()]).toEqual([
      400,
      { code: 'INVALID_ARGUMENT', message: `the year range "${year + 1}:${year}" starts after it ends (${year + 1} > ${year})` },
    ])
    const english = (await call(app, 'GET', '/search?q=cell&size=100&lang=eng', '/search')).json()
    expect(english.total).toBeLessThanOrEqual(all.total)
    const byDate = (await call(app, 'GET', '/search?q=cell&size=100&sort=date', '/search')).json()
    const dates = byDate.results.map((r: { year?: number }) => r.year ?? 0)
    expect(dates).toEqual([...dates].sort((a: number, b: number) => b - a))
  })

  it('explains an article: the BM25F tree of its score', async () => {
    const top = (await call(app, 'GET', '/search?q=cell&size=1', '/search')).json().results[0]
    const explained = (await call(app, 'GET', `/articles/${top.pmid}/explain?q=cell`, '/articles/{pmid}/explain')).json()
    expect(explained).toMatchObject({ pmid: top.pmid, query: 'cell', matches: true, firstStage: { rank: 1 } })
    expect(explained.firstStage.explain.value).toBeCloseTo(top.score, 10)
    expect(explained.secondStage).toBeUndefined()
    const second = (await call(app, 'GET', '/search?q=cell&size=2', '/search')).json().results[1]
    const explainedSecond = (await call(app, 'GET', `/articles/${second.pmid}/explain?q=cell`, '/articles/{pmid}/explain')).json()
    expect(explainedSecond.firstStage.rank).toBe(2)
    const filtered = (await call(app, 'GET', `/articles/${second.pmid}/explain?q=cell&pt=Review`, '/articles/{pmid}/explain')).json()
    expect(filtered.matches).toBe(second.pubTypes.includes('Review'))
    const article = (await call(app, 'GET', `/articles/${top.pmid}`, '/articles/{pmid}')).json()
    expect(article.id).toBe(top.pmid)
  })

  it('answers bad input with 400 and a code, unknown things with 404, a large body with 413, never a stack trace', async () => {
    const cases: Array<[string, number, string]> = [
      ['/search?q=', 400, 'INVALID_ARGUMENT'],
      [`/search?q=${'a'.repeat(12_001)}`, 400, 'INVALID_ARGUMENT'],
      ['/search?q=asthma%20AND%20(child', 400, 'QUERY_SYNTAX'],
      ['/search?q=asthma%20AND%20%233', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&page=1000&size=20', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&size=1000', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&sort=popular', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&year=20x', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&year=2015-2020', 400, 'INVALID_ARGUMENT'],
      ['/articles/1', 404, 'NOT_FOUND'],
      ['/articles/1/explain?q=cell', 404, 'NOT_FOUND'],
      ['/nothing/here', 404, 'NOT_FOUND'],
    ]
    for (const [url, status, code] of cases) {
      const route = url.startsWith('/search')
        ? '/search'
        : url.startsWith('/articles/1/')
          ? '/articles/{pmid}/explain'
          : url.startsWith('/articles')
            ? '/articles/{pmid}'
            : ''
      const response = route === '' ? await app.inject({ method: 'GET', url }) : await call(app, 'GET', url, route)
      expect([url, response.statusCode, response.json().code]).toEqual([url, status, code])
      expect(response.body).not.toMatch(/\n\s+at /)
    }
    const big = await call(app, 'POST', '/events', '/events', {
      type: 'click',
      session: 'abcdefgh12',
      search: 'x',
      pmid: '1',
      position: 1,
      pad: 'x'.repeat(70_000),
    })
    expect([big.statusCode, big.json()]).toEqual([413, { code: 'PAYLOAD_TOO_LARGE', message: 'the request body is larger than 64 KiB' }])
  })

  it('says what is wrong with a malformed query first, not which package found it', async () => {
    const unclosed = (await call(app, 'GET', '/search?q=asthma%20AND%20(child', '/search')).json()
    expect(unclosed.code).toBe('QUERY_SYNTAX')
    expect(unclosed.message).toMatch(/^"\(" is never closed with "\)" at position 11\n/)
    const history = (await call(app, 'GET', '/search?q=asthma%20AND%20%233', '/search')).json()
    expect(history.code).toBe('INVALID_ARGUMENT')
    expect(history.message).toMatch(/^#3 refers to the search history/)
    for (const message of [unclosed.message, history.message] as string[]) {
      expect(message).not.toMatch(/^(@pubmatch\/)?(core|ingest|analysis|index|bm25f|ltr|engine|feedback|fulltext|solr|server)\b/)
    }
  })

  it('answers a tag PubMed does not have, or one the index has no data for, with hits and warnings in the JSON', async () => {
    const unknown = await call(app, 'GET', '/search?q=asthma[nonsense]', '/search')
    expect(unknown.statusCode).toBe(200)
    const body = unknown.json()
    expect(body.total).toBe((await call(app, 'GET', '/search?q=asthma', '/search')).json().total)
    expect(body.warnings).toEqual([
      { code: 'QUERY_SYNTAX', message: 'unknown field tag [nonsense] was ignored: the term is searched in all fields, as PubMed does' },
    ])
    const notIndexed = (await call(app, 'GET', '/search?q=asthma%20AND%20anticoagulants[pa]', '/search')).json()
    expect(notIndexed.total).toBe(0)
    expect(notIndexed.warnings.map((w: { code: string }) => w.code)).toEqual(['FIELD_NOT_INDEXED'])
  })

  it('logs shown searches and clicks in the format `pubmatch clicks labels` reads', async () => {
    const session = 'sessionAAAA1'
    const shown = (await call(app, 'GET', `/search?q=cell&size=10&session=${session}`, '/search')).json()
    expect(shown.searchId).toMatch(/^[0-9a-f-]{36}$/)
    const clicked = shown.results[2]
    const click = await call(app, 'POST', '/events', '/events', { type: 'click', session, search: shown.searchId, pmid: clicked.pmid, position: clicked.rank })
    expect(click.statusCode).toBe(202)
    const fulltext = await call(app, 'POST', '/events', '/events', {
      type: 'fulltext',
      session,
      search: shown.searchId,
      pmid: clicked.pmid,
      position: clicked.rank,
    })
    expect(fulltext.statusCode).toBe(202)
    const bad = await call(app, 'POST', '/events', '/events', { type: 'click', session: 'short', search: shown.searchId, pmid: '1', position: 0 })
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    const page = {
      type: 'search',
      session,
      search: 'client-search-1',
      query: 'cell',
      filters: ['pt:Review'],
      total: 2,
      results: [{ position: 1, pmid: clicked.pmid }],
    }
    expect((await call(app, 'POST', '/events', '/events', page)).statusCode).toBe(202)
    const { events, problems } = await createLogStore(join(dir, 'log')).readAll()
    expect(problems).toEqual([])
    const search = events.find((e) => e.type === 'search' && e.id === shown.searchId)
    expect(search).toMatchObject({ session, query: 'cell', total: shown.total, filters: [] })
    expect(events.find((e) => e.type === 'search' && e.id === 'client-search-1')).toMatchObject({
      session,
      query: 'cell',
      filters: ['pt:Review'],
      total: 2,
      results: [{ position: 1, id: clicked.pmid }],
    })
    expect(events.filter((e) => e.type === 'action').map((e) => (e.type === 'action' ? [e.kind, e.id, e.position, e.search] : []))).toEqual([
      ['abstract_click', clicked.pmid, clicked.rank, shown.searchId],
      ['fulltext_request', clicked.pmid, clicked.rank, shown.searchId],
    ])
    // the labelling pipeline takes it as it is
    const labelled = labelQueries(events, { minResults: 1, minOccurrences: 1, minClickedDocuments: 1 })
    expect(labelled.queries.map((q) => q.text)).toEqual(['cell'])
    expect(labelled.queries[0]!.judgements.get(clicked.pmid)).toBeGreaterThan(0)
    // no address anywhere in the log
    expect(JSON.stringify(events)).not.toMatch(/127\.0\.0\.1|remoteAddress|"ip"/)
  })

  it('answers /events with 404 when it keeps no search log', async () => {
    const unlogged = await createServer({ engine, rateLimit: false })
    try {
      const response = await call(unlogged, 'POST', '/events', '/events', { type: 'click', session: 'abcdefgh12', search: 'x', pmid: '1', position: 1 })
      expect([response.statusCode, response.json().code]).toEqual([404, 'NOT_FOUND'])
    } finally {
      await unlogged.close()
    }
  })

  it('reports health and Prometheus metrics by route', async () => {
    const health = (await call(app, 'GET', '/health', '/health')).json()
    expect(health).toMatchObject({ status: 'ok', documents: 88, generation: engine.generation, firstStage: 'bm25f over pubmed fields, biomedical analyzer' })
    const metrics = await call(app, 'GET', '/metrics', '/metrics')
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/)
    expect(metrics.body).toMatch(/pubmatch_http_requests_total\{route="\/search",method="GET",status="200"\} \d+/)
    expect(metrics.body).toMatch(/pubmatch_http_requests_total\{route="\/search",method="GET",status="400"\} \d+/)
    expect(metrics.body).toMatch(/pubmatch_http_request_duration_seconds_bucket\{le="0.05",route="\/search",method="GET"\} \d+/)
    expect(metrics.body).toMatch(new RegExp(`pubmatch_index_generation ${engine.generation}\n`))
    expect(metrics.body).toMatch(/pubmatch_index_documents 88\n/)
    expect(metrics.body).toMatch(/pubmatch_model_info\{model=""\} 1\n/)
    expect(metrics.body).toMatch(/pubmatch_process_resident_memory_bytes \d+/)
  })

  it('limits each client to its request rate with 429', async () => {
    const limited = await createServer({ engine, rateLimit: 3 })
    try {
      const statuses = []
      for (let i = 0; i < 5; i++) {
        const response = await call(limited, 'GET', '/health', '/health')
        statuses.push(response.statusCode)
        if (response.statusCode === 429) {
          expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' })
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
    } finally {
      await limited.close()
    }
  })

  it('serves the web page', async () => {
    const page = await app.inject({ method: 'GET', url: '/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe('pubmatch server with Best Match models trained on the sample: reranking, deadlines, hot swaps', () => {
  const token = 'test-admin-token-0123456789'
  const admin = { authorization: `Bearer ${token}` }
  let dir: string
  let index: string
  let engine: SearchEngine
  let engineB: SearchEngine
  let app: FastifyInstance
  /** The fixture queries (MeSH headings of the sample); model A learnt the even ones, model B the odd ones. */
  let queries: LabelledQuery[]
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-models-'))
    index = await sampleIndex(dir, MODEL_SAMPLE)
    queries = await meshHeadingQueries(join(dir, 'corpus'))
    const base = await openSearch({ index })
    await trainModel(
      base,
      queries.filter((_, i) => i % 2 === 0),
      join(dir, 'model-a'),
    )
    await trainModel(
      base,
      queries.filter((_, i) => i % 2 === 1),
      join(dir, 'model-b'),
    )
    engine = await openSearch({ index, model: join(dir, 'model-a') })
    engineB = await openSearch({ index, model: join(dir, 'model-b') })
    app = await createServer({ engine, adminToken: token, rateLimit: false, logDir: join(dir, 'log') })
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("reranks by default and explains the model's score feature by feature", async () => {
    const result = (await call(app, 'GET', '/search?q=breast%20cancer&size=3&explain=true', '/search')).json()
    expect(result.reranked).toBe(true)
    expect(result.model).toBe(engine.model!.id)
    const top = result.results[0]
    expect(top.secondStage.contributions.length).toBeGreaterThan(0)
    const explained = (await call(app, 'GET', `/articles/${top.pmid}/explain?q=breast%20cancer`, '/articles/{pmid}/explain')).json()
    expect(explained.secondStage.rank).toBe(1)
    expect(explained.secondStage.score).toBe(top.score)
    // Saabas attribution: the bias and the contributions add up to the score
    const sum = explained.secondStage.bias + explained.secondStage.contributions.reduce((t: number, c: { contribution: number }) => t + c.contribution, 0)
    expect(sum).toBeCloseTo(explained.secondStage.score, 9)
    // each contribution is named after its feature in the Best Match registry
    const names = new Map(BEST_MATCH_SCHEMA.features.map((feature) => [feature.id, feature.name]))
    for (const { feature, name } of explained.secondStage.contributions as Array<{ feature: string; name: string }>) {
      expect([feature, name]).toEqual([feature, names.get(feature)])
    }
    const firstOnly = (await call(app, 'GET', '/search?q=breast%20cancer&size=3&rerank=false', '/search')).json()
    expect(firstOnly.reranked).toBe(false)
    // a query unlike the model's training queries keeps its first-stage order, and says why
    const broad = (await call(app, 'GET', '/search?q=patients&size=3', '/search')).json()
    expect(broad).toMatchObject({ reranked: false, fallback: { feature: 'F176' } })
  })

  it('stops a request past its deadline with 503 and Retry-After', async () => {
    // timeoutMs 0: a request's deadline is the moment it arrives, so the engine's check before the
    // model (now > deadline) stops it whatever the machine's speed
    const late = await createServer({ engine, timeoutMs: 0, rateLimit: false })
    try {
      const response = await call(late, 'GET', '/search?q=breast%20cancer', '/search')
      expect([response.statusCode, response.json()]).toEqual([503, { code: 'TIMEOUT', message: 'the search ran past its deadline' }])
      expect(response.headers['retry-after']).toBe('1')
    } finally {
      await late.close()
    }
  })

  it('keeps the admin routes behind the token, and a failed reload leaves the engine in place', async () => {
    const off = await createServer({ engine, rateLimit: false })
    try {
      expect((await off.inject({ method: 'POST', url: '/admin/reload', payload: {} })).statusCode).toBe(404)
    } finally {
      await off.close()
    }
    const denied = await call(app, 'POST', '/admin/reload', '/admin/reload', {}, { authorization: 'Bearer wrong' })
    expect([denied.statusCode, denied.json().code]).toEqual([401, 'UNAUTHORIZED'])
    const missing = await call(app, 'POST', '/admin/reload', '/admin/reload', {}, {})
    expect([missing.statusCode, missing.json().code]).toEqual([401, 'UNAUTHORIZED'])
    const unknown = await call(app, 'POST', '/admin/reload', '/admin/reload', { modle: 'x' }, admin)
    expect([unknown.statusCode, unknown.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    const bad = await call(app, 'POST', '/admin/reload', '/admin/reload', { model: join(dir, 'no-such-model') }, admin)
    expect([bad.statusCode, bad.json().code]).toEqual([404, 'NOT_FOUND'])
    expect((await call(app, 'GET', '/health', '/health')).json().model).toBe(engine.model!.id)
    expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/pubmatch_swaps_total 0\n/)
  })

  it('answers an admin reload that lasts longer than the idle timeout of its connection', async () => {
    // timeoutMs 1000: the server cuts off a connection silent for 4 s (the reload route lifts that
    // for its own connection as it starts). The reload lasts until the server has cut off a
    // connection opened after the reload request arrived, so the reload's own connection has been
    // silent longer than that when it is answered.
    let port = 0
    const slowReload = await createServer({
      engine,
      rateLimit: false,
      timeoutMs: 1000,
      adminToken: token,
      openEngine: async (_request, current) => {
        const idle = connect(port, '127.0.0.1')
        idle.on('error', () => undefined)
        await once(idle, 'close')
        return current
      },
    })
    try {
      const url = await slowReload.listen({ host: '127.0.0.1', port: 0 })
      port = Number(new URL(url).port)
      const response = await fetch(`${url}/admin/reload`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(200)
      expect(((await response.json()) as { status: string }).status).toBe('ok')
    } finally {
      await slowReload.close()
    }
  })

  it('serves /search from worker threads with the same answers, and a reload swaps the workers too', async () => {
    const pooled = await createServer({ engine, adminToken: token, rateLimit: false, searchWorkers: 2 })
    try {
      const urls = ['/search?q=breast%20cancer&size=5&explain=true', '/search?q=cell&size=10&page=2', '/search?q=zzzyzzy', '/search?q=cancer&prf=true&size=5']
      for (const url of urls) {
        const { tookMs: _a, ...fromWorkers } = (await call(pooled, 'GET', url, '/search')).json()
        const { tookMs: _b, ...fromThread } = (await app.inject({ method: 'GET', url })).json()
        expect(fromWorkers).toEqual(fromThread)
      }
      const beyond = await call(pooled, 'GET', '/search?q=cell&size=100&page=101', '/search')
      expect([beyond.statusCode, beyond.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
      const toB = await call(pooled, 'POST', '/admin/reload', '/admin/reload', { model: join(dir, 'model-b') }, admin)
      expect(toB.statusCode).toBe(200)
      expect(toB.json().model).toBe(engineB.model!.id)
      const after = (await pooled.inject({ method: 'GET', url: '/search?q=breast%20cancer&size=10' })).json()
      expect(after.model).toBe(engineB.model!.id)
      expect(after.results.map((r: { pmid: string }) => r.pmid)).toEqual(engineB.search('breast cancer', { limit: 10 }).hits.map((h) => h.id))
    } finally {
      await pooled.close()
    }
  })

  it('swaps the model and the index generation under load with no failed request', async () => {
    // The load is a number of requests, not a time: 4 clients send 45 searches each. Reload k
    // starts once the clients have had 4 × SWAP_AT[k] answers together, and each client waits for
    // it to finish before its request SWAP_AT[k] + OVERLAP, so some requests are in flight during
    // each reload and some are sent after it; SWAP_AT[k] + 4 × OVERLAP < SWAP_AT[k + 1] keeps the
    // reloads apart (a client held at one reload keeps the answers below the next one's start).
    const CLIENTS = 4
    const REQUESTS = 45
    const OVERLAP = 3
    const SWAP_AT = [6, 20, 34]
    const loadDir = join(dir, 'load')
    const loadIndex = await sampleIndex(loadDir, MODEL_SAMPLE)
    const served = await openSearch({ index: loadIndex, model: join(dir, 'model-a') })
    const loaded = await createServer({ engine: served, adminToken: token, rateLimit: false })
    const reload = async (payload: object): Promise<Record<string, unknown>> => {
      const response = await call(loaded, 'POST', '/admin/reload', '/admin/reload', payload, admin)
      expect(response.statusCode).toBe(200)
      return response.json()
    }
    /** The reloads, in order: model B; a new index generation (one more article ingested and indexed); no model. */
    const steps: Array<() => Promise<Record<string, unknown>>> = [
      () => reload({ model: join(dir, 'model-b') }),
      async () => {
        await ingest(join(loadDir, 'corpus'), [samplePath('pubmed', 'pmid_9500320.xml')])
        await updateIndex({ corpus: join(loadDir, 'corpus'), index: loadIndex })
        return reload({})
      },
      () => reload({ model: null }),
    ]
    const reloads: Array<Promise<Record<string, unknown>>> = []
    /** Settles when reload k has finished, either way (a client waits for it). */
    const finished = SWAP_AT.map(() => {
      let settle!: () => void
      const promise = new Promise<void>((resolve) => (settle = resolve))
      return { promise, settle }
    })
    let answered = 0
    let reloadsStarted = 0
    let reloadsDone = 0
    const startReload = (k: number): void => {
      reloadsStarted++
      const started = steps[k]!()
      reloads.push(started)
      const settle = (): void => {
        reloadsDone++
        finished[k]!.settle()
      }
      started.then(settle, settle)
    }
    const texts = queries.map((q) => q.text).filter((text) => /^[\p{L}\p{N} ,'-]+$/u.test(text))
    interface Answer {
      readonly status: number
      readonly model?: string
      readonly generation?: number
      /** Reloads finished before the request was sent. */
      readonly from: number
      /** Reloads started before it was answered. */
      readonly to: number
    }
    const client = async (c: number): Promise<Answer[]> => {
      const answers: Answer[] = []
      for (let i = 0; i < REQUESTS; i++) {
        const gate = SWAP_AT.findIndex((at) => i === at + OVERLAP)
        if (gate >= 0) {
          await finished[gate]!.promise
        }
        // inject needs no I/O: let a reload's file reads run between requests, as a network would
        await new Promise((resolve) => setImmediate(resolve))
        const from = reloadsDone
        const response = await loaded.inject({ method: 'GET', url: `/search?q=${encodeURIComponent(texts[(c * REQUESTS + i) % texts.length]!)}&size=10` })
        const body = response.statusCode === 200 ? response.json() : {}
        answers.push({ status: response.statusCode, model: body.model, generation: body.generation, from, to: reloadsStarted })
        answered++
        const k = answered % CLIENTS === 0 ? SWAP_AT.indexOf(answered / CLIENTS) : -1
        if (k >= 0) {
          startReload(k)
        }
      }
      return answers
    }
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c))
    let results: Answer[][]
    let metrics: string
    try {
      results = await Promise.all(clients)
      await Promise.allSettled(reloads)
      metrics = (await loaded.inject({ method: 'GET', url: '/metrics' })).body
    } finally {
      // everything the test started ends before its directory goes (a failed client leaves no other waiting at a gate)
      finished.forEach((gate) => gate.settle())
      await Promise.allSettled(clients)
      await Promise.allSettled(reloads)
      await loaded.close()
    }
    const [toB, newIndex, firstOnly] = await Promise.all(reloads)
    expect(toB).toMatchObject({ model: engineB.model!.id, generation: served.generation })
    expect(newIndex).toMatchObject({ model: engineB.model!.id, documents: served.docCount + 1 })
    const generation = newIndex!['generation'] as number
    expect(generation).toBeGreaterThan(served.generation)
    expect(firstOnly).toMatchObject({ generation })
    expect(firstOnly!['model']).toBeUndefined()
    // state k: the engine after k reloads
    const states: Array<[string | undefined, number]> = [
      [engine.model!.id, served.generation],
      [engineB.model!.id, served.generation],
      [engineB.model!.id, generation],
      [undefined, generation],
    ]
    const stateOf = (answer: Answer): number => states.findIndex(([model, g]) => answer.model === model && answer.generation === g)
    const all = results.flat()
    expect(all).toHaveLength(CLIENTS * REQUESTS)
    expect(all.filter((answer) => answer.status !== 200)).toEqual([])
    for (const answer of all) {
      // answered by an engine swapped in before the request was sent or while it was in flight
      expect([answer.from <= stateOf(answer), stateOf(answer) <= answer.to]).toEqual([true, true])
    }
    // each engine answered requests sent after its swap and answered before the next reload started
    expect([...new Set(all.filter((answer) => answer.from === answer.to).map(stateOf))].sort()).toEqual([0, 1, 2, 3])
    // no client went back to an older engine
    for (const answers of results) {
      const order = answers.map(stateOf)
      expect(order).toEqual([...order].sort((a, b) => a - b))
    }
    expect(metrics).toMatch(/pubmatch_swaps_total 3\n/)
    expect(metrics).toMatch(new RegExp(`pubmatch_index_generation ${generation}\n`))
    expect(metrics).toMatch(/pubmatch_model_info\{model=""\} 1\n/)
  })
})

describe('relevance feedback sessions', () => {
  let dir: string
  let engine: SearchEngine
  let replay: ReplayServer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-feedback-'))
    engine = await openSearch({ index: await sampleIndex(dir, [samplePath('pubmed', 'medline16n0902.xml.gz')]) })
    // Entrez, replayed on the loopback from the other sample's real citations
    const citations = await loadCitationStore([samplePath('pubmed', 'medsamp2006.xml')])
    replay = await startReplayServer({ citations, routes: [{ utility: 'esearch', respond: citationTextSearchResponder(citations) }] })
  })
  afterAll(async () => {
    await replay?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('starts a session, takes graded rounds, logs them, and continues it after a restart', async () => {
    const options = { engine, feedbackDir: join(dir, 'sessions'), logDir: join(dir, 'log'), rateLimit: false as const }
    const app = await createServer(options)
    let state: { id: string; total: number; candidates: number; next: Array<{ pmid: string }> }
    let shown: string[]
    let after: { next: Array<{ pmid: string }> }
    try {
      const started = await call(app, 'POST', '/sessions', '/sessions', { q: 'cancer OR tumor', candidates: 200 })
      expect(started.statusCode).toBe(201)
      state = started.json()
      expect(state).toMatchObject({ mode: 'local', round: 0, shown: 0 })
      expect(state.next).toHaveLength(10)
      expect(state.candidates).toBe(Math.min(200, state.total))
      shown = state.next.map((d) => d.pmid)
      const grades = { [shown[0]!]: 'highly-relevant', [shown[1]!]: 'relevant', [shown[2]!]: 'non-relevant' }
      after = (await call(app, 'POST', `/sessions/${state.id}/grades`, '/sessions/{id}/grades', { shown, grades, session: 'clientSession1' })).json()
      expect(after).toMatchObject({ round: 1, shown: 10 })
      expect(after.next.filter((d) => shown.includes(d.pmid))).toEqual([])
      const notShown = await call(app, 'POST', `/sessions/${state.id}/grades`, '/sessions/{id}/grades', {
        shown: [after.next[0]!.pmid],
        grades: { [shown[0]!]: 'relevant' },
      })
      expect([notShown.statusCode, notShown.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
      const unknown = await call(app, 'GET', '/sessions/nosuchsession1/next', '/sessions/{id}/next')
      expect(unknown.statusCode).toBe(404)
    } finally {
      await app.close()
    }
    // the graded round is in the search log: a shown search and three actions (2 clicks, 1 full text)
    const { events } = await createLogStore(join(dir, 'log')).readAll()
    expect(events.find((e) => e.type === 'search')).toMatchObject({
      id: `feedback-${state.id}-1`,
      session: 'clientSession1',
      query: 'cancer OR tumor',
      filters: ['feedback'],
      total: state.candidates,
      results: shown.map((id, i) => ({ position: i + 1, id })),
    })
    expect(events.filter((e) => e.type === 'action').map((e) => (e.type === 'action' ? [e.id, e.kind, e.position] : []))).toEqual([
      [shown[0], 'abstract_click', 1],
      [shown[0], 'fulltext_request', 1],
      [shown[1], 'abstract_click', 2],
    ])
    // a new server on the same session log continues where the old one stopped
    const again = await createServer(options)
    try {
      const resumed = (await call(again, 'GET', `/sessions/${state.id}/next`, '/sessions/{id}/next')).json()
      expect(resumed.round).toBe(1)
      expect(resumed.next.map((d: { pmid: string }) => d.pmid)).toEqual(after.next.map((d) => d.pmid))
    } finally {
      await again.close()
    }
  })

  it('highlights the next documents for the session query, as a search does', async () => {
    const app = await createServer({ engine, feedbackDir: join(dir, 'sessions-highlights'), rateLimit: false })
    try {
      const state = (await call(app, 'POST', '/sessions', '/sessions', { q: 'cancer', candidates: 50 })).json()
      const first = state.next[0]
      const direct = engine.highlights(engine.document(first.pmid)!, 'cancer')
      expect({ title: first.title, snippet: first.snippet }).toEqual(direct)
      expect(state.next.some((d: { title: { matches: unknown[] } }) => d.title.matches.length > 0)).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('runs a metasearch session through Entrez (a loopback replay of real citations)', async () => {
    const app = await createServer({
      engine,
      feedbackDir: join(dir, 'sessions-meta'),
      rateLimit: false,
      entrez: createEntrezClient({ baseUrl: replay.url, clock: createInstantClock() }),
    })
    const refused = await createServer({ engine, feedbackDir: join(dir, 'sessions-none'), rateLimit: false })
    const none = await createServer({ engine, rateLimit: false })
    try {
      const started = await call(app, 'POST', '/sessions', '/sessions', { q: 'cancer cells', mode: 'metasearch' })
      expect(started.statusCode).toBe(201)
      const state = started.json()
      expect(state.mode).toBe('metasearch')
      expect(state.metasearch.remoteQuery).toBe('cancer OR cells')
      expect(state.next.length).toBeGreaterThan(0)
      expect(state.next[0].title.text.length).toBeGreaterThan(0)
      const noEntrez = await call(refused, 'POST', '/sessions', '/sessions', { q: 'cancer', mode: 'metasearch' })
      expect([noEntrez.statusCode, noEntrez.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
      const noSessions = await call(none, 'POST', '/sessions', '/sessions', { q: 'cancer' })
      expect([noSessions.statusCode, noSessions.json().code]).toEqual([404, 'NOT_FOUND'])
    } finally {
      await Promise.all([app.close(), refused.close(), none.close()])
    }
  })
})

describe('full-text search by section (fulltext=)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-fulltext-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('ranks PMC full texts with each strategy, and asks for a section model for the log-odds ones', async () => {
    const bioc = ['PMC10142442.json', 'PMC10370681.json', 'PMC10719374.json', 'PMC11233762.json', 'PMC11500582.json'].map((file) => samplePath('bioc', file))
    const index = await sampleIndex(dir, [samplePath('pubmed', 'pmid_9500320.xml'), ...bioc])
    await updateFulltext({ index })
    const engine = await openSearch({ index })
    let app = await createServer({ engine, rateLimit: false })
    try {
      const merged = await call(app, 'GET', '/search?q=spaceflight%20muscle&fulltext=merged&size=3', '/search')
      expect(merged.statusCode).toBe(200)
      expect(merged.json()).toMatchObject({ fulltext: 'merged', reranked: false, page: 1, size: 3 })
      expect(merged.json().results.length).toBeGreaterThan(0)
      const noModel = await call(app, 'GET', '/search?q=gravity&fulltext=sum-logodds', '/search')
      expect([noModel.statusCode, noModel.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    } finally {
      await app.close()
    }
    // a section model from known items (each article's title finds it), then Sum LogOdds answers
    const fulltext = await openFulltext(engine)
    const model = trainSectionModel(
      fulltext.index,
      Array.from({ length: fulltext.index.size }, (_, doc) => ({
        text: fulltext.index.articles.stored(doc).title,
        relevant: new Set([fulltext.index.articles.externalId(doc)]),
      })),
    )
    await saveSectionModel(sectionModelFile(index), model, { queries: 'titles' })
    app = await createServer({ engine: await openSearch({ index }), rateLimit: false })
    try {
      const sum = await call(app, 'GET', '/search?q=gravity%20mice&fulltext=sum-logodds&size=3', '/search')
      expect(sum.statusCode).toBe(200)
      expect(sum.json().results.length).toBeGreaterThan(0)
      expect(sum.json().results[0].score).toBeTypeOf('number')
    } finally {
      await app.close()
    }
  })
})

describe('the OpenAPI document', () => {
  it('describes every route, and every answer the tests saw matches its schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'server-openapi-'))
    let doc
    try {
      const app = await createServer({
        engine: await openSearch({ index: await sampleIndex(dir, [samplePath('pubmed', 'pmid_9500320.xml')]) }),
        adminToken: 'x'.repeat(20),
        rateLimit: false,
        feedbackDir: join(dir, 'sessions'),
      })
      try {
        doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
      } finally {
        await app.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    expect(doc.openapi).toBe('3.0.3')
    expect(Object.keys(doc.paths)).toEqual([
      '/search',
      '/articles/{pmid}',
      '/articles/{pmid}/explain',
      '/events',
      '/health',
      '/metrics',
      '/admin/reload',
      '/sessions',
      '/sessions/{id}/next',
      '/sessions/{id}/grades',
      '/screen/projects',
      '/screen/projects/{name}/next',
      '/screen/projects/{name}/decisions',
      '/screen/projects/{name}/status',
      '/screen/projects/{name}/export',
    ])
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(['search', 'events', 'feedback', 'screen', 'operations'])
    expect(doc.paths['/search'].get.parameters.find((p: { name: string }) => p.name === 'year').schema.pattern).toBe('^(\\d{4}|\\d{4}:\\d{4}|\\d{4}:|:\\d{4})$')
    expect(contract.seen.length).toBeGreaterThan(60)
    const statuses = new Set(contract.seen.map((s) => s.status))
    expect([...statuses].sort()).toEqual([200, 201, 202, 400, 401, 404, 413, 429, 503])
    contract.check(doc)
  })
})
