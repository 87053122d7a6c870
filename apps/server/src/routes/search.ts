/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * `GET /search`: a page of results from the engine being served (on the server's thread, on
 * search workers, or with the first stage in Solr), or from its full-text side (`fulltext=`);
 * with a client session, the page shown is logged as a search event.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyRequest } from 'fastify'
import type { FromSchema } from 'json-schema-to-ts'
import { PubmatchError } from '@pubmatch/core'
import { isSolrEngine, type EngineResult, type FulltextSearch, type PooledResult, type SearchEngine, type ServingEngine } from '@pubmatch/engine'
import type { EngineHolder } from '../engine-holder.ts'
import { ERROR_RESPONSES } from '../errors.ts'
import { FILTER_PROPERTIES, filterLabels, filtersOf } from '../filters.ts'
import type { FulltextCache } from '../fulltext-cache.ts'
import { hitJson, resultJson } from '../results.ts'
import { MAX_PAGE_SIZE, MAX_QUERY_CHARS, SESSION_ID_PATTERN } from '../schemas.ts'
import type { SearchLog } from '../search-log.ts'
import type { SolrFirstStages } from '../solr-first-stages.ts'

/** What the search route needs. */
export interface SearchRoutesOptions {
  readonly engines: EngineHolder
  readonly fulltexts: FulltextCache
  readonly solr: SolrFirstStages
  /** Where shown searches are logged. Defaults to none: `session` is accepted and nothing is logged. */
  readonly log: SearchLog | undefined
}

const searchQuerySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'PubMed query syntax (plain text for test collections)' },
    page: { type: 'integer', minimum: 1, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
    sort: { type: 'string', enum: ['relevance', 'date'], default: 'relevance' },
    ...FILTER_PROPERTIES,
    rerank: { type: 'boolean', default: true, description: 'Use the loaded model (LambdaMART) for relevance' },
    explain: { type: 'boolean', default: false, description: "Attach both stages' explanations" },
    session: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'A client session id: the page shown is logged as a search event (and a rate limit per session counts the request against it)' },
    prf: { type: 'boolean', default: false, description: 'Pseudo relevance feedback in the first stage' },
    facets: { type: 'boolean', default: false, description: 'Count the years, publication types and languages of every matching document' },
    citation: {
      type: 'boolean',
      default: true,
      description: 'The citation sensor: a query that cites one article (journal year;volume:page, author year journal, its title) shows that article first (citationMatch)',
    },
    fulltext: {
      type: 'string',
      enum: ['sum-logodds', 'max-logodds', 'merged', 'abstract'],
      description:
        'Search the PMC full texts by section instead (Yeganova et al. 2021): Sum/Max LogOdds of PAV-calibrated section BM25, or BM25 on abstract+body merged or on the abstract',
    },
  },
} as const

type SearchQuery = FromSchema<typeof searchQuerySchema>

/** The search route. */
export const searchRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: SearchRoutesOptions }> = async (app, { engines, fulltexts, solr, log }) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search: PubMed query syntax; relevance is the first stage then LambdaMART when a model is loaded',
        querystring: searchQuerySchema,
        response: { 200: { $ref: 'SearchResponse#' }, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const q = request.query
      const engine = engines.current
      if (q.fulltext !== undefined) {
        if (isSolrEngine(engine)) {
          throw new PubmatchError('INVALID_ARGUMENT', 'full-text search reads the local full-text index; this server serves a Solr collection alone')
        }
        const started = performance.now()
        return fulltextPage(engine, await fulltexts.of(engine), q, q.fulltext, started)
      }
      const result = await runSearch(engine, engines, solr, q, request)
      const searchId = q.session === undefined || log === undefined ? undefined : await logShown(log, q, q.session, result)
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
        ...(result.translation === undefined ? {} : { searchDetails: { query: result.translation.query, mappings: result.translation.mappings } }),
        ...(result.citationMatch === undefined ? {} : { citationMatch: { pmid: result.citationMatch.id, form: result.citationMatch.form, matched: result.citationMatch.matched } }),
        ...('facets' in result && result.facets !== undefined ? { facets: result.facets } : {}),
        results: result.hits.map((hit) => hitJson(hit, 'highlights' in hit ? hit.highlights : engine.highlights(hit.document, q.q), q.explain)),
        warnings: result.warnings.map((w) => ({ code: w.code, message: w.message })),
        tookMs: result.tookMs,
      }
    },
  )
}

/** Runs a search where the server runs them: the first stage in Solr, on a search worker, or on this thread; each stops at the request's deadline. */
async function runSearch(
  engine: ServingEngine,
  engines: EngineHolder,
  solr: SolrFirstStages,
  q: SearchQuery,
  request: FastifyRequest,
): Promise<EngineResult | PooledResult> {
  const filters = filtersOf(q)
  const options = {
    offset: (q.page - 1) * q.size,
    limit: q.size,
    sort: q.sort,
    rerank: q.rerank,
    explain: q.explain,
    prf: q.prf,
    facets: q.facets,
    citation: q.citation,
    ...(filters === undefined ? {} : { filters }),
  }
  if (isSolrEngine(engine)) {
    return engine.search(q.q, { ...options, deadline: request.deadline })
  }
  const inSolr = solr.of(engine)
  if (inSolr !== undefined) {
    return inSolr.search(q.q, { ...options, deadline: request.deadline })
  }
  const pool = engines.pool
  if (pool === undefined) {
    return engine.search(q.q, { ...options, deadline: request.deadline })
  }
  // workers do not share this thread's clock: the deadline goes as wall-clock time
  return pool.search(q.q, { ...options, deadlineAt: Date.now() + (request.deadline - performance.now()) })
}

/** Logs the page shown to a client session as a search event; its id, for the client's click events. */
async function logShown(log: SearchLog, q: SearchQuery, session: string, result: EngineResult | PooledResult): Promise<string> {
  const id = randomUUID()
  await log.append([
    {
      type: 'search',
      id,
      time: new Date().toISOString(),
      session,
      query: q.q,
      filters: filterLabels(q),
      total: result.total,
      results: result.hits.map((hit) => ({ position: hit.rank, id: hit.id })),
    },
  ])
  return id
}

/** A page of full texts ranked by section (`fulltext=`): no model, no filters. */
function fulltextPage(
  engine: SearchEngine,
  fulltext: FulltextSearch,
  q: SearchQuery,
  strategy: NonNullable<SearchQuery['fulltext']>,
  started: number,
): Record<string, unknown> {
  const found = fulltext.search(q.q, strategy, { offset: (q.page - 1) * q.size, limit: q.size })
  return {
    query: q.q,
    total: found.total,
    totalRelation: 'eq',
    page: q.page,
    size: q.size,
    sort: 'relevance',
    reranked: false,
    fulltext: strategy,
    generation: engine.generation,
    results: found.hits.map((hit) => ({ ...resultJson(hit, engine.highlights(hit.document, q.q)), firstStage: { score: hit.score, rank: hit.rank } })),
    warnings: [],
    tookMs: performance.now() - started,
  }
}
