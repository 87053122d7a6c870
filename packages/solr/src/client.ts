/**
 * A small Solr HTTP client over `fetch`: the v1 Collections and Configsets APIs, JSON updates,
 * commits and `/select`, with retries of transient failures (connection errors, 5xx, 429) and
 * failover across the nodes it knows. Errors are `PubmatchError`s naming the request and Solr's
 * own message.
 */
import { isPubmatchError, json, parseJson, PubmatchError, truncateForMessage, type JsonShape } from '@pubmatch/core'

/** Options of {@link createSolrClient}. */
export interface SolrClientOptions {
  /**
   * Base URLs of Solr nodes (`http://127.0.0.1:8983/solr`), tried in turn when one fails. At
   * least one.
   */
  readonly urls: readonly string[]
  /** Attempts per request across the nodes before giving up. Defaults to `6`. */
  readonly retries?: number
  /** Wait before the first retry, doubled each time (ms). Defaults to `200`. */
  readonly backoffMs?: number
  /** Per-request timeout (ms). Defaults to `120000`. */
  readonly timeoutMs?: number
  /** The fetch to use. Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch
}

/** Query parameters; arrays repeat the parameter. */
export type SolrParams = Readonly<Record<string, string | number | boolean | readonly (string | number)[] | undefined>>

/** A Solr JSON response (`responseHeader` and the rest). */
export type SolrResponse = Record<string, unknown> & {
  readonly responseHeader?: { readonly status?: number; readonly QTime?: number; readonly partialResults?: boolean }
}

const SOLR_RESPONSE: JsonShape<SolrResponse> = json.object({
  responseHeader: json.optional(
    json.object({ status: json.optional(json.number), QTime: json.optional(json.number), partialResults: json.optional(json.boolean) }),
  ),
})

/** One request. */
export interface SolrRequest {
  /** Path under the base URL (`admin/collections`, `mycoll/select`). */
  readonly path: string
  readonly params?: SolrParams
  /** A JSON body (sent as `application/json`) or raw bytes with `contentType`. */
  readonly body?: unknown
  readonly contentType?: string
  /** Retry transient failures (default). `false` for requests that must not be repeated. */
  readonly retry?: boolean
}

/** The client. */
export interface SolrClient {
  readonly urls: readonly string[]
  /**
   * Sends a request; GET without a body, POST with one.
   * @throws PubmatchError `UPSTREAM_HTTP` (Solr answered with an error status; `details.status`),
   *   `MALFORMED_JSON` (a success whose body is not a JSON object with a `responseHeader` of Solr's shape),
   *   `NETWORK` (no node answered after the retries)
   */
  request(request: SolrRequest): Promise<SolrResponse>
}

/** Statuses worth retrying on another node or later. */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504])

/**
 * Creates a client.
 * @param options - see {@link SolrClientOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` without a URL or with a malformed one
 */
export function createSolrClient(options: SolrClientOptions): SolrClient {
  if (options.urls.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'a Solr client needs at least one base URL')
  }
  const urls = options.urls.map((url) => {
    try {
      const parsed = new URL(url)
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new Error('not http')
      }
    } catch (error) {
      throw new PubmatchError('INVALID_ARGUMENT', `"${truncateForMessage(url)}" is not an http(s) Solr URL`, {
        cause: error,
        details: { url },
      })
    }
    return url.replace(/\/+$/, '')
  })
  const attempts = options.retries ?? 6
  const backoff = options.backoffMs ?? 200
  const timeout = options.timeoutMs ?? 120_000
  const doFetch = options.fetch ?? fetch
  let preferred = 0

  /** One attempt: the answer, its JSON, or why its body is not a Solr JSON response. */
  async function once(base: string, request: SolrRequest): Promise<{ status: number; json?: SolrResponse; text: string; malformed?: PubmatchError }> {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries({ wt: 'json', ...request.params })) {
      if (value === undefined) {
        continue
      }
      for (const one of Array.isArray(value) ? (value as readonly (string | number)[]) : [value as string | number | boolean]) {
        query.append(key, String(one))
      }
    }
    const encoded = query.toString()
    // long queries go as a form body (URLs have length limits); Solr reads both
    const form = request.body === undefined && encoded.length > 4000
    const url = `${base}/${request.path.replace(/^\/+/, '')}${form ? '' : `?${encoded}`}`
    const init: RequestInit = { signal: AbortSignal.timeout(timeout) }
    if (form) {
      init.method = 'POST'
      init.body = encoded
      init.headers = { 'content-type': 'application/x-www-form-urlencoded' }
    } else if (request.body !== undefined) {
      init.method = 'POST'
      if (request.body instanceof Uint8Array) {
        init.body = request.body
        init.headers = { 'content-type': request.contentType ?? 'application/octet-stream' }
      } else {
        init.body = JSON.stringify(request.body)
        init.headers = { 'content-type': 'application/json' }
      }
    }
    const response = await doFetch(url, init)
    const text = await response.text()
    try {
      return { status: response.status, json: parseJson(text, SOLR_RESPONSE, { file: `${base}/${request.path.replace(/^\/+/, '')}` }), text }
    } catch (error) {
      return { status: response.status, text, malformed: error as PubmatchError }
    }
  }

  return {
    urls,
    async request(request) {
      const retry = request.retry !== false
      let last: unknown
      for (let attempt = 0; attempt < (retry ? attempts : 1); attempt++) {
        const base = urls[(preferred + attempt) % urls.length]!
        try {
          const answer = await once(base, request)
          if (answer.status >= 200 && answer.status < 300 && answer.json !== undefined) {
            preferred = (preferred + attempt) % urls.length
            return answer.json
          }
          if (answer.status >= 200 && answer.status < 300 && answer.malformed !== undefined) {
            throw answer.malformed
          }
          const message = solrMessage(answer.json) ?? truncateForMessage(answer.text)
          const error = new PubmatchError(
            'UPSTREAM_HTTP',
            `${request.path} answered ${answer.status}: ${message}`,
            { details: { url: base, path: request.path, status: answer.status } },
          )
          if (!TRANSIENT.has(answer.status)) {
            throw error
          }
          last = error
        } catch (error) {
          if (isPubmatchError(error, 'MALFORMED_JSON') || (isPubmatchError(error, 'UPSTREAM_HTTP') && !TRANSIENT.has(error.details.status ?? 0))) {
            throw error
          }
          last = error
        }
        if (retry && attempt + 1 < attempts) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(backoff * 2 ** attempt, 5000)))
        }
      }
      if (last instanceof PubmatchError) {
        throw last
      }
      throw new PubmatchError(
        'NETWORK',
        `no Solr node answered ${request.path} (${urls.join(', ')}): ${last instanceof Error ? last.message : String(last)}`,
        { cause: last, details: { path: request.path, urls } },
      )
    },
  }
}

/** Solr's own error message of an error response. */
function solrMessage(json: SolrResponse | undefined): string | undefined {
  const error = json?.error as { msg?: unknown; trace?: unknown } | undefined
  if (typeof error?.msg === 'string') {
    return truncateForMessage(error.msg, 400)
  }
  const failure = json?.failure
  if (failure !== undefined) {
    return truncateForMessage(JSON.stringify(failure), 400)
  }
  return undefined
}
