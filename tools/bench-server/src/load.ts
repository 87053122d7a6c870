/**
 * The load generator: autocannon (as a library) sending `GET /search?q=…&size=20` for real PubMed
 * log queries to the server on loopback, for a bounded time, recording every response.
 *
 * autocannon's `overallRate` is split evenly over the connections of one instance, and each
 * connection sends its per-second budget back to back from the start of every second, all
 * connections in step: 50 req/s over 10 connections is a burst of 10 simultaneous requests each
 * second, not one request every 20 ms. A fixed rate of R req/s is therefore driven by R
 * instances of one connection and `overallRate: 1` each, started 1000/R ms apart: requests
 * arrive evenly spaced (open loop as long as a response takes under a second), and the summed
 * `overallRate` is R. The maximum-rate run uses N instances of one connection without a rate
 * (N requests in flight at all times). Each instance walks the query list from its own offset.
 */
import autocannon from 'autocannon'
import { rotate, searchPath } from './stats.ts'

/** How requests are sent. */
export type LoadMode =
  /** `rate` requests per second, evenly spaced. */
  | { readonly kind: 'paced'; readonly rate: number }
  /** As fast as the server answers, `connections` requests in flight. */
  | { readonly kind: 'max'; readonly connections: number }
  /** One autocannon instance, `connections` connections, `overallRate` (its own burst pacing). */
  | { readonly kind: 'burst'; readonly rate: number; readonly connections: number }

/** Something done during a run (an admin swap). */
export interface LoadEvent {
  readonly name: string
  /** Seconds after the run's start. */
  readonly atSeconds: number
  readonly run: () => Promise<Readonly<Record<string, unknown>>>
}

/** What happened at an event. */
export interface EventRecord {
  readonly name: string
  /** Milliseconds after the run's start when it began and ended. */
  readonly startMs: number
  readonly endMs: number
  readonly ok: boolean
  readonly detail: Readonly<Record<string, unknown>>
}

/** One response. */
export interface ResponseRecord {
  /** Milliseconds after the run's start when the response was complete. */
  readonly atMs: number
  readonly status: number
  /** Request written → response complete, as the client saw it (autocannon's `responseTime`). */
  readonly latencyMs: number
  readonly bytes: number
  /** Index into the query list. */
  readonly query: number
  /** From the JSON of a 200 answer. */
  readonly summary?: SearchSummary
}

/** The fields of a search answer the report needs. */
export interface SearchSummary {
  readonly total: number
  readonly reranked: boolean
  readonly fallback: boolean
  readonly generation: number
  readonly model?: string
  /** The engine's own time for the search (`tookMs`). */
  readonly tookMs: number
}

/** A finished run. */
export interface LoadResult {
  readonly mode: LoadMode
  readonly seconds: number
  readonly wallSeconds: number
  readonly responses: readonly ResponseRecord[]
  /** Socket errors and timeouts (autocannon's `errors`, which include `timeouts`). */
  readonly errors: number
  readonly timeouts: number
  /** Summed over the instances. */
  readonly non2xx: number
  readonly statusCounts: Readonly<Record<string, number>>
  readonly requestsSent: number
  readonly events: readonly EventRecord[]
}

/**
 * The summary fields of a `/search` answer, read without parsing the whole body (the hits are
 * most of it). The keys looked for occur once, at the top level, in any order: a hit has none
 * of them, and a `"` inside a string value (the query, a title) is escaped, so `"total":` can
 * only be the key. `undefined` when the body is not a search answer.
 * @param body - the response body
 */
export function parseSearchSummary(body: string): SearchSummary | undefined {
  const total = /"total":(\d+)/.exec(body)
  const reranked = /"reranked":(true|false)/.exec(body)
  const generation = /"generation":(\d+)/.exec(body)
  const took = /"tookMs":([-+\d.eE]+)/.exec(body)
  if (total === null || reranked === null || generation === null || took === null) {
    return undefined
  }
  const model = /"model":"((?:[^"\\]|\\.)*)"/.exec(body)
  return {
    total: Number(total[1]),
    reranked: reranked[1] === 'true',
    fallback: body.includes('"fallback":{'),
    generation: Number(generation[1]),
    ...(model === null ? {} : { model: model[1]! }),
    tookMs: Number(took[1]),
  }
}

/**
 * Runs the load for `seconds` and returns every response.
 * @param options - server URL, queries (as typed), page size, duration, mode, events, progress
 */
