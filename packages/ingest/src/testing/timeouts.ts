import { PubmatchError } from '@pubmatch/core'
import type { RecordedRequest } from './replay-server.ts'

/** The request header by which {@link ManualTimeouts.fetch} names an attempt. */
const ATTEMPT_HEADER = 'x-replay-attempt'

/**
 * Request timeouts that expire only when a test says so. The Entrez client times each
 * attempt with a real timer (`AbortSignal.timeout`), so a test that waits for a timeout, or
 * that counts requests while one runs, would depend on the machine's speed; while these are
 * installed, a timeout signal aborts only through {@link ManualTimeouts.expire}.
 */
export interface ManualTimeouts {
  /**
   * The `fetch` to give the client (its `fetch` option): it names each request's attempt in
   * a header, so that {@link ManualTimeouts.expire} finds the attempt's timeout.
   */
  readonly fetch: typeof fetch
  /** Timeouts of requests sent through {@link ManualTimeouts.fetch} and not yet answered or expired. */
  readonly armed: number
  /**
   * Expires the timeout of the attempt that sent `request` (as the replay server recorded
   * it, e.g. from its `onRequest`), as if its time had passed.
   * @throws PubmatchError `NOT_FOUND` when the request was not sent through {@link ManualTimeouts.fetch} or its timeout is no longer armed
   */
  expire(request: RecordedRequest): void
  /** Puts the real `AbortSignal.timeout` back. */
  restore(): void
}

/**
 * Replaces `AbortSignal.timeout` with signals that expire only through
 * {@link ManualTimeouts.expire}; call `restore()` when the test ends. Give the client
 * `fetch: timeouts.fetch` and expire a held request from the replay server's `onRequest`:
 * `onRequest: (r) => { if (r.fault === 'slow') timeouts.expire(r) }`.
 */
export function installManualTimeouts(): ManualTimeouts {
  const real = Object.getOwnPropertyDescriptor(AbortSignal, 'timeout')
  const armed = new Map<string, AbortController>()
  let latest: AbortController | undefined
  let sequence = 0
  AbortSignal.timeout = (): AbortSignal => {
    latest = new AbortController()
    return latest.signal
  }
  // The transport arms an attempt's timeout and calls fetch in the same synchronous step, so
  // the timeout armed last belongs to the request being sent.
  const tagged: typeof fetch = async (input, init) => {
    const controller = latest
    latest = undefined
    const attempt = String((sequence += 1))
    const headers = new Headers(init?.headers)
    headers.set(ATTEMPT_HEADER, attempt)
    if (controller !== undefined) {
      armed.set(attempt, controller)
    }
    try {
      return await globalThis.fetch(input, { ...init, headers })
    } finally {
      armed.delete(attempt)
    }
  }
  return {
    fetch: tagged,
    get armed() {
      return armed.size
    },
    expire(request) {
      const attempt = request.headers[ATTEMPT_HEADER]
      const controller = typeof attempt === 'string' ? armed.get(attempt) : undefined
      if (controller === undefined) {
        throw new PubmatchError(
          'NOT_FOUND',
          `no armed timeout for request #${request.index} (${request.method} ${request.path})`,
          { details: { url: request.path } },
        )
      }
      armed.delete(attempt as string)
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    },
    restore() {
      if (real !== undefined) {
        Object.defineProperty(AbortSignal, 'timeout', real)
      }
    },
  }
}
