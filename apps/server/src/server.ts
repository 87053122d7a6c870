/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler or hook returns */
/**
 * The pubmatch HTTP app: `createServer(options)` builds a Fastify instance over a search engine
 * (tests call it through `inject`, without listening). Routes are thin: they validate, call the
 * engine or the search-log store, and shape JSON; the ranking is the engine's.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import fastifySwagger from '@fastify/swagger'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { isPubmatchError, PubmatchError } from '@pubmatch/core'
import {
  attachSolrBackend,
  fulltextDir,
  openFeedbackSessions,
  openFulltext,
  openSearch,
  openSearchPool,
  type EngineHit,
  type EngineResult,
  type FeedbackSessions,
  type FulltextSearch,
  type PooledHit,
  type PooledResult,
  type SearchEngine,
  type SearchPool,
  type SolrSearch,
} from '@pubmatch/engine'
import type { FulltextStrategy } from '@pubmatch/fulltext'
import type { FeedbackGrade, FeedbackSession } from '@pubmatch/feedback'
import type { EntrezClient } from '@pubmatch/ingest'
import { BEST_MATCH_SCHEMA, createLogStore, MEMORY_FEATURES, type LogEvent, type LogSink } from '@pubmatch/ltr'
import type { SearchFilters } from '@pubmatch/bm25f'
import { createMetrics, type ServerMetrics } from './metrics.ts'
import { gradesSchema, MAX_QUERY_CHARS, reloadBodySchema, searchQuerySchema, sessionStartSchema, SHARED_SCHEMAS } from './schemas.ts'
import { SERVER_VERSION } from './version.ts'

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** The engine to serve first. */
  readonly engine: SearchEngine
  /**
   * Opens the engine an admin reload asks for. Defaults to `openSearch` with the current engine's
   * index (reopened at its newest generation) and model unless the request names others.
   */
  readonly openEngine?: (request: { readonly index?: string; readonly model?: string | null }, current: SearchEngine) => Promise<SearchEngine>
  /** Where search and click events are appended (`pubmatch clicks labels --log` reads it). Defaults to none: `POST /events` answers 404. */
  readonly logDir?: string
  /** Where events go instead of a log directory (tests). */
  readonly logSink?: LogSink
  /** The admin token (`Authorization: Bearer …`). Defaults to none: the admin routes are off. */
  readonly adminToken?: string
  /** Requests per client address per minute; `false` for no limit. Defaults to `600`. */
  readonly rateLimit?: number | false
  /** A request still working after this many milliseconds is stopped with 503. Defaults to `5000`. */
  readonly timeoutMs?: number
  /** Log requests (pino, JSON on stdout). Defaults to `false`. */
  readonly logger?: boolean
  /** The web page's files. Defaults to the package's `public/`. */
  readonly publicDir?: string
  /** Where relevance feedback sessions are logged. Defaults to none: the session routes answer 404. */
  readonly feedbackDir?: string
  /** An Entrez client for metasearch sessions. Defaults to none: `mode: metasearch` is refused. */
  readonly entrez?: EntrezClient
  /**
   * Worker threads that run `GET /search` (each holds its own copy of the engine; a reload opens a
   * new set before the swap). Defaults to `0`: searches run on the server's own thread.
   */
  readonly searchWorkers?: number
  /**
   * Run `GET /search`'s first stage in a SolrCloud collection (`solr://HOST:PORT/solr/COLLECTION`,
   * built by `pubmatch index --solr` from the engine's corpus); the features, the model and the
   * records stay in this process. Not with `searchWorkers`. Defaults to none: the embedded first stage.
   */
  readonly solrBackend?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** `performance.now()` milliseconds after which the request's work stops. */
    deadline: number
  }
}

/** The current engine (and its search workers), swapped atomically; a request keeps the engine it started with. */
interface EngineHolder {
  current: SearchEngine
  pool: SearchPool | undefined
}

const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url))

/** How long an admin reload's connection may stay silent while the new engine opens. */
const RELOAD_SOCKET_TIMEOUT_MS = 15 * 60 * 1000

