import { PubmatchError, isPubmatchError, toPubmatchError, truncateForMessage } from '@pubmatch/core'
import { abortedError, type Clock } from './clock.ts'
import type { EntrezHooks, EntrezUtility } from './hooks.ts'
import { describeUrl, encodeParams, type EntrezParams } from './params.ts'
import type { RateLimiter } from './rate-limiter.ts'
import { responseCacheKey, type ResponseCache } from './response-cache.ts'
import {
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  type ResolvedRetryOptions,
} from './retry.ts'

/**
 * How a single call uses the response cache: `use` reads and writes it, `refresh` skips the
 * read but stores the new answer, `bypass` neither reads nor writes.
 */
export type CacheMode = 'use' | 'refresh' | 'bypass'

/** Per-call options of every Entrez client method. */
export interface EntrezCallOptions {
  /** Aborts the call (waiting, retrying and the request itself); it then rejects with `ABORTED`. */
  signal?: AbortSignal
  /** How this call uses the response cache. Defaults to `'use'` (when the client has a cache). */
  cache?: CacheMode
  /** Timeout of each attempt in milliseconds, overriding the client's. */
  timeoutMs?: number
}

/** Everything the transport needs; assembled by the client. */
export interface TransportOptions {
  /** Base URL ending in `/`. */
  readonly baseUrl: string
  /** The fetch implementation. */
  readonly fetch: typeof fetch
  /** The shared rate limiter. */
  readonly limiter: RateLimiter
  /** Clock for backoff sleeps. */
  readonly clock: Clock
  /** Per-attempt timeout in milliseconds. */
  readonly timeoutMs: number
  /** Retry policy. */
  readonly retry: ResolvedRetryOptions
  /** Response cache, if any. */
  readonly cache: ResponseCache | undefined
  /** `tool`, `email` and `api_key` parameters appended to every request. */
  readonly identity: EntrezParams
  /** Requests with more ids than this go by POST. */
  readonly maxGetIds: number
  /** Requests whose GET URL would be longer than this go by POST. */
  readonly maxGetUrlLength: number
  /** Observability callbacks. */
  readonly hooks: EntrezHooks
}

/** One logical E-utilities request. */
export interface TransportRequest<T> {
  /** Which E-utility. */
  readonly utility: EntrezUtility
  /** Its parameters (identity parameters are added by the transport). */
  readonly params: EntrezParams
  /**
   * Turns the body into the result, throwing a PubmatchError when it is unusable. Malformed
   * bodies (`MALFORMED_XML`/`MALFORMED_JSON`) and transient `UPSTREAM_ERROR`s are retried.
   */
  readonly parse: (body: string, source: string) => T
  /** Whether the answer may be cached (not for requests that create history-server state). */
  readonly cacheable: boolean
  /** Always POST (EPost). */
  readonly forcePost?: boolean
  /** Per-call options. */
  readonly call?: EntrezCallOptions
}

/** Sends E-utilities requests with rate limiting, retries, timeouts and caching. */
export interface Transport {
  /** Sends a request and returns its parsed result. */
  send<T>(request: TransportRequest<T>): Promise<T>
}

type Attempt<T> =
  | { readonly ok: true; readonly value: T; readonly body: string }
  | {
      readonly ok: false
      readonly error: PubmatchError
      readonly retryable: boolean
      readonly status?: number
      readonly retryAfterMs?: number
    }

/**
 * Counts the ids of a request (the comma-separated values of every `id` parameter), which
 * decides between GET and POST.
 * @param params - the request parameters
 */
export function countIds(params: EntrezParams): number {
  let n = 0
  for (const [name, value] of params) {
    if (name === 'id' && value !== '') {
      n += value.split(',').length
    }
  }
  return n
}

/**
 * Creates the transport the Entrez client sends every request through.
 * @param options - see {@link TransportOptions}
 */
