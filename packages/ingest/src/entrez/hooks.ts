import type { PubmatchError } from '@pubmatch/core'

/** The E-utilities this client speaks. */
export type EntrezUtility =
  'esearch' | 'efetch' | 'esummary' | 'elink' | 'espell' | 'einfo' | 'epost'

/** Emitted when a request is about to go out (after the rate limiter let it through). */
export interface EntrezRequestEvent {
  /** Which E-utility. */
  readonly utility: EntrezUtility
  /** `GET`, or `POST` for long id lists and EPost. */
  readonly method: 'GET' | 'POST'
  /** The request URL with its parameters, `api_key` removed and long values shortened. */
  readonly url: string
  /** 1 for the first attempt, 2 for the first retry, … */
  readonly attempt: number
  /** The rate-limiter slot the request was given (clock milliseconds). */
  readonly slot: number
}

/** Emitted when a failed attempt will be retried. */
export interface EntrezRetryEvent {
  /** Which E-utility. */
  readonly utility: EntrezUtility
  /** The request URL without `api_key`. */
  readonly url: string
  /** The attempt that failed (1-based). */
  readonly attempt: number
  /** How long the client waits before the next attempt, in milliseconds. */
  readonly delayMs: number
  /** Why the attempt failed (`UPSTREAM_HTTP`, `UPSTREAM_TIMEOUT`, `NETWORK`, `MALFORMED_*`, transient `UPSTREAM_ERROR`). */
  readonly error: PubmatchError
  /** The HTTP status, when the server answered. */
  readonly status?: number
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number
}

/** Emitted when a request has been answered successfully (from the network or the cache). */
export interface EntrezResponseEvent {
  /** Which E-utility. */
  readonly utility: EntrezUtility
  /** The request URL without `api_key`. */
  readonly url: string
  /** Length of the body in UTF-16 code units. */
  readonly bodyLength: number
  /** Whether the answer came from the response cache (no request was made). */
  readonly fromCache: boolean
  /** The number of attempts it took (0 for a cache hit). */
  readonly attempts: number
}

/** Progress and observability callbacks of the Entrez client (e.g. for a CLI progress bar). */
export interface EntrezHooks {
  /** Called before each network attempt. */
  onRequest?: (event: EntrezRequestEvent) => void
  /** Called after a failed attempt, before waiting to retry. */
  onRetry?: (event: EntrezRetryEvent) => void
  /** Called once per successful answer. */
  onResponse?: (event: EntrezResponseEvent) => void
  /** Called when the response cache cannot be read or written; the request goes on without it. */
  onCacheError?: (error: PubmatchError) => void
}
