/**
 * The load of the rerank benchmark: one client (each query after the previous answer) and a paced
 * open-loop rate (request i is due at i / rate seconds, whether or not the earlier ones have
 * answered, bounded by a request count), each request's latency counted from the moment it was
 * due, so waiting behind a slow request counts (no coordinated omission). The summaries of the
 * samples are pure and tested.
 */
import { summarize, type SampleSummary } from '@pubmatch/bench-kit'
import { isPubmatchError, json, type JsonShape } from '@pubmatch/core'

/** One request as the load recorded it. */
export interface RequestSample {
  /** Index in the run. */
  readonly i: number
  /** ms from the run's start to when the request was due. */
  readonly due: number
  /** ms from due to the answer (or the failure). */
  readonly ms: number
  /** Error code when it failed. */
  readonly error?: string
  /** ms of the first request (the first stage: top depth, exact total). */
  readonly aMs?: number
  /** ms of the second request (the rerank in Solr), when there is one. */
  readonly bMs?: number
  /** Whether the model reordered the candidates (false: no match, a fallback or one candidate). */
  readonly reranked?: boolean
  /** A label of the run's state when the request was due (e.g. `node-down`, `model-B`). */
  readonly state?: string
}

/** What one query answered, as timed by the caller. */
export interface Answered {
  readonly aMs?: number
  readonly bMs?: number
  readonly reranked?: boolean
}

/** A summary of a run's samples. */
export interface LoadSummary {
  readonly requests: number
  readonly failed: number
  /** Failures by error code. */
  readonly failures: Readonly<Record<string, number>>
  /** Seconds from the first due time to the last answer. */
  readonly seconds: number
  /** Answered requests per second over `seconds`. */
  readonly throughput: number
  /** Latency of the answered requests (ms from due), `NaN`s when none. */
  readonly latency: SampleSummary
  /** Of the reranked answers: ms of request (a), of request (b). */
  readonly a?: SampleSummary
  readonly b?: SampleSummary
  /** Σ a / Σ (a + b) over the answers that have both. */
  readonly shareA?: number
  readonly reranked: number
}

/** The shape of a {@link SampleSummary} (NaN read back from null). */
export const SAMPLE_SUMMARY: JsonShape<SampleSummary> = json.object({
  count: json.count,
  mean: json.numberOrNaN,
  min: json.numberOrNaN,
  max: json.numberOrNaN,
  p50: json.numberOrNaN,
  p90: json.numberOrNaN,
  p95: json.numberOrNaN,
  p99: json.numberOrNaN,
})

/** The shape of {@link LoadSummary} (NaN is written as null and read back as NaN). */
export const LOAD_SUMMARY: JsonShape<LoadSummary> = json.object({
  requests: json.count,
  failed: json.count,
  failures: json.record(json.count),
  seconds: json.numberOrNaN,
  throughput: json.numberOrNaN,
  latency: SAMPLE_SUMMARY,
  a: json.optional(SAMPLE_SUMMARY),
  b: json.optional(SAMPLE_SUMMARY),
  shareA: json.optional(json.numberOrNaN),
  reranked: json.count,
})

/**
 * Summarises a run's samples (or those of a window of it).
 * @param samples - the requests
 */
export function summarizeLoad(samples: readonly RequestSample[]): LoadSummary {
  const ok = samples.filter((s) => s.error === undefined)
  const failures: Record<string, number> = {}
  for (const s of samples) {
    if (s.error !== undefined) {
      failures[s.error] = (failures[s.error] ?? 0) + 1
    }
  }
  const start = Math.min(...samples.map((s) => s.due))
  const end = Math.max(...samples.map((s) => s.due + s.ms))
  const seconds = samples.length === 0 ? 0 : (end - start) / 1000
  const both = ok.filter((s) => s.aMs !== undefined && s.bMs !== undefined)
  const sumA = both.reduce((sum, s) => sum + s.aMs!, 0)
  const sumB = both.reduce((sum, s) => sum + s.bMs!, 0)
  return {
    requests: samples.length,
    failed: samples.length - ok.length,
    failures,
    seconds,
    throughput: seconds > 0 ? ok.length / seconds : Number.NaN,
    latency: summarize(
      ok.map((s) => s.ms),
      { empty: 'nan' },
    ),
    ...(both.length === 0
      ? {}
      : {
          a: summarize(both.map((s) => s.aMs!)),
          b: summarize(both.map((s) => s.bMs!)),
          shareA: sumA / (sumA + sumB),
        }),
    reranked: ok.filter((s) => s.reranked === true).length,
  }
}