export async function runLoad(options: {
  readonly url: string
  readonly queries: readonly string[]
  readonly size: number
  readonly seconds: number
  readonly mode: LoadMode
  readonly events?: readonly LoadEvent[]
  /**
   * Go on past `seconds` until every event has finished and then `tailSeconds` more, but never
   * past `maxSeconds` (so a slow swap is measured to its end and beyond).
   */
  readonly extend?: { readonly tailSeconds: number; readonly maxSeconds: number }
  readonly onProgress?: (text: string) => void
}): Promise<LoadResult> {
  const { mode, queries } = options
  const instances = mode.kind === 'paced' ? mode.rate : mode.kind === 'max' ? mode.connections : 1
  const spacingMs = mode.kind === 'paced' ? 1000 / mode.rate : 0
  const responses: ResponseRecord[] = []
  const events: EventRecord[] = []
  const t0 = performance.now()
  const now = (): number => performance.now() - t0
  const statusCounts: Record<string, number> = {}
  let errors = 0
  let timeouts = 0
  let non2xx = 0
  let requestsSent = 0

  const handles: autocannon.Instance[] = []
  const duration = options.extend?.maxSeconds ?? options.seconds
  const startInstance = (i: number): Promise<void> => {
    const offset = Math.floor((i * queries.length) / instances)
    const order = rotate(
      queries.map((_, q) => q),
      offset,
    )
    // autocannon calls onResponse and then emits 'response' for the same answer, synchronously
    let last: { query: number; summary?: SearchSummary } | undefined
    const requests = order.map((q) => ({
      method: 'GET',
      path: searchPath(queries[q]!, options.size),
      onResponse: (status: number, body: string) => {
        const summary = status === 200 ? parseSearchSummary(body) : undefined
        last = { query: q, ...(summary === undefined ? {} : { summary }) }
      },
    }))
    return new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url: options.url,
          connections: mode.kind === 'burst' ? mode.connections : 1,
          ...(mode.kind === 'paced' ? { overallRate: 1 } : mode.kind === 'burst' ? { overallRate: mode.rate } : {}),
          duration,
          timeout: 10,
          requests,
        },
        (error, result) => {
          if (error !== null) {
            reject(error)
            return
          }
          errors += result.errors
          timeouts += result.timeouts
          non2xx += result.non2xx
          requestsSent += result.requests.sent ?? 0
          for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
            statusCounts[status] = (statusCounts[status] ?? 0) + count
          }
          resolve()
        },
      )
      handles.push(instance)
      instance.on('response', (_client: unknown, status: number, bytes: number, responseTime: number) => {
        const seen = last
        last = undefined
        responses.push({
          atMs: now(),
          status,
          latencyMs: responseTime,
          bytes,
          query: seen?.query ?? -1,
          ...(seen?.summary === undefined ? {} : { summary: seen.summary }),
        })
      })
    })
  }

  const running: Array<Promise<void>> = []
  for (let i = 0; i < instances; i++) {
    const delay = i * spacingMs - now()
    if (delay > 0) {
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
    running.push(startInstance(i))
  }
  const eventRuns = (options.events ?? []).map(async (event) => {
    const delay = event.atSeconds * 1000 - now()
    if (delay > 0) {
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
    const startMs = now()
    options.onProgress?.(`${event.name} at ${(startMs / 1000).toFixed(1)} s`)
    try {
      const detail = await event.run()
      events.push({ name: event.name, startMs, endMs: now(), ok: true, detail })
    } catch (error) {
      events.push({ name: event.name, startMs, endMs: now(), ok: false, detail: { error: (error as Error).message } })
    }
    options.onProgress?.(`${event.name} done in ${(now() - startMs).toFixed(0)} ms`)
  })
  const ticker = setInterval(() => {
    options.onProgress?.(`${(now() / 1000).toFixed(0)} s: ${responses.length} responses`)
  }, 10_000)
  let stoppedAt: number | undefined
  if (options.extend !== undefined) {
    const { tailSeconds, maxSeconds } = options.extend
    void Promise.all(eventRuns).then(async () => {
      const end = Math.min(maxSeconds * 1000, Math.max(options.seconds * 1000, now() + tailSeconds * 1000))
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - now())))
      stoppedAt = now()
      for (const handle of handles) {
        handle.stop()
      }
    })
  }
  try {
    await Promise.all([...running, ...eventRuns])
  } finally {
    clearInterval(ticker)
  }
  return {
    mode,
    seconds: stoppedAt === undefined ? duration : stoppedAt / 1000,
    wallSeconds: now() / 1000,
    responses,
    errors,
    timeouts,
    non2xx,
    statusCounts,
    requestsSent,
    events: events.sort((a, b) => a.startMs - b.startMs),
  }
}
