/**
 * Errors as the API answers them: JSON `{ code, message }` with the status the code means, never
 * a stack trace. A pubmatch error keeps its code and message (500s say only their code); Fastify's
 * own errors (validation, body size, rate limit) get pubmatch codes.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { isPubmatchError } from '@pubmatch/core'

/** Request-body limit in bytes (answered with 413 beyond it). */
export const BODY_LIMIT: number = 64 * 1024

const BAD_INPUT = new Set(['INVALID_ARGUMENT', 'QUERY_SYNTAX', 'UNKNOWN_FIELD'])

/**
 * The HTTP status of a pubmatch error code.
 * @param code - a `PubmatchError` code
 */
export function statusOf(code: string): number {
  switch (code) {
    case 'NOT_FOUND':
      return 404
    case 'TIMEOUT':
      return 503
    case 'UNAUTHORIZED':
      return 401
    case 'SCHEMA_MISMATCH':
      return 409
    default:
      return BAD_INPUT.has(code) ? 400 : 500
  }
}

/**
 * Answers an error with `{ code, message }` and its status (a 503 with `Retry-After: 1`).
 * @param reply - the reply
 * @param error - what a route, a hook or Fastify threw
 */
export function sendError(reply: FastifyReply, error: FastifyError | Error): FastifyReply {
  if (isPubmatchError(error)) {
    const status = statusOf(error.code)
    if (status === 503) {
      void reply.header('retry-after', '1')
    }
    return reply.code(status).send({ code: error.code, message: status === 500 ? `internal error (${error.code})` : error.message })
  }
  const fastifyError = error as FastifyError
  if (fastifyError.validation !== undefined) {
    return reply.code(400).send({ code: 'INVALID_ARGUMENT', message: fastifyError.message })
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply.code(413).send({ code: 'PAYLOAD_TOO_LARGE', message: `the request body is larger than ${BODY_LIMIT / 1024} KiB` })
  }
  if (fastifyError.statusCode === 429) {
    return reply.code(429).send({ code: 'RATE_LIMITED', message: fastifyError.message })
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return reply.code(fastifyError.statusCode).send({ code: 'INVALID_ARGUMENT', message: fastifyError.message })
  }
  reply.log.error(error)
  return reply.code(500).send({ code: 'INTERNAL', message: 'internal error' })
}

/**
 * Answers a request no route takes with 404 `NOT_FOUND`.
 * @param request - the request
 * @param reply - the reply
 */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send({ code: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` })
}

/**
 * The body of a 429 answer (`@fastify/rate-limit`'s `errorResponseBuilder`).
 * @param context - the limit, its window as words (`a minute`), whose budget ran out, and when it resets
 */
export function rateLimitedError(context: {
  readonly max: number
  readonly ttl: number
  readonly window: string
  readonly client: 'address' | 'session'
}): { statusCode: 429; code: string; message: string } {
  return {
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: `more than ${context.max} requests in ${context.window} from this client ${context.client}; retry in ${Math.ceil(context.ttl / 1000)} s`,
  }
}

/** The error answers most routes document. */
export const ERROR_RESPONSES: Readonly<Record<400 | 404 | 429 | 503, { readonly $ref: 'Error#' }>> = {
  400: { $ref: 'Error#' },
  404: { $ref: 'Error#' },
  429: { $ref: 'Error#' },
  503: { $ref: 'Error#' },
}