/**
 * The samples due within `halfWidthMs` of a moment (e.g. the 10 s window around a model switch:
 * 5 s on each side).
 * @param samples - the requests
 * @param at - ms from the run's start
 * @param halfWidthMs - half the window
 */
export function windowAround(
  samples: readonly RequestSample[],
  at: number,
  halfWidthMs: number,
): RequestSample[] {
  return samples.filter((s) => s.due >= at - halfWidthMs && s.due < at + halfWidthMs)
}

/**
 * When each request of a paced run is due: `i × 1000 / rate` ms after the start.
 * @param count - requests
 * @param rate - requests per second
 */
export function dueTimes(count: number, rate: number): number[] {
  return Array.from({ length: count }, (_, i) => (i * 1000) / rate)
}

function errorCode(error: unknown): string {
  return isPubmatchError(error) ? error.code : error instanceof Error ? error.name : 'OTHER'
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

/** Options of {@link runPaced} and {@link runSerial}. */
export interface LoadOptions {
  /** Called after each request is due (e.g. to stop a node at request k). */
  readonly onDue?: (i: number, dueMs: number) => void
  /** A progress line every this many requests. */
  readonly progressEvery?: number
  readonly progress?: (text: string) => void
  /** The run's state when a request is due (recorded as its `state`). */
  readonly state?: () => string
}

/**
 * An open-loop paced run: request `i` is started when it is due (`i / rate` s after the start),
 * whatever the earlier ones are doing; its latency counts from its due time. A synchronous `run`
 * (the embedded engine) blocks the loop, so the next request starts late and its wait counts.
 * @param count - requests
 * @param rate - requests per second
 * @param run - answers request `i` (its query chosen by the caller)
 * @param options - hooks
 */
export async function runPaced(
  count: number,
  rate: number,
  run: (i: number) => Answered | Promise<Answered>,
  options: LoadOptions = {},
): Promise<RequestSample[]> {
  const due = dueTimes(count, rate)
  const t0 = performance.now()
  const pending: Promise<RequestSample>[] = []
  for (let i = 0; i < count; i++) {
    const wait = t0 + due[i]! - performance.now()
    if (wait > 0) {
      await sleep(wait)
    }
    options.onDue?.(i, due[i]!)
    pending.push(timeOne(i, t0, due[i]!, run, options.state?.()))
    if (options.progressEvery !== undefined && (i + 1) % options.progressEvery === 0) {
      options.progress?.(`${i + 1} of ${count} requests sent`)
    }
  }
  return Promise.all(pending)
}

/**
 * One client: each request when the previous one has answered.
 * @param count - requests
 * @param run - answers request `i`
 * @param options - hooks
 */
export async function runSerial(
  count: number,
  run: (i: number) => Answered | Promise<Answered>,
  options: LoadOptions = {},
): Promise<RequestSample[]> {
  const t0 = performance.now()
  const out: RequestSample[] = []
  for (let i = 0; i < count; i++) {
    const due = performance.now() - t0
    options.onDue?.(i, due)
    out.push(await timeOne(i, t0, due, run, options.state?.()))
    if (options.progressEvery !== undefined && (i + 1) % options.progressEvery === 0) {
      options.progress?.(`${i + 1} of ${count} requests answered`)
    }
  }
  return out
}

async function timeOne(
  i: number,
  t0: number,
  due: number,
  run: (i: number) => Answered | Promise<Answered>,
  state: string | undefined,
): Promise<RequestSample> {
  const label = state === undefined ? {} : { state }
  try {
    const pending = run(i)
    const answer = pending instanceof Promise ? await pending : pending
    return { i, due, ms: performance.now() - t0 - due, ...label, ...answer }
  } catch (error) {
    return { i, due, ms: performance.now() - t0 - due, ...label, error: errorCode(error) }
  }
}
