import { PubmatchError } from '@pubmatch/core'
import { systemClock, type Clock } from './clock.ts'
import { checkEFetchBody } from './check-efetch.ts'
import {
  planBatches,
  runOrdered,
  type EFetchBatch,
  type EFetchSource,
  type FetchBatchesOptions,
} from './fetch-batches.ts'
import type { EntrezHooks } from './hooks.ts'
import { toParams } from './params.ts'
import type { EntrezFormat } from './parse-common.ts'
import { parseEInfo, type EInfoResult } from './parse-einfo.ts'
import { parseELink, type ELinkResult } from './parse-elink.ts'
import { parseEPost, type EPostResult } from './parse-epost.ts'
import { parseESearch, type ESearchResult } from './parse-esearch.ts'
import { parseESpell, type ESpellResult } from './parse-espell.ts'
import { parseESummary, type ESummaryResult } from './parse-esummary.ts'
import { createRateLimiter, defaultRequestsPerSecond, type RateLimiter } from './rate-limiter.ts'
import {
  efetchParams,
  einfoParams,
  elinkParams,
  epostParams,
  esearchParams,
  espellParams,
  esummaryParams,
  type EFetchParams,
  type EInfoParams,
  type ELinkParams,
  type EPostParams,
  type ESearchParams,
  type ESpellParams,
  type ESummaryParams,
} from './request-params.ts'
import type { ResponseCache } from './response-cache.ts'
import { resolveRetryOptions, type RetryOptions } from './retry.ts'
import { searchAllIds, type SearchAllParams, type SearchAllResult } from './search-all.ts'
import { createTransport, type EntrezCallOptions } from './transport.ts'

/** The default E-utilities base URL. */
export const DEFAULT_EUTILS_BASE_URL = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/'

/** Options of {@link createEntrezClient}. Every field has a default. */
export interface EntrezClientOptions extends EntrezHooks {
  /** NCBI API key (raises the rate limit to 10/s). Sent with every request, never cached or logged. */
  apiKey?: string
  /** The `tool` parameter NCBI asks for. Defaults to `'pubmatch'`. */
  tool?: string
  /** The `email` parameter NCBI asks for, so that it can contact you before blocking. Defaults to none. */
  email?: string
  /** E-utilities base URL. Defaults to {@link DEFAULT_EUTILS_BASE_URL}. */
  baseUrl?: string
  /** The fetch implementation. Defaults to Node's global `fetch`. */
  fetch?: typeof fetch
  /**
   * The rate limiter, to share one budget between clients. Defaults to a new limiter of
   * {@link defaultRequestsPerSecond} (3/s, or 10/s with `apiKey`) on `clock`.
   */
  rateLimiter?: RateLimiter
  /** Clock for rate limiting and backoff. Defaults to {@link systemClock}. */
  clock?: Clock
  /** Per-attempt timeout in milliseconds (connection to end of body). Defaults to `30000`. */
  timeoutMs?: number
  /** Retry policy. Defaults: 4 retries, 1 s base, 30 s cap, 50 % jitter. */
  retry?: RetryOptions
  /** Response cache. Defaults to none (no caching; this is what `--no-cache` gives). */
  cache?: ResponseCache
  /** Answer format of ESearch, ESummary, ELink and EInfo. Defaults to `'xml'`. */
  retmode?: EntrezFormat
  /** Requests with more ids than this go by POST. Defaults to `200`. */
  maxGetIds?: number
  /** Requests whose GET URL would be longer than this go by POST. Defaults to `2000`. */
  maxGetUrlLength?: number
}

/** An NCBI E-utilities client; create one with {@link createEntrezClient}. */
export interface EntrezClient {
  /** The limiter all requests of this client go through (pass it to other clients to share it). */
  readonly rateLimiter: RateLimiter
  /** ESearch: UIDs matching a query (one page). */
  esearch(params: ESearchParams, call?: EntrezCallOptions): Promise<ESearchResult>
  /** ESummary: document summaries of UIDs or a history set. */
  esummary(params: ESummaryParams, call?: EntrezCallOptions): Promise<ESummaryResult>
  /** ELink: linked UIDs (neighbours with scores, citations, LinkOut…). */
  elink(params: ELinkParams, call?: EntrezCallOptions): Promise<ELinkResult>
  /** ESpell: spelling suggestion for a query. */
  espell(params: ESpellParams, call?: EntrezCallOptions): Promise<ESpellResult>
  /** EInfo: the database list, or one database's fields and links. */
  einfo(params?: EInfoParams, call?: EntrezCallOptions): Promise<EInfoResult>
  /** EPost: stores UIDs on the history server (always POST, never cached). */
  epost(params: EPostParams, call?: EntrezCallOptions): Promise<EPostResult>
  /** EFetch: one request; returns the raw body (checked for well-formedness when XML). */
  efetch(params: EFetchParams, call?: EntrezCallOptions): Promise<string>
  /**
   * EFetch in batches: ids in chunks of `batchSize` (default 200), or a history set paged by
   * `retstart`/`retmax`. Yields one raw body per batch, in order.
   */
  fetchBatches(
    source: EFetchSource,
    options?: FetchBatchesOptions,
  ): AsyncGenerator<EFetchBatch, void, undefined>
  /**
   * Every UID of a query, also above ESearch's 9,999 cap, by splitting the result set on
   * publication-date ranges.
   */
  searchAll(params: SearchAllParams, call?: EntrezCallOptions): Promise<SearchAllResult>
}

