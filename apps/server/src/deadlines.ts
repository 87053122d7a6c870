/**
 * Deadlines, not threads, bound a request: each request gets a `deadline` when it arrives, and
 * the engine stops a search past it with `TIMEOUT` (503).
 */
import type { FastifyInstance } from 'fastify'

declare module 'fastify' {
  interface FastifyRequest {
    /** `performance.now()` milliseconds after which the request's work stops. */
    deadline: number
  }
}

/**
 * Gives every request of an app its deadline.
 * @param app - the app
 * @param timeoutMs - milliseconds from a request's arrival to its deadline
 */
export function addDeadlines(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    request.deadline = performance.now() + timeoutMs
    done()
  })
}
