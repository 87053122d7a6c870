/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * `GET /articles/:pmid` (the stored record) and `GET /articles/:pmid/explain` (why it ranks where
 * it does for a query: the BM25F tree and the model's per-feature contributions).
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import { PubmatchError } from '@pubmatch/core'
import type { EngineHolder } from '../engine-holder.ts'
import { ERROR_RESPONSES } from '../errors.ts'
import { FILTER_PROPERTIES, filtersOf } from '../filters.ts'
import { explanationJson } from '../results.ts'
import { MAX_QUERY_CHARS, SESSION_ID_PATTERN } from '../schemas.ts'

/** What the article routes need. */
export interface ArticleRoutesOptions {
  readonly engines: EngineHolder
}

const articleParams = { type: 'object', required: ['pmid'], properties: { pmid: { type: 'string', minLength: 1, maxLength: 40 } } } as const

const explainQuerySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
    ...FILTER_PROPERTIES,
    session: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'A client session id: a rate limit per session counts the request against it' },
  },
} as const

/** The article routes. */
export const articleRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: ArticleRoutesOptions }> = async (app, { engines }) => {
  app.get(
    '/articles/:pmid',
    {
      schema: {
        tags: ['search'],
        summary: "An article's stored record",
        params: articleParams,
        response: { 200: { $ref: 'Document#' }, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { pmid } = request.params
      const document = await engines.current.document(pmid)
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
        params: articleParams,
        querystring: explainQuerySchema,
        response: { 200: { $ref: 'ExplainResponse#' }, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const filters = filtersOf(request.query)
      return explanationJson(await engines.current.explain(request.params.pmid, request.query.q, filters === undefined ? {} : { filters }))
    },
  )
}