function positive(value: number, name: string): number {
  if (!(value > 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `entrez ${name} must be > 0, got ${value}`)
  }
  return value
}

/**
 * Creates an E-utilities client: one rate limiter shared by all its requests, retries with
 * exponential backoff and jitter on 429/5xx/network errors/malformed bodies (honouring
 * `Retry-After`), per-attempt timeouts, POST for long id lists, and an optional persistent
 * response cache.
 * @param options - see {@link EntrezClientOptions}
 */
export function createEntrezClient(options: EntrezClientOptions = {}): EntrezClient {
  const clock = options.clock ?? systemClock
  const rateLimiter =
    options.rateLimiter ??
    createRateLimiter({ requestsPerSecond: defaultRequestsPerSecond(options.apiKey), clock })
  const baseUrl = (options.baseUrl ?? DEFAULT_EUTILS_BASE_URL).replace(/\/*$/, '/')
  const retmode = options.retmode ?? 'xml'
  const transport = createTransport({
    baseUrl,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    limiter: rateLimiter,
    clock,
    timeoutMs: positive(options.timeoutMs ?? 30_000, 'timeoutMs'),
    retry: resolveRetryOptions(options.retry),
    cache: options.cache,
    identity: toParams({
      tool: options.tool ?? 'pubmatch',
      email: options.email,
      api_key: options.apiKey === '' ? undefined : options.apiKey,
    }),
    maxGetIds: positive(options.maxGetIds ?? 200, 'maxGetIds'),
    maxGetUrlLength: positive(options.maxGetUrlLength ?? 2000, 'maxGetUrlLength'),
    hooks: {
      ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
      ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
      ...(options.onResponse === undefined ? {} : { onResponse: options.onResponse }),
      ...(options.onCacheError === undefined ? {} : { onCacheError: options.onCacheError }),
    },
  })

  const efetch = async (params: EFetchParams, call?: EntrezCallOptions): Promise<string> => {
    const mode = params.retmode ?? 'xml'
    return await transport.send({
      utility: 'efetch',
      params: efetchParams(params),
      parse: (body, source) => {
        checkEFetchBody(body, mode, source)
        return body
      },
      cacheable: true,
      ...(call === undefined ? {} : { call }),
    })
  }

  const esearch = async (
    params: ESearchParams,
    call?: EntrezCallOptions,
  ): Promise<ESearchResult> => {
    const format = params.retmode ?? retmode
    return await transport.send({
      utility: 'esearch',
      params: esearchParams(params, format),
      parse: (body, source) => parseESearch(body, format, source),
      // A history-server answer names server-side state that expires; never replay it.
      cacheable: params.usehistory !== true,
      ...(call === undefined ? {} : { call }),
    })
  }

  return {
    rateLimiter,
    esearch,
    async esummary(params, call) {
      const format = params.retmode ?? retmode
      return await transport.send({
        utility: 'esummary',
        params: esummaryParams(params, format),
        parse: (body, source) => parseESummary(body, format, source),
        cacheable: true,
        ...(call === undefined ? {} : { call }),
      })
    },
    async elink(params, call) {
      const format = params.retmode ?? retmode
      return await transport.send({
        utility: 'elink',
        params: elinkParams(params, format),
        parse: (body, source) => parseELink(body, format, source),
        cacheable: params.cmd !== 'neighbor_history',
        ...(call === undefined ? {} : { call }),
      })
    },
    async espell(params, call) {
      return await transport.send({
        utility: 'espell',
        params: espellParams(params),
        parse: (body, source) => parseESpell(body, source),
        cacheable: true,
        ...(call === undefined ? {} : { call }),
      })
    },
    async einfo(params = {}, call) {
      const format = params.retmode ?? retmode
      return await transport.send({
        utility: 'einfo',
        params: einfoParams(params, format),
        parse: (body, source) => parseEInfo(body, format, source),
        cacheable: true,
        ...(call === undefined ? {} : { call }),
      })
    },
    async epost(params, call) {
      return await transport.send({
        utility: 'epost',
        params: epostParams(params),
        parse: (body, source) => parseEPost(body, source),
        cacheable: false,
        forcePost: true,
        ...(call === undefined ? {} : { call }),
      })
    },
    efetch,
    async *fetchBatches(source, batchOptions = {}) {
      const batches = planBatches(source, batchOptions)
      const stop = new AbortController()
      const signal =
        batchOptions.signal === undefined
          ? stop.signal
          : AbortSignal.any([batchOptions.signal, stop.signal])
      const call: EntrezCallOptions = {
        signal,
        ...(batchOptions.cache === undefined ? {} : { cache: batchOptions.cache }),
        ...(batchOptions.timeoutMs === undefined ? {} : { timeoutMs: batchOptions.timeoutMs }),
      }
      const tasks = batches.map((batch) => async (): Promise<EFetchBatch> => {
        const body = await efetch(batch.params, call)
        return {
          ...(batch.ids === undefined ? {} : { ids: batch.ids }),
          retstart: batch.retstart,
          retmax: batch.retmax,
          body,
        }
      })
      yield* runOrdered(tasks, batchOptions.concurrency ?? 1, () => stop.abort())
    },
    async searchAll(params, call) {
      return await searchAllIds(esearch, params, call)
    },
  }
}