/**
 * Builds the app.
 * @param options - see {@link ServerOptions}
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const searchWorkers = options.searchWorkers ?? 0
  const poolOf = (engine: SearchEngine): Promise<SearchPool | undefined> =>
    searchWorkers > 0 ? openSearchPool(engine, { workers: searchWorkers }) : Promise.resolve(undefined)
  if (options.solrBackend !== undefined && searchWorkers > 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a Solr backend runs the first stage in Solr; it does not take search workers')
  }
  // each engine's Solr first stage, attached when the engine is served (at start and before a swap)
  const solrs = new WeakMap<SearchEngine, SolrSearch>()
  const attachSolr = async (engine: SearchEngine): Promise<void> => {
    if (options.solrBackend !== undefined) {
      solrs.set(engine, await attachSolrBackend(engine, { backend: options.solrBackend }))
    }
  }
  await attachSolr(options.engine)
  const holder: EngineHolder = { current: options.engine, pool: await poolOf(options.engine) }
  const timeoutMs = options.timeoutMs ?? 5000
  const app = Fastify({
    logger: options.logger === true,
    bodyLimit: 64 * 1024,
    // slow clients are cut off too
    connectionTimeout: timeoutMs * 4,
    requestTimeout: timeoutMs * 2,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  })
  const metrics = createMetrics()
  // each engine's full-text side with its section model compiled: opened with the engine (at
  // start and before a reload swaps it in) when the index has one, else on first use
  const fulltexts = new WeakMap<SearchEngine, Promise<FulltextSearch>>()
  const fulltextOf = (engine: SearchEngine): Promise<FulltextSearch> => {
    let opened = fulltexts.get(engine)
    if (opened === undefined) {
      opened = openFulltext(engine, { compile: true })
      fulltexts.set(engine, opened)
      opened.catch(() => fulltexts.delete(engine))
    }
    return opened
  }
  const warmFulltext = async (engine: SearchEngine): Promise<void> => {
    if (existsSync(fulltextDir(engine.indexDir))) {
      // an unreadable full-text index fails its own requests, not the server
      await fulltextOf(engine).catch(() => undefined)
    }
  }
  await warmFulltext(holder.current)
  metrics.engine(holder.current)
  const sink = options.logSink ?? (options.logDir === undefined ? undefined : createLogStore(options.logDir))

  for (const schema of SHARED_SCHEMAS) {
    app.addSchema(schema)
  }
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'pubmatch',
        version: SERVER_VERSION,
        description:
          'PubMed-style Best Match relevance search: a BM25F first stage and a LambdaMART second stage over the 179 Best Match features. Errors are `{ code, message }`.',
      },
      tags: [
        { name: 'search', description: 'Searching and explaining' },
        { name: 'events', description: 'Search logs for learning to rank' },
        { name: 'feedback', description: 'Relevance feedback sessions (Rocchio; pseudo and graded explicit feedback)' },
        { name: 'operations', description: 'Health, metrics, administration' },
      ],
      components: {
        securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'PUBMATCH_ADMIN_TOKEN' } },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  })
  if (options.rateLimit !== false) {
    await app.register(fastifyRateLimit, {
      max: options.rateLimit ?? 600,
      timeWindow: 60_000,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        code: 'RATE_LIMITED',
        message: `more than ${context.max} requests a minute from this client; retry in ${Math.ceil(context.ttl / 1000)} s`,
      }),
    })
  }

  app.addHook('onRequest', async (request) => {
    request.deadline = performance.now() + timeoutMs
  })
  app.addHook('onResponse', async (request, reply) => {
    metrics.observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000)
  })
  app.setErrorHandler((error: FastifyError, _request, reply) => sendError(reply, error))
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ code: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` })
  })

  const errorResponses = {
    400: { $ref: 'Error#' },
    404: { $ref: 'Error#' },
    429: { $ref: 'Error#' },
    503: { $ref: 'Error#' },
  }

  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search: PubMed query syntax; relevance is the first stage then LambdaMART when a model is loaded',
        querystring: searchQuerySchema,
        response: { 200: { $ref: 'SearchResponse#' }, ...errorResponses },
      },
    },
    async (request) => {
      const engine = holder.current
      const q = request.query as SearchQuery
      if (q.fulltext !== undefined) {
        const started = performance.now()
        const fulltext = await fulltextOf(engine)
        const found = fulltext.search(q.q, q.fulltext, { offset: (q.page - 1) * q.size, limit: q.size })
        return {
          query: q.q,
          total: found.total,
          totalRelation: 'eq',
          page: q.page,
          size: q.size,
          sort: 'relevance',
          reranked: false,
          fulltext: q.fulltext,
          generation: engine.generation,
          results: found.hits.map((hit) => ({
            ...resultJson(hit, engine.highlights(hit.document, q.q)),
            firstStage: { score: hit.score, rank: hit.rank },
          })),
          warnings: [],
          tookMs: performance.now() - started,
        }
      }
      const filters = filtersOf(q)
      const searchOptions = {
        offset: (q.page - 1) * q.size,
        limit: q.size,
        sort: q.sort,
        rerank: q.rerank,
        explain: q.explain,
        prf: q.prf,
        ...(filters === undefined ? {} : { filters }),
      }
      const pool = holder.pool
      const solr = solrs.get(engine)
      const result: EngineResult | PooledResult =
        solr !== undefined
          ? await solr.search(q.q, { ...searchOptions, deadline: request.deadline })
          : pool === undefined
            ? engine.search(q.q, { ...searchOptions, deadline: request.deadline })
            : await pool.search(q.q, { ...searchOptions, deadlineAt: Date.now() + (request.deadline - performance.now()) })
      let searchId: string | undefined
      if (q.session !== undefined && sink !== undefined) {
        searchId = randomUUID()
        await sink.append([
          {
            type: 'search',
            id: searchId,
            time: new Date().toISOString(),
            session: q.session,
            query: q.q,
            filters: filterLabels(q),
            total: result.total,
            results: result.hits.map((hit) => ({ position: hit.rank, id: hit.id })),
          },
        ])
      }
      return {
        query: result.query,
        total: result.total,
        totalRelation: result.totalRelation,
        page: q.page,
        size: q.size,
        sort: q.sort,
        reranked: result.reranked,
        ...(result.fallback === undefined ? {} : { fallback: result.fallback }),
        ...(engine.model === undefined ? {} : { model: engine.model.id }),
        generation: engine.generation,
        ...(searchId === undefined ? {} : { searchId }),
        ...(result.prf === undefined ? {} : { prf: result.prf.terms.slice(0, 12).map(([term, weight]) => ({ term, weight })) }),
        results: result.hits.map((hit: EngineHit | PooledHit) => hitJson(engine, hit, q.q, q.explain, 'highlights' in hit ? hit.highlights : undefined)),
        warnings: result.warnings.map((w) => ({ code: w.code, message: w.message })),
        tookMs: result.tookMs,
      }
    },
  )

  app.get(
    '/articles/:pmid',
    {
      schema: {
        tags: ['search'],
        summary: "An article's stored record",
        params: { type: 'object', required: ['pmid'], properties: { pmid: { type: 'string', minLength: 1, maxLength: 40 } } },
        response: { 200: { $ref: 'Document#' }, ...errorResponses },
      },
    },
    async (request) => {
      const { pmid } = request.params as { pmid: string }
      const document = holder.current.document(pmid)
      if (document === undefined) {
        throw new PubmatchError('NOT_FOUND', `no article ${pmid} in the index`)
      }
      return document
    },
  )

  app.get(
    '/articles/:pmid/explain',
    {
      schema: {
        tags: ['search'],
        summary: "Why an article ranks where it does for a query: the BM25F explain tree and the model's per-feature contributions",
        params: { type: 'object', required: ['pmid'], properties: { pmid: { type: 'string', minLength: 1, maxLength: 40 } } },
        querystring: {
          type: 'object',
          required: ['q'],
          additionalProperties: false,
          properties: {
            q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
            year: (searchQuerySchema['properties'] as Record<string, unknown>)['year'],
            pt: (searchQuerySchema['properties'] as Record<string, unknown>)['pt'],
            lang: (searchQuerySchema['properties'] as Record<string, unknown>)['lang'],
          },
        },
        response: { 200: { $ref: 'ExplainResponse#' }, ...errorResponses },
      },
    },
    async (request) => {
      const engine = holder.current
      const { pmid } = request.params as { pmid: string }
      const query = request.query as Pick<SearchQuery, 'q' | 'year' | 'pt' | 'lang'>
      const q = query.q
      const filters = filtersOf({ ...query, page: 1, size: 1, sort: 'relevance', rerank: true, explain: false, prf: false })
      const explained = engine.explain(pmid, q, filters === undefined ? {} : { filters })
      const names = featureNames(engine)
      const { id, firstStage, secondStage, ...rest } = explained
      return {
        ...rest,
        pmid: id,
        ...(firstStage === undefined
          ? {}
          : { firstStage: { score: firstStage.score, ...(Number.isFinite(firstStage.rank) ? { rank: firstStage.rank } : {}), ...(firstStage.explain === undefined ? {} : { explain: firstStage.explain }) } }),
        ...(secondStage === undefined
          ? {}
          : { secondStage: { ...secondStage, contributions: secondStage.contributions.map((c) => ({ ...c, ...(names.has(c.feature) ? { name: names.get(c.feature) } : {}) })) } }),
      }
    },
  )

  app.post(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Log a search shown to a user, or a click or full-text request on one of its results (JSON lines, fsync)',
        body: { $ref: 'Event#' },
        response: {
          202: {
            type: 'object',
            required: ['logged'],
            additionalProperties: false,
            properties: { logged: { type: 'integer' } },
          },
          ...errorResponses,
          413: { $ref: 'Error#' },
        },
      },
    },
    async (request, reply) => {
      if (sink === undefined) {
        throw new PubmatchError('NOT_FOUND', 'this server keeps no search log (start it with a log directory)')
      }
      const body = request.body as EventBody
      const time = new Date().toISOString()
      const event: LogEvent =
        body.type === 'search'
          ? {
              type: 'search',
              id: body.search,
              time,
              session: body.session,
              query: body.query,
              filters: body.filters ?? [],
              total: body.total,
              results: body.results.map((r) => ({ position: r.position, id: r.pmid })),
            }
          : {
              type: 'action',
              time,
              session: body.session,
              search: body.search,
              id: body.pmid,
              position: body.position,
              kind: body.type === 'click' ? 'abstract_click' : 'fulltext_request',
            }
      await sink.append([event])
      return reply.code(202).send({ logged: 1 })
    },
  )

  app.get(
    '/health',
    { schema: { tags: ['operations'], summary: 'What is being served', response: { 200: { $ref: 'Health#' }, 429: { $ref: 'Error#' } } } },
    async () => {
      const engine = holder.current
      return {
        status: 'ok',
        generation: engine.generation,
        documents: engine.docCount,
        index: engine.indexDir,
        firstStage: `${engine.firstStage.ranker} over ${engine.firstStage.fieldSet} fields, ${engine.firstStage.analyzer} analyzer`,
        ...(engine.model === undefined ? {} : { model: engine.model.id, modelDir: engine.model.dir }),
      }
    },
  )

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus text: requests and latency by route, index generation, model',
        response: { 200: { type: 'string' }, 429: { $ref: 'Error#' } },
      },
    },
    async (_request, reply) => {
      return reply.type(metrics.contentType).send(await metrics.text())
    },
  )

  if (options.adminToken !== undefined && options.adminToken !== '') {
    const token = Buffer.from(options.adminToken)
    const openEngine = options.openEngine ?? defaultOpenEngine
    let reloading: Promise<unknown> = Promise.resolve()
    app.post(
      '/admin/reload',
      {
        schema: {
          tags: ['operations'],
          summary: 'Load an index generation and/or a model and swap them in atomically; requests in flight finish on the old ones',
          security: [{ adminToken: [] }],
          body: reloadBodySchema,
          response: {
            200: { $ref: 'Health#' },
            401: { $ref: 'Error#' },
            409: { $ref: 'Error#' },
            ...errorResponses,
          },
        },
        preHandler: async (request) => {
          const given = Buffer.from(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '')
          if (given.length !== token.length || !timingSafeEqual(given, token)) {
            throw new PubmatchError('UNAUTHORIZED', 'the admin routes need `Authorization: Bearer <PUBMATCH_ADMIN_TOKEN>`')
          }
        },
      },
      async (request) => {
        const body = (request.body ?? {}) as { index?: string; model?: string | null }
        // opening an engine can take longer than a search may (a large index, a busy server): the
        // admin's connection is not cut off as idle meanwhile (it is answered when the swap is done)
        // (an injected request, as in tests, has a socket stand-in without timers)
        const socket = request.raw.socket as Partial<Socket> | undefined
        socket?.setTimeout?.(RELOAD_SOCKET_TIMEOUT_MS)
        // one reload at a time; searches go on meanwhile on the current engine
        const next = reloading.then(() => openEngine(body, holder.current))
        reloading = next.catch(() => undefined)
        const engine = await next
        await warmFulltext(engine)
        await attachSolr(engine)
        const pool = await poolOf(engine)
        const retired = holder.pool
        holder.current = engine
        holder.pool = pool
        // the old workers finish the searches they were given, then stop
        void retired?.close().catch(() => undefined)
        metrics.engine(engine)
        metrics.swapped()
        return {
          status: 'ok',
          generation: engine.generation,
          documents: engine.docCount,
          index: engine.indexDir,
          firstStage: `${engine.firstStage.ranker} over ${engine.firstStage.fieldSet} fields, ${engine.firstStage.analyzer} analyzer`,
          ...(engine.model === undefined ? {} : { model: engine.model.id, modelDir: engine.model.dir }),
        }
      },
    )
  }

  const sessions: FeedbackSessions | undefined =
    options.feedbackDir === undefined
      ? undefined
      : openFeedbackSessions({ dir: options.feedbackDir, engine: () => holder.current, ...(options.entrez === undefined ? {} : { entrez: options.entrez }) })
  const needSessions = (): FeedbackSessions => {
    if (sessions === undefined) {
      throw new PubmatchError('NOT_FOUND', 'this server keeps no feedback sessions (start it with a session directory)')
    }
    return sessions
  }
  const sessionState = (id: string, session: FeedbackSession, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const engine = holder.current
    return {
      id,
      query: session.query,
      round: session.rounds.length,
      shown: session.shown.size,
      candidates: session.candidates.size,
      next: session.next().map((doc) => {
        const stored = needSessions().document(id, doc.id) ?? { id: doc.id, title: '', authors: [], authorCount: 0, pubTypes: [], languages: [] }
        return resultJson({ id: doc.id, rank: doc.rank, score: doc.score, document: stored }, engine.highlights(stored, session.query))
      }),
      terms: [...session.vector]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([term, weight]) => ({ term, weight })),
      ...extra,
    }
  }
  const sessionParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } }

  app.post(
    '/sessions',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Start a relevance feedback session: the first-stage candidates (or Entrez articles) re-ranked, with the first documents to grade',
        body: sessionStartSchema,
        response: { 201: { $ref: 'SessionState#' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body as { q: string; mode: 'local' | 'metasearch'; ranking: 'tfidf' | 'bm25' | 'borda' | 'maxnorm'; idf: 'global' | 'local'; prf: boolean; candidates: number }
      const settings = { ranking: body.ranking, idf: body.idf, prf: body.prf }
      const feedback = needSessions()
      if (body.mode === 'metasearch') {
        const started = await feedback.startMetasearch(body.q, { settings })
        const m = started.metasearch
        return reply.code(201).send(
          sessionState(started.id, await feedback.manager.get(started.id), {
            mode: 'metasearch',
            metasearch: {
              remoteQuery: m.remoteQuery,
              ...(m.expandedQuery === undefined ? {} : { expandedQuery: m.expandedQuery }),
              expansionWords: m.expansionWords,
              matched: m.stats.matched,
              kept: m.stats.kept,
              added: m.stats.added,
            },
          }),
        )
      }
      const started = await feedback.startLocal(body.q, { candidates: body.candidates, settings })
      return reply.code(201).send(sessionState(started.id, await feedback.manager.get(started.id), { mode: 'local', total: started.total }))
    },
  )

  app.get(
    '/sessions/:id/next',
    {
      schema: {
        tags: ['feedback'],
        summary: "A session's state and the next documents to grade (never one shown before)",
        params: sessionParams,
        response: { 200: { $ref: 'SessionState#' }, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string }
      return sessionState(id, await needSessions().manager.get(id))
    },
  )

  app.post(
    '/sessions/:id/grades',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Grade a round (non-relevant, relevant, highly relevant): the query is updated (Rocchio) and the candidates re-ranked; graded documents are logged as search-log events',
        params: sessionParams,
        body: gradesSchema,
        response: { 200: { $ref: 'SessionState#' }, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string }
      const body = request.body as { shown: string[]; grades: Record<string, FeedbackGrade>; session?: string }
      const feedback = needSessions()
      const session = await feedback.manager.grade(id, { shown: body.shown, grades: new Map(Object.entries(body.grades)) })
      if (sink !== undefined) {
        // the round as a shown search and the graded documents as actions: training labels later
        const searchId = `feedback-${id}-${session.rounds.length}`
        const logSession = body.session ?? `feedback-${id}`.slice(0, 64)
        const time = new Date().toISOString()
        const actions: LogEvent[] = []
        body.shown.forEach((pmid, i) => {
          const grade = body.grades[pmid]
          if (grade === 'relevant' || grade === 'highly-relevant') {
            actions.push({ type: 'action', time, session: logSession, search: searchId, id: pmid, position: i + 1, kind: 'abstract_click' })
          }
          if (grade === 'highly-relevant') {
            actions.push({ type: 'action', time, session: logSession, search: searchId, id: pmid, position: i + 1, kind: 'fulltext_request' })
          }
        })
        await sink.append([
          {
            type: 'search',
            id: searchId,
            time,
            session: logSession,
            query: session.query,
            filters: ['feedback'],
            total: session.candidates.size,
            results: body.shown.map((pmid, i) => ({ position: i + 1, id: pmid })),
          },
          ...actions,
        ])
      }
      return sessionState(id, session)
    },
  )

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  app.addHook('onClose', async () => {
    if (sink !== undefined && 'close' in sink && typeof sink.close === 'function') {
      await (sink as { close(): Promise<void> }).close()
    }
    await sessions?.close()
    await holder.pool?.close()
  })

  const publicDir = options.publicDir ?? PUBLIC_DIR
  if (existsSync(publicDir)) {
    await app.register(fastifyStatic, { root: publicDir, index: ['index.html'], maxAge: 0 })
  }
  return app
}

interface SearchQuery {
  q: string
  page: number
  size: number
  sort: 'relevance' | 'date'
  year?: string
  pt?: string[]
  lang?: string[]
  rerank: boolean
  explain: boolean
  session?: string
  prf: boolean
  fulltext?: FulltextStrategy
}

type EventBody =
  | { type: 'click' | 'fulltext'; session: string; search: string; pmid: string; position: number }
  | { type: 'search'; session: string; search: string; query: string; filters?: string[]; total: number; results: Array<{ position: number; pmid: string }> }

function filtersOf(q: SearchQuery): SearchFilters | undefined {
  const filters: SearchFilters = {
    ...(q.year === undefined ? {} : { years: years(q.year) }),
    ...(q.pt === undefined || q.pt.length === 0 ? {} : { publicationTypes: q.pt }),
    ...(q.lang === undefined || q.lang.length === 0 ? {} : { languages: q.lang }),
  }
  return Object.keys(filters).length === 0 ? undefined : filters
}

function years(text: string): [number, number] {
  if (!text.includes(':')) {
    return [Number(text), Number(text)]
  }
  const [from, to] = text.split(':')
  return [from === '' ? 0 : Number(from), to === '' ? 9999 : Number(to)]
}

function filterLabels(q: SearchQuery): string[] {
  return [
    ...(q.year === undefined ? [] : [`year:${q.year}`]),
    ...(q.pt ?? []).map((pt) => `pt:${pt}`),
    ...(q.lang ?? []).map((lang) => `lang:${lang}`),
    ...(q.sort === 'date' ? ['sort:date'] : []),
  ]
}

/** A result's fields of every ranking: id, rank, score, highlighted title and snippet, the stored record's metadata. */
function resultJson(
  hit: { readonly id: string; readonly rank: number; readonly score: number; readonly document: EngineHit['document'] },
  marked: PooledHit['highlights'],
): Record<string, unknown> {
  const doc = hit.document
  return {
    pmid: hit.id,
    rank: hit.rank,
    score: hit.score,
    title: marked.title,
    snippet: marked.snippet,
    ...(doc.journal === undefined ? {} : { journal: doc.journal }),
    ...(doc.year === undefined ? {} : { year: doc.year }),
    authors: doc.authors,
    authorCount: doc.authorCount,
    pubTypes: doc.pubTypes,
    ...(doc.pmcid === undefined ? {} : { pmcid: doc.pmcid }),
    ...(doc.doi === undefined ? {} : { doi: doc.doi }),
  }
}

