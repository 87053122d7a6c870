/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * `POST /events`: a search shown to a user, or a click or full-text request on one of its
 * results, appended to the search log in the format `pubmatch clicks labels` reads. Events carry
 * a client session id, never an address.
 */
import type { FastifyPluginAsyncJsonSchemaToTs, JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { FromSchema } from 'json-schema-to-ts'
import { PubmatchError } from '@pubmatch/core'
import type { LogEvent } from '@pubmatch/ltr'
import { ERROR_RESPONSES } from '../errors.ts'
import { MAX_PAGE_SIZE, MAX_QUERY_CHARS, SESSION_ID_PATTERN, type Schema } from '../schemas.ts'
import type { SearchLog } from '../search-log.ts'

/** What the events route needs. */
export interface EventRoutesOptions {
  /** The search log. Defaults to none: the route answers 404. */
  readonly log: SearchLog | undefined
}

const EVENT_SCHEMA = {
  $id: 'Event',
  description: 'A search shown to a user, or what the user did with one of its results. Events carry a client session id, never an address.',
  oneOf: [
    {
      type: 'object',
      required: ['type', 'session', 'search', 'pmid', 'position'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', enum: ['click', 'fulltext'] },
        session: { type: 'string', pattern: SESSION_ID_PATTERN },
        search: { type: 'string', minLength: 1, maxLength: 100, description: 'The searchId of the search the result was shown in' },
        pmid: { type: 'string', minLength: 1, maxLength: 40 },
        position: { type: 'integer', minimum: 1 },
      },
    },
    {
      type: 'object',
      required: ['type', 'session', 'search', 'query', 'total', 'results'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', enum: ['search'] },
        session: { type: 'string', pattern: SESSION_ID_PATTERN },
        search: { type: 'string', minLength: 1, maxLength: 100 },
        query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
        filters: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20 },
        total: { type: 'integer', minimum: 0 },
        results: {
          type: 'array',
          maxItems: MAX_PAGE_SIZE,
          items: {
            type: 'object',
            required: ['position', 'pmid'],
            additionalProperties: false,
            properties: { position: { type: 'integer', minimum: 1 }, pmid: { type: 'string', minLength: 1, maxLength: 40 } },
          },
        },
      },
    },
  ],
} as const

/** The shared `Event` schema (the body of `POST /events`), for `addSchema`. */
export const eventSchema: Schema = EVENT_SCHEMA

/** An event as a client sends it. */
type EventBody = FromSchema<typeof EVENT_SCHEMA>

/** The events route. */
export const eventRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: EventRoutesOptions }> = async (app, { log }) => {
  // the body is the shared `Event` schema, by reference (as in the OpenAPI document): the type provider resolves it
  app.withTypeProvider<JsonSchemaToTsProvider<{ ValidatorSchemaOptions: { references: [typeof EVENT_SCHEMA] } }>>().post(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Log a search shown to a user, or a click or full-text request on one of its results (JSON lines, fsync)',
        body: { $ref: 'Event#' } as const,
        response: {
          202: {
            type: 'object',
            required: ['logged'],
            additionalProperties: false,
            properties: { logged: { type: 'integer' } },
          },
          ...ERROR_RESPONSES,
          413: { $ref: 'Error#' },
        },
      },
    },
    async (request, reply) => {
      if (log === undefined) {
        throw new PubmatchError('NOT_FOUND', 'this server keeps no search log (start it with a log directory)')
      }
      await log.append([logEvent(request.body, new Date().toISOString())])
      return reply.code(202).send({ logged: 1 })
    },
  )
}

/** A client's event as a search-log line. */
function logEvent(body: EventBody, time: string): LogEvent {
  if (body.type === 'search') {
    return {
      type: 'search',
      id: body.search,
      time,
      session: body.session,
      query: body.query,
      filters: body.filters ?? [],
      total: body.total,
      results: body.results.map((r) => ({ position: r.position, id: r.pmid })),
    }
  }
  return {
    type: 'action',
    time,
    session: body.session,
    search: body.search,
    id: body.pmid,
    position: body.position,
    kind: body.type === 'click' ? 'abstract_click' : 'fulltext_request',
  }
}