export function createTransport(options: TransportOptions): Transport {
  const { clock, limiter, retry, hooks } = options

  const attemptOnce = async <T>(
    request: TransportRequest<T>,
    method: 'GET' | 'POST',
    endpoint: string,
    params: EntrezParams,
    source: string,
    timeoutMs: number,
  ): Promise<Attempt<T>> => {
    const callerSignal = request.call?.signal
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout])
    const query = encodeParams(params)
    let status: number
    let body: string
    let retryAfter: string | null
    try {
      const response =
        method === 'GET'
          ? await options.fetch(`${endpoint}?${query}`, { method, signal })
          : await options.fetch(endpoint, {
              method,
              body: query,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              signal,
            })
      status = response.status
      retryAfter = response.headers.get('retry-after')
      body = await response.text()
    } catch (error) {
      if (callerSignal?.aborted === true) {
        throw abortedError(callerSignal)
      }
      if (timeout.aborted) {
        return {
          ok: false,
          retryable: true,
          error: new PubmatchError(
            'UPSTREAM_TIMEOUT',
            `entrez ${request.utility} did not answer within ${timeoutMs} ms: ${source}`,
            { cause: error, details: { url: source, timeoutMs } },
          ),
        }
      }
      return {
        ok: false,
        retryable: true,
        error: new PubmatchError(
          'NETWORK',
          `entrez ${request.utility} request failed (${describeCause(error)}): ${source}`,
          { cause: error, details: { url: source } },
        ),
      }
    }
    if (status < 200 || status > 299) {
      // An HTTP-date Retry-After is wall time, so it is measured against Date.now(), not the clock.
      const retryAfterMs = parseRetryAfter(retryAfter, Date.now())
      return {
        ok: false,
        retryable: isRetryableStatus(status),
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        error: new PubmatchError(
          'UPSTREAM_HTTP',
          `entrez ${request.utility} answered HTTP ${status} for ${source}: "${truncateForMessage(body)}"`,
          {
            details: {
              url: source,
              status,
              ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
            },
          },
        ),
      }
    }
    try {
      return { ok: true, value: request.parse(body, source), body }
    } catch (error) {
      const wrapped = toPubmatchError(error)
      const retryable =
        wrapped.code === 'MALFORMED_XML' ||
        wrapped.code === 'MALFORMED_JSON' ||
        (wrapped.code === 'UPSTREAM_ERROR' && wrapped.details['transient'] === true)
      return { ok: false, retryable, status, error: wrapped }
    }
  }

  const readCache = async <T>(
    request: TransportRequest<T>,
    key: string,
    source: string,
  ): Promise<T | undefined> => {
    const cache = options.cache
    if (cache === undefined) {
      return undefined
    }
    try {
      const hit = await cache.get(key)
      if (hit === undefined) {
        return undefined
      }
      try {
        const value = request.parse(hit.body, source)
        hooks.onResponse?.({
          utility: request.utility,
          url: source,
          bodyLength: hit.body.length,
          fromCache: true,
          attempts: 0,
        })
        return value
      } catch {
        await cache.delete(key)
        return undefined
      }
    } catch (error) {
      hooks.onCacheError?.(toPubmatchError(error, 'IO'))
      return undefined
    }
  }

  return {
    async send<T>(request: TransportRequest<T>): Promise<T> {
      const callerSignal = request.call?.signal
      if (callerSignal?.aborted === true) {
        throw abortedError(callerSignal)
      }
      const endpoint = `${options.baseUrl}${request.utility}.fcgi`
      const params: EntrezParams = [...request.params, ...options.identity]
      const getUrlLength = endpoint.length + 1 + encodeParams(params).length
      const method =
        request.forcePost === true ||
        countIds(params) > options.maxGetIds ||
        getUrlLength > options.maxGetUrlLength
          ? 'POST'
          : 'GET'
      const source = describeUrl(endpoint, params)
      const cacheMode: CacheMode = request.call?.cache ?? 'use'
      const cacheKey =
        request.cacheable && options.cache !== undefined && cacheMode !== 'bypass'
          ? responseCacheKey(method, endpoint, params)
          : undefined
      if (cacheKey !== undefined && cacheMode === 'use') {
        const cached = await readCache(request, cacheKey, source)
        if (cached !== undefined) {
          return cached
        }
      }
      const timeoutMs = request.call?.timeoutMs ?? options.timeoutMs

      for (let attempt = 1; ; attempt += 1) {
        const slot = await limiter.acquire(callerSignal)
        hooks.onRequest?.({ utility: request.utility, method, url: source, attempt, slot })
        const outcome = await attemptOnce(request, method, endpoint, params, source, timeoutMs)
        if (outcome.ok) {
          if (cacheKey !== undefined && options.cache !== undefined) {
            await options.cache
              .set(cacheKey, outcome.body, `${method} ${source}`)
              .catch((error: unknown) => {
                hooks.onCacheError?.(toPubmatchError(error, 'IO'))
              })
          }
          hooks.onResponse?.({
            utility: request.utility,
            url: source,
            bodyLength: outcome.body.length,
            fromCache: false,
            attempts: attempt,
          })
          return outcome.value
        }
        const { error } = outcome
        error.details['attempts'] = attempt
        if (!outcome.retryable || attempt > retry.retries) {
          throw error
        }
        if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > retry.maxRetryAfterMs) {
          throw error
        }
        const delayMs = outcome.retryAfterMs ?? backoffDelay(attempt, retry)
        if (outcome.retryAfterMs !== undefined) {
          limiter.deferUntil(clock.now() + outcome.retryAfterMs)
        }
        hooks.onRetry?.({
          utility: request.utility,
          url: source,
          attempt,
          delayMs,
          error,
          ...(outcome.status === undefined ? {} : { status: outcome.status }),
          ...(outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs }),
        })
        await clock.sleep(delayMs, callerSignal)
      }
    },
  }
}

function describeCause(error: unknown): string {
  if (isPubmatchError(error)) {
    return error.message
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return `${error.message}${cause}`
  }
  return String(error)
}
