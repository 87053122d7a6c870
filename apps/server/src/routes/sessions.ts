/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * Relevance feedback sessions: `POST /sessions` starts one (over the index's first stage, or
 * metasearch through Entrez), `GET /sessions/:id/next` shows its state and the next documents to
 * grade, `POST /sessions/:id/grades` grades a round (the query is updated by Rocchio and the
 * candidates re-ranked; the graded round goes to the search log as a shown search and actions).
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import { PubmatchError } from '@pubmatch/core'
import type { FeedbackSessions } from '@pubmatch/engine'
import type { FeedbackSession } from '@pubmatch/feedback'
import { feedbackRoundEvents } from '@pubmatch/ltr'
import type { EngineHolder } from '../engine-holder.ts'
import { ERROR_RESPONSES } from '../errors.ts'
import { resultJson } from '../results.ts'
import { MAX_QUERY_CHARS, SESSION_ID_PATTERN } from '../schemas.ts'
import type { SearchLog } from '../search-log.ts'

/** What the session routes need. */
export interface SessionRoutesOptions {
  readonly engines: EngineHolder
  /** The sessions. Defaults to none: the routes answer 404. */
  readonly sessions: FeedbackSessions | undefined
  /** Where graded rounds are logged. Defaults to none. */
  readonly log: SearchLog | undefined
  /** Why there are no sessions, when it is not the missing directory. Defaults to none. */
  readonly unavailable?: string
}

const sessionParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } } as const

const nextQuerySchema = {
  type: 'object',
  properties: {
    session: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'The client session id: a rate limit per session counts the request against it' },
  },
} as const

const sessionStartSchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
    mode: { type: 'string', enum: ['local', 'metasearch'], default: 'local' },
    ranking: { type: 'string', enum: ['tfidf', 'bm25', 'borda', 'maxnorm'], default: 'borda' },
    idf: { type: 'string', enum: ['global', 'local'], default: 'global' },
    prf: { type: 'boolean', default: true },
    candidates: { type: 'integer', minimum: 10, maximum: 10_000, default: 3000 },
    session: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'The client session id, for the search log' },
  },
} as const

const gradesSchema = {
  type: 'object',
  required: ['shown', 'grades'],
  additionalProperties: false,
  properties: {
    shown: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 40 }, minItems: 1, maxItems: 100 },
    grades: {
      type: 'object',
      additionalProperties: { type: 'string', enum: ['non-relevant', 'relevant', 'highly-relevant'] },
      description: 'pmid → grade, for documents of `shown`',
    },
    session: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'The client session id, for the search log' },
  },
} as const

/** The session routes. */
export const sessionRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: SessionRoutesOptions }> = async (app, { engines, sessions, log, unavailable }) => {
  const need = (): FeedbackSessions => {
    if (sessions === undefined) {
      throw new PubmatchError('NOT_FOUND', unavailable ?? 'this server keeps no feedback sessions (start it with a session directory)')
    }
    return sessions
  }
  /** A session's state as the `SessionState` schema has it, with the next documents highlighted for the session's query. */
  const stateJson = (id: string, session: FeedbackSession, extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const engine = engines.current
    return {
      id,
      query: session.query,
      round: session.rounds.length,
      shown: session.shown.size,
      candidates: session.candidates.size,
      next: session.next().map((doc) => {
        const stored = need().document(id, doc.id) ?? { id: doc.id, title: '', authors: [], authorCount: 0, pubTypes: [], languages: [] }
        return resultJson({ id: doc.id, rank: doc.rank, score: doc.score, document: stored }, engine.highlights(stored, session.query))
      }),
      terms: [...session.vector]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([term, weight]) => ({ term, weight })),
      ...extra,
    }
  }

  app.post(
    '/sessions',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Start a relevance feedback session: the first-stage candidates (or Entrez articles) re-ranked, with the first documents to grade',
        body: sessionStartSchema,
        response: { 201: { $ref: 'SessionState#' }, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const body = request.body
      const settings = { ranking: body.ranking, idf: body.idf, prf: body.prf }
      const feedback = need()
      if (body.mode === 'metasearch') {
        const { id, metasearch: m } = await feedback.startMetasearch(body.q, { settings })
        const metasearch = {
          remoteQuery: m.remoteQuery,
          ...(m.expandedQuery === undefined ? {} : { expandedQuery: m.expandedQuery }),
          expansionWords: m.expansionWords,
          matched: m.stats.matched,
          kept: m.stats.kept,
          added: m.stats.added,
        }
        void reply.code(201)
        return stateJson(id, await feedback.manager.get(id), { mode: 'metasearch', metasearch })
      }
      const started = await feedback.startLocal(body.q, { candidates: body.candidates, settings })
      void reply.code(201)
      return stateJson(started.id, await feedback.manager.get(started.id), { mode: 'local', total: started.total })
    },
  )

  app.get(
    '/sessions/:id/next',
    {
      schema: {
        tags: ['feedback'],
        summary: "A session's state and the next documents to grade (never one shown before)",
        params: sessionParams,
        querystring: nextQuerySchema,
        response: { 200: { $ref: 'SessionState#' }, ...ERROR_RESPONSES },
      },
    },
    async (request) => stateJson(request.params.id, await need().manager.get(request.params.id)),
  )

  app.post(
    '/sessions/:id/grades',
    {
      schema: {
        tags: ['feedback'],
        summary:
          'Grade a round (non-relevant, relevant, highly relevant): the query is updated (Rocchio) and the candidates re-ranked; graded documents are logged as search-log events',
        params: sessionParams,
        body: gradesSchema,
        response: { 200: { $ref: 'SessionState#' }, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { id } = request.params
      const { shown, grades, session: clientSession } = request.body
      const session = await need().manager.grade(id, { shown, grades: new Map(Object.entries(grades)) })
      if (log !== undefined) {
        // the round as a shown search and the graded documents as actions
        await log.append(
          feedbackRoundEvents({
            feedbackSession: id,
            round: session.rounds.length,
            query: session.query,
            candidates: session.candidates.size,
            shown,
            grades,
            ...(clientSession === undefined ? {} : { session: clientSession }),
            time: new Date().toISOString(),
          }),
        )
      }
      return stateJson(id, session)
    },
  )
}