function hitJson(
  engine: SearchEngine,
  hit: EngineHit,
  query: string,
  explain: boolean,
  highlighted?: PooledHit['highlights'],
): Record<string, unknown> {
  return {
    ...resultJson(hit, highlighted ?? engine.highlights(hit.document, query)),
    firstStage: {
      score: hit.firstStage.score,
      rank: hit.firstStage.rank,
      ...(explain && hit.firstStage.explain !== undefined ? { explain: hit.firstStage.explain } : {}),
    },
    ...(hit.secondStage === undefined
      ? {}
      : {
          secondStage: {
            score: hit.secondStage.score,
            ...(explain && hit.secondStage.explain !== undefined
              ? { bias: hit.secondStage.explain.bias, contributions: hit.secondStage.explain.contributions.slice(0, 20) }
              : {}),
          },
        }),
  }
}

const FEATURE_NAMES: ReadonlyMap<string, string> = new Map(
  [...BEST_MATCH_SCHEMA.features, ...MEMORY_FEATURES].map((feature) => [feature.id, feature.name]),
)

function featureNames(_engine: SearchEngine): ReadonlyMap<string, string> {
  return FEATURE_NAMES
}

async function defaultOpenEngine(request: { index?: string; model?: string | null }, current: SearchEngine): Promise<SearchEngine> {
  const model = request.model === null ? undefined : (request.model ?? current.model?.dir)
  return openSearch({
    index: request.index ?? current.indexDir,
    ranking: { ranker: current.firstStage.ranker as never, params: current.firstStage.params, match: current.firstStage.match, syntax: current.firstStage.syntax },
    ...(model === undefined ? {} : { model }),
  })
}

