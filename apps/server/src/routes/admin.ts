/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * `POST /admin/reload` behind the admin token: opens an index generation and/or a model while the
 * current engine serves, then swaps it in; requests in flight finish on the old one.
 */
import { timingSafeEqual } from 'node:crypto'
import type { Socket } from 'node:net'
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import { PubmatchError } from '@pubmatch/core'
import { isSolrEngine, openSolrEngine, reopenSearch, type ServingEngine } from '@pubmatch/engine'
import type { EngineHolder } from '../engine-holder.ts'
import { ERROR_RESPONSES } from '../errors.ts'
import type { ServerMetrics } from '../metrics.ts'
import { healthJson } from './operations.ts'

/** What an admin reload asks for: another index directory and/or model directory (`null`: no model). */
export interface ReloadRequest {
  readonly index?: string
  readonly model?: string | null
}

/** Opens the engine a reload asks for. */
export type OpenEngine = (request: ReloadRequest, current: ServingEngine) => Promise<ServingEngine>

/** What the admin routes need. */
export interface AdminRoutesOptions {
  readonly engines: EngineHolder
  readonly metrics: ServerMetrics
  /** The admin token (`Authorization: Bearer …`). */
  readonly token: string
  /** Opens the engine a reload asks for. Defaults to {@link reopenEngine}. */
  readonly openEngine?: OpenEngine
}

/** How long an admin reload's connection may stay silent while the new engine opens. */
const RELOAD_SOCKET_TIMEOUT_MS = 15 * 60 * 1000

const reloadBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    index: { type: 'string', minLength: 1, description: 'An index directory (default: the current one, reopened at its newest generation)' },
    model: { type: ['string', 'null'], description: 'A model directory (a Solr-only server: the name of a model deployed in its collection); null serves the first stage only (default: the current model)' },
  },
} as const

/** The admin routes. */
export const adminRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: AdminRoutesOptions }> = async (app, { engines, metrics, token, openEngine }) => {
  const expected = Buffer.from(token)
  const open = openEngine ?? reopenEngine
  // one reload at a time; searches go on meanwhile on the current engine
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
          ...ERROR_RESPONSES,
        },
      },
      preHandler: (request, _reply, done) => {
        const given = Buffer.from(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '')
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          done(new PubmatchError('UNAUTHORIZED', 'the admin routes need `Authorization: Bearer <PUBMATCH_ADMIN_TOKEN>`'))
          return
        }
        done()
      },
    },
    async (request) => {
      // opening an engine can take longer than a search may (a large index, a busy server): the
      // admin's connection is not cut off as idle meanwhile (it is answered when the swap is done)
      // (an injected request, as in tests, has a socket stand-in without timers)
      const socket = request.raw.socket as Partial<Socket> | undefined
      socket?.setTimeout?.(RELOAD_SOCKET_TIMEOUT_MS)
      const reload = reloading.then(async () => {
        const engine = await open(request.body ?? {}, engines.current)
        await engines.swap(engine)
        metrics.engine(engine)
        metrics.swapped()
        return engine
      })
      reloading = reload.catch(() => undefined)
      return healthJson(await reload)
    },
  )
}

/**
 * Reopens the current engine's index at its newest generation (or another index) with its model
 * (or another, or none) and its first stage (`reopenSearch`: a model alone is swapped without
 * reading the index again); a Solr-only engine reopens its collection (its state and MeSH
 * vocabulary read again).
 * @param request - what to change
 * @param current - the engine served now
 * @throws PubmatchError `INVALID_ARGUMENT` for an index asked of a Solr-only engine (whose `model`
 *   is the name of a model deployed in its collection)
 */
export async function reopenEngine(request: ReloadRequest, current: ServingEngine): Promise<ServingEngine> {
  if (isSolrEngine(current)) {
    if (request.index !== undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', 'this server serves a Solr collection alone; it opens no local index')
    }
    // `model` names a model deployed in the collection (null: none; absent: the current one)
    const { model: currentModel, ...rest } = current.openedWith
    const model = request.model === null ? undefined : (request.model ?? currentModel)
    return openSolrEngine({ ...rest, ...(model === undefined ? {} : { model }) })
  }
  return reopenSearch(current, request)
}
