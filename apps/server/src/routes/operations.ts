/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * Operations: `GET /health` (what is being served), `GET /metrics` (Prometheus text) and the
 * OpenAPI document `GET /openapi.json` (hidden from itself).
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import { isSolrEngine, type ServingEngine } from '@pubmatch/engine'
import type { EngineHolder } from '../engine-holder.ts'
import type { ServerMetrics } from '../metrics.ts'

/** What the operations routes need. */
export interface OperationRoutesOptions {
  readonly engines: EngineHolder
  readonly metrics: ServerMetrics
}

/**
 * What an engine serves, as `/health` and an admin reload answer it (the `Health` schema).
 * @param engine - the engine
 */
export function healthJson(engine: ServingEngine): Record<string, unknown> {
  return {
    status: 'ok',
    generation: engine.generation,
    documents: engine.docCount,
    ...(isSolrEngine(engine) ? { backend: engine.openedWith.backend } : { index: engine.indexDir }),
    firstStage: `${engine.firstStage.ranker} over ${engine.firstStage.fieldSet} fields, ${engine.firstStage.analyzer} analyzer`,
    ...(engine.model === undefined ? {} : { model: engine.model.id, modelDir: engine.model.dir }),
  }
}

/** The operations routes. */
export const operationRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: OperationRoutesOptions }> = async (app, { engines, metrics }) => {
  app.get(
    '/health',
    { schema: { tags: ['operations'], summary: 'What is being served', response: { 200: { $ref: 'Health#' }, 429: { $ref: 'Error#' } } } },
    async () => healthJson(engines.current),
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
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()),
  )

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