/** Maps an error to `{ code, message }` and its status; never a stack trace. */
function sendError(reply: FastifyReply, error: FastifyError | Error): FastifyReply {
  if (isPubmatchError(error)) {
    const status =
      error.code === 'NOT_FOUND'
        ? 404
        : error.code === 'TIMEOUT'
          ? 503
          : error.code === 'UNAUTHORIZED'
            ? 401
            : error.code === 'SCHEMA_MISMATCH'
              ? 409
              : ['INVALID_ARGUMENT', 'QUERY_SYNTAX', 'UNKNOWN_FIELD'].includes(error.code)
                ? 400
                : 500
    if (status === 503) {
      void reply.header('retry-after', '1')
    }
    return reply.code(status).send({ code: error.code, message: status === 500 ? `internal error (${error.code})` : error.message })
  }
  const fastifyError = error as FastifyError
  if (fastifyError.validation !== undefined) {
    return reply.code(400).send({ code: 'INVALID_ARGUMENT', message: `${fastifyError.message}` })
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply.code(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'the request body is larger than 64 KiB' })
  }
  if (fastifyError.statusCode === 429) {
    return reply.code(429).send({ code: 'RATE_LIMITED', message: fastifyError.message })
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return reply.code(fastifyError.statusCode).send({ code: 'INVALID_ARGUMENT', message: `${fastifyError.message}` })
  }
  reply.log.error(error)
  return reply.code(500).send({ code: 'INTERNAL', message: 'internal error' })
}

export type { ServerMetrics }
export { type FastifyInstance, type FastifyRequest }
