/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- response bodies are JSON (any); the contract test below checks every one against its schema */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFulltext, openSearch, readLabelledQueries, sectionModelFile, trainModel, updateFulltext, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { saveSectionModel, trainSectionModel } from '@pubmatch/fulltext'
import { createEntrezClient, defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { citationTextSearchResponder, createInstantClock, loadCitationStore, startReplayServer, type ReplayServer } from '@pubmatch/ingest/testing'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { createLogStore, labelQueries, saveBestMatchModel } from '@pubmatch/ltr'
import { createServer } from './server.ts'

const shared = fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

async function ingest(corpus: string, paths: string[]): Promise<void> {
  const store = await openCorpus(corpus, { create: true })
  try {
    await ingestFiles(store, paths, { readers: defaultReaders() })
  } finally {
    await store.close()
  }
}

/** Every answer the tests saw, checked against /openapi.json at the end. */
const seen: Array<{ method: string; route: string; status: number; body: unknown }> = []

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, route: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
  const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), ...(headers === undefined ? {} : { headers }) })
  const type = String(response.headers['content-type'] ?? '')
  seen.push({ method: method.toLowerCase(), route, status: response.statusCode, body: type.startsWith('application/json') ? response.json() : response.body })
  return response
}

describe.runIf(existsSync(shared))('pubmatch server (PubMed sample with MeSH)', () => {
  let dir: string
  let engine: SearchEngine
  let app: FastifyInstance
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-pubmed-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/medsamp2006.xml'), join(shared, 'mesh/desc-samples.xml')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    engine = await openSearch({ index: join(dir, 'index') })
    app = await createServer({ engine, logDir: join(dir, 'log'), rateLimit: false })
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('searches with PubMed syntax and pages through the ranking with highlighted titles and snippets', async () => {
    const page1 = (await call(app, 'GET', '/search?q=cell%20OR%20patients&size=5', '/search')).json()
    const page2 = (await call(app, 'GET', '/search?q=cell%20OR%20patients&size=5&page=2', '/search')).json()
    expect(page1.total).toBeGreaterThan(10)
    expect(page2.results.map((r: { rank: number }) => r.rank)).toEqual([6, 7, 8, 9, 10])
    const direct = engine.search('cell OR patients', { offset: 5, limit: 5 })
    expect(page2.results.map((r: { pmid: string }) => r.pmid)).toEqual(direct.hits.map((h) => h.id))
    const withMatches = page1.results.find((r: { snippet: { matches: unknown[] } }) => r.snippet.matches.length > 0)
    const [start, end] = withMatches.snippet.matches[0]
    expect(withMatches.snippet.text.slice(start, end).toLowerCase()).toMatch(/^(cell|patient)/)
    expect(page1).toMatchObject({ page: 1, size: 5, sort: 'relevance', reranked: false, generation: engine.generation })
  })

  it('filters by year, publication type and language, and sorts by date', async () => {
    const all = (await call(app, 'GET', '/search?q=cell&size=100', '/search')).json()
    const reviews = (await call(app, 'GET', '/search?q=cell&size=100&pt=Review', '/search')).json()
    expect(reviews.total).toBeLessThan(all.total)
    expect(reviews.results.every((r: { pubTypes: string[] }) => r.pubTypes.includes('Review'))).toBe(true)
    const year = all.results[0].year as number
    const sameYear = (await call(app, 'GET', `/search?q=cell&size=100&year=${year}`, '/search')).json()
    expect(sameYear.results.every((r: { year: number }) => r.year === year)).toBe(true)
    const from = (await call(app, 'GET', `/search?q=cell&size=100&year=${year}:`, '/search')).json()
    expect(from.results.every((r: { year: number }) => r.year >= year)).toBe(true)
    const until = (await call(app, 'GET', `/search?q=cell&size=100&year=:${year}`, '/search')).json()
    expect(from.total + until.total - sameYear.total).toBe(all.results.filter((r: { year?: number }) => r.year !== undefined).length)
    const english = (await call(app, 'GET', '/search?q=cell&size=100&lang=eng', '/search')).json()
    expect(english.total).toBeLessThanOrEqual(all.total)
    const byDate = (await call(app, 'GET', '/search?q=cell&size=100&sort=date', '/search')).json()
    const years = byDate.results.map((r: { year?: number }) => r.year ?? 0)
    expect(years).toEqual([...years].sort((a: number, b: number) => b - a))
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

  it('answers bad input with 400 and a code, unknown things with 404, never a stack trace', async () => {
    const cases: Array<[string, number, string]> = [
      ['/search?q=', 400, 'INVALID_ARGUMENT'],
      [`/search?q=${'a'.repeat(12_001)}`, 400, 'INVALID_ARGUMENT'],
      ['/search?q=asthma%20AND%20(child', 400, 'QUERY_SYNTAX'],
      ['/search?q=asthma[nonsense]', 400, 'UNKNOWN_FIELD'],
      ['/search?q=cell&page=1000&size=20', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&size=1000', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&sort=popular', 400, 'INVALID_ARGUMENT'],
      ['/search?q=cell&year=20x', 400, 'INVALID_ARGUMENT'],
      ['/articles/1', 404, 'NOT_FOUND'],
      ['/articles/1/explain?q=cell', 404, 'NOT_FOUND'],
      ['/nothing/here', 404, 'NOT_FOUND'],
    ]
    for (const [url, status, code] of cases) {
      const route = url.startsWith('/search') ? '/search' : url.startsWith('/articles/1/') ? '/articles/{pmid}/explain' : url.startsWith('/articles') ? '/articles/{pmid}' : ''
      const response = route === '' ? await app.inject({ method: 'GET', url }) : await call(app, 'GET', url, route)
      expect([url, response.statusCode, response.json().code]).toEqual([url, status, code])
      expect(response.body).not.toMatch(/\n\s+at /)
    }
    const big = await call(app, 'POST', '/events', '/events', { type: 'click', session: 'abcdefgh12', search: 'x', pmid: '1', position: 1, pad: 'x'.repeat(70_000) })
    expect([big.statusCode, big.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
  })

  it('logs shown searches and clicks in the format `pubmatch clicks labels` reads', async () => {
    const session = 'sessionAAAA1'
    const shown = (await call(app, 'GET', `/search?q=cell&size=10&session=${session}`, '/search')).json()
    expect(shown.searchId).toMatch(/^[0-9a-f-]{36}$/)
    const clicked = shown.results[2]
    const click = await call(app, 'POST', '/events', '/events', { type: 'click', session, search: shown.searchId, pmid: clicked.pmid, position: clicked.rank })
    expect(click.statusCode).toBe(202)
    const fulltext = await call(app, 'POST', '/events', '/events', { type: 'fulltext', session, search: shown.searchId, pmid: clicked.pmid, position: clicked.rank })
    expect(fulltext.statusCode).toBe(202)
    const bad = await call(app, 'POST', '/events', '/events', { type: 'click', session: 'short', search: shown.searchId, pmid: '1', position: 0 })
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    const { events, problems } = await createLogStore(join(dir, 'log')).readAll()
    expect(problems).toEqual([])
    const search = events.find((e) => e.type === 'search' && e.id === shown.searchId)
    expect(search).toMatchObject({ session, query: 'cell', total: shown.total })
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

  it('reports health and Prometheus metrics by route', async () => {
    const health = (await call(app, 'GET', '/health', '/health')).json()
    expect(health).toMatchObject({ status: 'ok', documents: 88, generation: engine.generation })
    const metrics = await call(app, 'GET', '/metrics', '/metrics')
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/)
    expect(metrics.body).toMatch(/pubmatch_http_requests_total\{route="\/search",method="GET",status="200"\} \d+/)
    expect(metrics.body).toMatch(/pubmatch_http_request_duration_seconds_bucket\{le="0.05",route="\/search",method="GET"\} \d+/)
    expect(metrics.body).toMatch(new RegExp(`pubmatch_index_generation ${engine.generation}`))
    expect(metrics.body).toMatch(/pubmatch_process_resident_memory_bytes \d+/)
  })

  it('limits each client to its request rate with 429', async () => {
    const limited = await createServer({ engine, rateLimit: 3 })
    const statuses = []
    for (let i = 0; i < 5; i++) {
      const response = await limited.inject({ method: 'GET', url: '/health' })
      statuses.push(response.statusCode)
      if (response.statusCode === 429) {
        expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' })
        seen.push({ method: 'get', route: '/health', status: 429, body: response.json() })
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    await limited.close()
  })

  it('serves the web page', async () => {
    const page = await app.inject({ method: 'GET', url: '/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe.runIf(existsSync(shared))('pubmatch server with a Best Match model (NFCorpus): explain, timeouts, hot swap', () => {
  let dir: string
  let app: FastifyInstance
  let engine: SearchEngine
  const token = 'test-admin-token-0123456789'
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-nf-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'nfcorpus/corpus.docs')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    const base = await openSearch({ index: join(dir, 'index') })
    const queries = await readLabelledQueries(join(shared, 'nfcorpus/train/q-titles.queries'), join(shared, 'nfcorpus/train/s-3.qrel'))
    const lightgbm = await loadLightGbm()
    for (const [name, slice] of [['model-a', queries.slice(0, 150)], ['model-b', queries.slice(150, 300)]] as const) {
      const trained = await trainModel(base, {
        lightgbm,
        queries: slice,
        depth: 30,
        trees: 15,
        earlyStopping: 10,
      })
      await saveBestMatchModel(join(dir, name), trained)
    }
    await lightgbm.terminate()
    engine = await openSearch({ index: join(dir, 'index'), model: join(dir, 'model-a') })
    app = await createServer({ engine, adminToken: token, rateLimit: false, logDir: join(dir, 'log') })
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("reranks by default and explains the model's score feature by feature", async () => {
    const result = (await call(app, 'GET', '/search?q=vitamin%20d%20and%20breast%20cancer&size=3&explain=true', '/search')).json()
    expect(result.reranked).toBe(true)
    expect(result.model).toBe(engine.model!.id)
    const top = result.results[0]
    expect(top.secondStage.contributions.length).toBeGreaterThan(0)
    const explained = (await call(app, 'GET', `/articles/${top.pmid}/explain?q=vitamin%20d%20and%20breast%20cancer`, '/articles/{pmid}/explain')).json()
    expect(explained.secondStage.rank).toBe(1)
    const sum = explained.secondStage.bias + explained.secondStage.contributions.reduce((t: number, c: { contribution: number }) => t + c.contribution, 0)
    expect(sum).toBeCloseTo(explained.secondStage.score, 9)
    expect(explained.secondStage.contributions.find((c: { feature: string }) => c.feature === 'F143')?.name).toBe('first_stage_score')
    const firstOnly = (await call(app, 'GET', '/search?q=vitamin%20d%20and%20breast%20cancer&size=3&rerank=false', '/search')).json()
    expect(firstOnly.reranked).toBe(false)
  })

  it('cuts off a request that runs past its time with 503 and Retry-After', async () => {
    const slow = await createServer({ engine, timeoutMs: 0, rateLimit: false })
    const response = await slow.inject({ method: 'GET', url: '/search?q=vitamin%20d%20and%20breast%20cancer' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toMatchObject({ code: 'TIMEOUT' })
    expect(response.headers['retry-after']).toBe('1')
    seen.push({ method: 'get', route: '/search', status: 503, body: response.json() })
    await slow.close()
  })

  it('keeps the admin routes behind the token', async () => {
    const off = await createServer({ engine, rateLimit: false })
    expect((await off.inject({ method: 'POST', url: '/admin/reload', payload: {} })).statusCode).toBe(404)
    await off.close()
    const denied = await app.inject({ method: 'POST', url: '/admin/reload', payload: {}, headers: { authorization: 'Bearer wrong' } })
    expect([denied.statusCode, denied.json().code]).toEqual([401, 'UNAUTHORIZED'])
    const bad = await app.inject({ method: 'POST', url: '/admin/reload', payload: { model: join(dir, 'no-such-model') }, headers: { authorization: `Bearer ${token}` } })
    expect([bad.statusCode, bad.json().code]).toEqual([404, 'NOT_FOUND'])
    // the failed reload left the engine in place
    expect((await app.inject({ method: 'GET', url: '/health' })).json().model).toBe(engine.model!.id)
  })

  it('answers an admin reload that takes longer than the idle timeout of its connection', async () => {
    // timeoutMs 50: connections silent for 200 ms are cut off; this reload takes 700 ms
    const slowReload = await createServer({
      engine,
      rateLimit: false,
      timeoutMs: 50,
      adminToken: token,
      openEngine: async (_request, current) => {
        await new Promise((resolve) => setTimeout(resolve, 700))
        return current
      },
    })
    const url = await slowReload.listen({ host: '127.0.0.1', port: 0 })
    try {
      const response = await fetch(`${url}/admin/reload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
      expect(response.status).toBe(200)
      expect(((await response.json()) as { status: string }).status).toBe('ok')
    } finally {
      await slowReload.close()
    }
  })

  it('serves /search from worker threads with the same answers, and a reload swaps the workers too', async () => {
    const pooled = await createServer({ engine, adminToken: token, rateLimit: false, searchWorkers: 2 })
    try {
      const urls = ['/search?q=vitamin%20d%20and%20breast%20cancer&size=5&explain=true', '/search?q=statins&size=10&page=2', '/search?q=zzzyzzy', '/search?q=statins&prf=true&size=5']
      for (const url of urls) {
        const { tookMs: _a, ...fromWorkers } = (await call(pooled, 'GET', url, '/search')).json()
        const { tookMs: _b, ...fromThread } = (await app.inject({ method: 'GET', url })).json()
        expect(fromWorkers).toEqual(fromThread)
      }
      const beyond = await pooled.inject({ method: 'GET', url: '/search?q=statins&size=100&page=101' })
      expect([beyond.statusCode, beyond.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
      const toB = await pooled.inject({ method: 'POST', url: '/admin/reload', payload: { model: join(dir, 'model-b') }, headers: { authorization: `Bearer ${token}` } })
      expect(toB.statusCode).toBe(200)
      const engineB = await openSearch({ index: join(dir, 'index'), model: join(dir, 'model-b') })
      const after = (await pooled.inject({ method: 'GET', url: '/search?q=vitamin%20d%20and%20breast%20cancer&size=10' })).json()
      expect(after.model).toBe(engineB.model!.id)
      expect(after.results.map((r: { pmid: string }) => r.pmid)).toEqual(engineB.search('vitamin d and breast cancer', { limit: 10 }).hits.map((h) => h.id))
    } finally {
      await pooled.close()
    }
  })

  it('swaps the model and the index generation under load with no failed request', async () => {
    const queries = (await readLabelledQueries(join(shared, 'nfcorpus/dev/q-titles.queries'))).map((q) => q.text)
    const statuses = new Map<number, number>()
    const models = new Set<string>()
    let stop = false
    const client = async (offset: number): Promise<void> => {
      for (let i = offset; !stop; i += 4) {
        // inject needs no I/O: let the reloads' file reads run between requests, as a network would
        await new Promise((resolve) => setImmediate(resolve))
        const response = await app.inject({ method: 'GET', url: `/search?q=${encodeURIComponent(queries[i % queries.length]!)}&size=10` })
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
        if (response.statusCode === 200) {
          models.add(response.json().model)
        }
      }
    }
    const clients = [0, 1, 2, 3].map((i) => client(i))
    const admin = { authorization: `Bearer ${token}` }
    const toB = await app.inject({ method: 'POST', url: '/admin/reload', payload: { model: join(dir, 'model-b') }, headers: admin })
    expect(toB.statusCode).toBe(200)
    // a new index generation: one more article ingested and indexed, then reloaded
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/pmid_9500320.xml')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    const newIndex = await app.inject({ method: 'POST', url: '/admin/reload', payload: {}, headers: admin })
    expect(newIndex.statusCode).toBe(200)
    expect(newIndex.json().generation).toBeGreaterThan(engine.generation)
    expect(newIndex.json().documents).toBe(engine.docCount + 1)
    seen.push({ method: 'post', route: '/admin/reload', status: 200, body: newIndex.json() })
    const firstOnly = await app.inject({ method: 'POST', url: '/admin/reload', payload: { model: null }, headers: admin })
    expect(firstOnly.json().model).toBeUndefined()
    stop = true
    await Promise.all(clients)
    expect([...statuses.keys()]).toEqual([200])
    expect(statuses.get(200)).toBeGreaterThan(20)
    expect(models.size).toBeGreaterThanOrEqual(2)
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toMatch(/pubmatch_swaps_total 3/)
  })
})

describe.runIf(existsSync(shared))('relevance feedback sessions', () => {
  let dir: string
  let engine: SearchEngine
  let replay: ReplayServer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-feedback-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/medline16n0902.xml.gz')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    engine = await openSearch({ index: join(dir, 'index') })
    const citations = await loadCitationStore([join(shared, 'pubmed-xml/medsamp2006.xml')])
    replay = await startReplayServer({ citations, routes: [{ utility: 'esearch', respond: citationTextSearchResponder(citations) }] })
  })
  afterAll(async () => {
    await replay?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('starts a session, takes graded rounds, logs them, and continues it after a restart', async () => {
    const options = { engine, feedbackDir: join(dir, 'sessions'), logDir: join(dir, 'log'), rateLimit: false as const }
    const app = await createServer(options)
    const started = await call(app, 'POST', '/sessions', '/sessions', { q: 'cancer OR tumor', candidates: 200 })
    expect(started.statusCode).toBe(201)
    const state = started.json()
    expect(state).toMatchObject({ mode: 'local', round: 0, shown: 0 })
    expect(state.next).toHaveLength(10)
    expect(state.candidates).toBe(Math.min(200, state.total))
    const shown = state.next.map((d: { pmid: string }) => d.pmid)
    const grades = { [shown[0]]: 'highly-relevant', [shown[1]]: 'relevant', [shown[2]]: 'non-relevant' }
    const after = (await call(app, 'POST', `/sessions/${state.id}/grades`, '/sessions/{id}/grades', { shown, grades, session: 'clientSession1' })).json()
    expect(after).toMatchObject({ round: 1, shown: 10 })
    expect(after.next.filter((d: { pmid: string }) => shown.includes(d.pmid))).toEqual([])
    const notShown = await call(app, 'POST', `/sessions/${state.id}/grades`, '/sessions/{id}/grades', { shown: [after.next[0].pmid], grades: { [shown[0]]: 'relevant' } })
    expect([notShown.statusCode, notShown.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    const unknown = await call(app, 'GET', '/sessions/nosuchsession1/next', '/sessions/{id}/next')
    expect(unknown.statusCode).toBe(404)
    await app.close()
    // the graded round is in the search log: a shown search and three actions (2 clicks, 1 full text)
    const { events } = await createLogStore(join(dir, 'log')).readAll()
    expect(events.filter((e) => e.type === 'action').map((e) => (e.type === 'action' ? [e.id, e.kind] : []))).toEqual([
      [shown[0], 'abstract_click'],
      [shown[0], 'fulltext_request'],
      [shown[1], 'abstract_click'],
    ])
    // a new server on the same session log continues where the old one stopped
    const again = await createServer(options)
    const resumed = (await call(again, 'GET', `/sessions/${state.id}/next`, '/sessions/{id}/next')).json()
    expect(resumed.round).toBe(1)
    expect(resumed.next.map((d: { pmid: string }) => d.pmid)).toEqual(after.next.map((d: { pmid: string }) => d.pmid))
    await again.close()
  })

  it('runs a metasearch session through Entrez (a loopback replay of real citations)', async () => {
    const app = await createServer({
      engine,
      feedbackDir: join(dir, 'sessions-meta'),
      rateLimit: false,
      entrez: createEntrezClient({ baseUrl: replay.url, clock: createInstantClock() }),
    })
    const started = await call(app, 'POST', '/sessions', '/sessions', { q: 'cancer cells', mode: 'metasearch' })
    expect(started.statusCode).toBe(201)
    const state = started.json()
    expect(state.mode).toBe('metasearch')
    expect(state.metasearch.remoteQuery).toBe('cancer OR cells')
    expect(state.next.length).toBeGreaterThan(0)
    expect(state.next[0].title.text.length).toBeGreaterThan(0)
    const refused = await createServer({ engine, feedbackDir: join(dir, 'sessions-none'), rateLimit: false })
    const noEntrez = await refused.inject({ method: 'POST', url: '/sessions', payload: { q: 'cancer', mode: 'metasearch' } })
    expect([noEntrez.statusCode, noEntrez.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    await refused.close()
    await app.close()
  })
})

describe.runIf(existsSync(shared))('full-text search by section (fulltext=)', () => {
  it('ranks PMC full texts with each strategy, and asks for a section model for the log-odds ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'server-fulltext-'))
    const files = ['PMC10020673.json', 'PMC10025027.json', 'PMC10027818.json', 'PMC10058394.json', 'PMC10142442.json', 'PMC10233975.json']
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/pmid_9500320.xml'), ...files.map((f) => join(shared, 'pmc/bioc-json', f))])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    await updateFulltext({ index: join(dir, 'index') })
    const engine = await openSearch({ index: join(dir, 'index') })
    let app = await createServer({ engine, rateLimit: false })
    const merged = await call(app, 'GET', '/search?q=microgravity%20bone&fulltext=merged&size=3', '/search')
    expect(merged.statusCode).toBe(200)
    expect(merged.json()).toMatchObject({ fulltext: 'merged', reranked: false })
    expect(merged.json().results.length).toBeGreaterThan(0)
    const noModel = await call(app, 'GET', '/search?q=microgravity&fulltext=sum-logodds', '/search')
    expect([noModel.statusCode, noModel.json().code]).toEqual([400, 'INVALID_ARGUMENT'])
    await app.close()
    // a section model from known items, then Sum LogOdds answers
    const fulltext = await openFulltext(engine)
    const model = trainSectionModel(
      fulltext.index,
      Array.from({ length: fulltext.index.size }, (_, doc) => ({ text: fulltext.index.articles.stored(doc).title, relevant: new Set([fulltext.index.articles.externalId(doc)]) })),
    )
    await saveSectionModel(sectionModelFile(join(dir, 'index')), model, { queries: 'titles' })
    app = await createServer({ engine: await openSearch({ index: join(dir, 'index') }), rateLimit: false })
    const sum = await call(app, 'GET', '/search?q=microgravity%20bone&fulltext=sum-logodds&size=3', '/search')
    expect(sum.statusCode).toBe(200)
    expect(sum.json().results[0].score).toBeTypeOf('number')
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })
})

describe.runIf(existsSync(shared))('the OpenAPI document', () => {
  it('describes every route, and every answer the tests saw matches its schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'server-openapi-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/pmid_9500320.xml')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    const app = await createServer({ engine: await openSearch({ index: join(dir, 'index') }), adminToken: 'x'.repeat(20), rateLimit: false, feedbackDir: join(dir, 'sessions') })
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    await app.close()
    await rm(dir, { recursive: true, force: true })
    expect(doc.openapi).toBe('3.0.3')
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/admin/reload',
      '/articles/{pmid}',
      '/articles/{pmid}/explain',
      '/events',
      '/health',
      '/metrics',
      '/search',
      '/sessions',
      '/sessions/{id}/grades',
      '/sessions/{id}/next',
    ])
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats.default(ajv)
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, object>)) {
      ajv.addSchema({ ...schema, $id: `#/components/schemas/${name}` })
    }
    const validators = new Map<string, ValidateFunction>()
    expect(seen.length).toBeGreaterThan(30)
    const statusesSeen = new Set(seen.map((s) => s.status))
    expect([...statusesSeen].sort()).toEqual(expect.arrayContaining([200, 202, 400, 404, 413, 429, 503]))
    for (const answer of seen) {
      const responses = doc.paths[answer.route]?.[answer.method]?.responses
      expect(responses, `${answer.method} ${answer.route}`).toBeDefined()
      const spec = responses[String(answer.status)]
      expect(spec, `${answer.method} ${answer.route} ${answer.status} is documented`).toBeDefined()
      const schema = spec.content?.['application/json']?.schema ?? spec.content?.['text/plain']?.schema
      if (schema === undefined) {
        continue
      }
      const key = JSON.stringify(schema)
      let validate = validators.get(key)
      if (validate === undefined) {
        validate = ajv.compile(schema)
        validators.set(key, validate)
      }
      const ok = validate(answer.body)
      expect(ok ? [] : validate.errors, `${answer.method} ${answer.route} ${answer.status}`).toEqual([])
    }
  })
})
