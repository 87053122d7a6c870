/**
 * The OpenAPI 3 document at `/openapi.json`: `@fastify/swagger` collects every route's schemas,
 * and the shared schemas become its components.
 */
import fastifySwagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { eventSchema } from './routes/events.ts'
import {
  contributionSchema,
  documentSchema,
  errorSchema,
  explainResponseSchema,
  explanationSchema,
  fallbackSchema,
  healthSchema,
  highlightedSchema,
  hitSchema,
  searchResponseSchema,
  sessionDocumentSchema,
  sessionStateSchema,
  type Schema,
} from './schemas.ts'
import { SERVER_VERSION } from './version.ts'

/** Every shared schema, in the order of the document's components. */
const SHARED_SCHEMAS: readonly Schema[] = [
  errorSchema,
  documentSchema,
  highlightedSchema,
  explanationSchema,
  contributionSchema,
  fallbackSchema,
  hitSchema,
  searchResponseSchema,
  explainResponseSchema,
  eventSchema,
  healthSchema,
  sessionDocumentSchema,
  sessionStateSchema,
]

/**
 * Adds the shared schemas and `@fastify/swagger` to an app, before its routes.
 * @param app - the app
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
        { name: 'screen', description: 'Screening projects of systematic reviews: next records, decisions, the stopping aid, export' },
        { name: 'operations', description: 'Health, metrics, administration' },
      ],
      components: {
        securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'PUBMATCH_ADMIN_TOKEN' } },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  })
}
