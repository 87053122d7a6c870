/**
 * The pubmatch HTTP app: `createServer(options)` builds a Fastify instance over a search engine
 * (tests call it through `inject`, without listening). This file is wiring: the shared state
 * (the engine holder, the search log, metrics, the full-text and Solr sides, the feedback
 * sessions) is built here and handed to the route plugins in `routes/`, which validate, call the
 * engine or the log, and shape JSON; the ranking is the engine's.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify'
import { PubmatchError } from '@pubmatch/core'
import { isSolrEngine, openFeedbackSessions, type SearchEngine, type ServingEngine } from '@pubmatch/engine'
import type { EntrezClient } from '@pubmatch/ingest'
import type { LogSink } from '@pubmatch/ltr'
import { addDeadlines } from './deadlines.ts'
import { openEngineHolder } from './engine-holder.ts'
import { BODY_LIMIT, sendError, sendNotFound } from './errors.ts'
import { createFulltextCache } from './fulltext-cache.ts'
import { createMetrics, type ServerMetrics } from './metrics.ts'
import { registerOpenApi } from './openapi.ts'
import { adminRoutes, type OpenEngine } from './routes/admin.ts'
import { articleRoutes } from './routes/articles.ts'
import { eventRoutes } from './routes/events.ts'
import { operationRoutes } from './routes/operations.ts'
import { searchRoutes } from './routes/search.ts'
import { sessionRoutes } from './routes/sessions.ts'
import { screenRoutes } from './routes/screen.ts'
import { checkRateLimit, checkTrustProxy, registerRateLimit, type RateLimit, type TrustProxy } from './rate-limit.ts'
import { openSearchLog } from './search-log.ts'
import { createSolrFirstStages } from './solr-first-stages.ts'

/** Options of {@link createServer}. */
export interface ServerOptions {
  /**
   * The engine to serve first: the embedded one (`openSearch`), or a Solr-only one
   * (`openSolrEngine`: no local index; no search workers, Solr backend, full-text search or
   * feedback sessions).
   */
  readonly engine: ServingEngine
  /**
   * Opens the engine an admin reload asks for. Defaults to `openSearch` with the current engine's
   * index (reopened at its newest generation) and model unless the request names others.
   */
  readonly openEngine?: OpenEngine
  /** Where search and click events are appended (`pubmatch clicks labels --log` reads it). Defaults to none: `POST /events` answers 404. */
  readonly logDir?: string
  /** Where events go instead of a log directory (tests). */
  readonly logSink?: LogSink
  /** The admin token (`Authorization: Bearer …`). Defaults to none: the admin routes are off. */
  readonly adminToken?: string
  /**
   * The rate limit: `false` for none, a number of requests a minute per client address, or a
   * {@link RateLimit} (requests per window, per address or per client session). A client over it
   * is answered 429 `RATE_LIMITED` with `Retry-After`. Defaults to `600` a minute per address.
   */
  readonly rateLimit?: number | false | RateLimit
  /**
   * The reverse proxies whose `X-Forwarded-For` gives the client's address (for the rate limit and
   * the request log): their addresses or CIDR ranges (Fastify's `trustProxy`; a hop count is
   * refused). Defaults to none: the address is the connection's, `X-Forwarded-For` is ignored.
   */
  readonly trustProxy?: TrustProxy
  /** A request still working after this many milliseconds is stopped with 503. Defaults to `5000`. */
  readonly timeoutMs?: number
  /** Log requests (pino, JSON on stdout). Defaults to `false`. */
  readonly logger?: boolean
  /** The web page's files. Defaults to the package's `public/`. */
  readonly publicDir?: string
  /** Where relevance feedback sessions are logged. Defaults to none: the session routes answer 404. */
  readonly feedbackDir?: string
  /** The folder of screening projects (`pubmatch screen create --projects`). Defaults to none. */
  readonly screenDir?: string
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

const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url))

/**
 * Builds the app.
 * @param options - see {@link ServerOptions}
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const searchWorkers = options.searchWorkers ?? 0
  if (isSolrEngine(options.engine) && searchWorkers > 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a Solr-only engine searches in Solr; it does not take search workers')
  }
  if (options.solrBackend !== undefined && searchWorkers > 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a Solr backend runs the first stage in Solr; it does not take search workers')
  }
  const timeoutMs = options.timeoutMs ?? 5000
  const rateLimit = checkRateLimit(options.rateLimit)
  const trustProxy = options.trustProxy === undefined ? undefined : checkTrustProxy(options.trustProxy, 'trustProxy')
  const fulltexts = createFulltextCache()
  const solr = createSolrFirstStages(options.solrBackend)
  const prepare = async (engine: ServingEngine): Promise<void> => {
    await solr.attach(engine)
    await fulltexts.warm(engine)
  }
  const engines = await openEngineHolder(options.engine, { searchWorkers, prepare })
  const metrics = createMetrics()
  metrics.engine(engines.current)
  const log = openSearchLog(options)
  const { feedbackDir, entrez } = options
  // feedback sessions re-rank a local index's candidates: none over a Solr-only engine
  const sessions =
    feedbackDir === undefined || isSolrEngine(options.engine)
      ? undefined
      : openFeedbackSessions({ dir: feedbackDir, engine: () => engines.current as SearchEngine, ...(entrez === undefined ? {} : { entrez }) })

  const app = Fastify({
    logger: options.logger === true,
    bodyLimit: BODY_LIMIT,
    // slow clients are cut off too
    connectionTimeout: timeoutMs * 4,
    requestTimeout: timeoutMs * 2,
    ...(trustProxy === undefined ? {} : { trustProxy }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  })
  app.addHook('onClose', async () => {
    await log?.close()
    await sessions?.close()
    await engines.close()
  })
  await registerOpenApi(app)
  if (rateLimit !== false) {
    await registerRateLimit(app, rateLimit)
  }
  addDeadlines(app, timeoutMs)
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000)
    done()
  })
  app.setErrorHandler((error: FastifyError, _request, reply) => sendError(reply, error))
  app.setNotFoundHandler(sendNotFound)

  await app.register(searchRoutes, { engines, fulltexts, solr, log })
  await app.register(articleRoutes, { engines })
  await app.register(eventRoutes, { log })
  await app.register(operationRoutes, { engines, metrics })
  if (options.adminToken !== undefined && options.adminToken !== '') {
    await app.register(adminRoutes, {
      engines,
      metrics,
      token: options.adminToken,
      ...(options.openEngine === undefined ? {} : { openEngine: options.openEngine }),
    })
  }
  await app.register(sessionRoutes, {
    engines,
    sessions,
    log,
    ...(isSolrEngine(options.engine) ? { unavailable: 'feedback sessions re-rank the candidates of a local index; this server serves a Solr collection alone' } : {}),
  })
  await app.register(screenRoutes, { dir: options.screenDir })
  const publicDir = options.publicDir ?? PUBLIC_DIR
  if (existsSync(publicDir)) {
    await app.register(fastifyStatic, { root: publicDir, index: ['index.html'], maxAge: 0 })
  }
  return app
}

export type { ServerMetrics }
export { type FastifyInstance, type FastifyRequest }
