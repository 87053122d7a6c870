/**
 * The queries of the scale benchmark: real PubMed log queries, drawn as tools/bench-search's
 * `log-pubmed` set is, and the per-query timing loop both engines share.
 */
import type { Query } from '@pubmatch/core'
import { isPubmatchError } from '@pubmatch/core'
import { sampleQueries } from '@pubmatch/synth'

/** The seed of the log-query sample (tools/bench-search's `LOG_QUERY_SEED`). */
export const LOG_QUERY_SEED = 1

/** Warm-up and measured queries, disjoint. */
export interface LogQueries {
  readonly warmup: readonly Query[]
  readonly measured: readonly Query[]
}

/**
 * Real 1–5-term queries of NCBI's PubMed log (`sampleQueries` of tools/synth, seed
 * {@link LOG_QUERY_SEED}): the first `warmup` warm up, the next `measured` are measured — the
 * same draw as tools/bench-search's `logQuerySample`, so the same sizes give the same queries.
 * @param measured - measured queries
 * @param warmup - warm-up queries
 */
export function logQueries(measured: number, warmup: number): LogQueries {
  const sample = sampleQueries({
    count: measured + warmup,
    seed: LOG_QUERY_SEED,
    minTerms: 1,
    maxTerms: 5,
  }).map((entry): Query => ({ id: entry.qid, text: entry.text }))
  return { warmup: sample.slice(0, warmup), measured: sample.slice(warmup) }
}

/** What one engine answers: the match count (and, for Solr, its own time). */
export interface Answer {
  readonly total: number
  readonly qtimeMs?: number
}

/** The samples of the measured passes over one query set. */
export interface PassSamples {
  /** Wall ms per answered query, one array per pass. */
  readonly latencies: number[][]
  /** Solr's QTime per sent query, one array per pass. */
  readonly qtimes: number[][]
  /** Failures by error code (pass 1; failing queries are skipped after). */
  readonly failed: Record<string, number>
  /** Match counts of pass 1 by query id. */
  readonly totals: Record<string, number>
}

/**
 * Runs queries one at a time: the warm-up once (failures ignored), then `passes` passes over
 * the measured ones, timing each call. A query that fails in pass 1 is counted by error code and
 * skipped afterwards; a failure in a later pass is rethrown.
 * @param queries - warm-up and measured queries
 * @param passes - measured passes
 * @param run - answers one query (sync or async)
 * @param options - `sent(query)`: whether a query's QTime counts; `onPass(pass)`: progress;
 *   `check()`: called before each query (throws to stop); `onFailure(error, failed)`: called
 *   after a pass-1 failure is counted (throws to stop)
 */
export async function runPasses(
  queries: LogQueries,
  passes: number,
  run: (text: string) => Answer | Promise<Answer>,
  options: {
    sent?: (query: Query) => boolean
    onPass?: (pass: number) => void
    check?: () => void
    onFailure?: (error: unknown, failed: Readonly<Record<string, number>>) => void
  } = {},
): Promise<PassSamples> {
  for (const query of queries.warmup) {
    options.check?.()
    try {
      await run(query.text)
    } catch {
      // warm-up failures are counted on the measured queries
    }
  }
  const samples: PassSamples = { latencies: [], qtimes: [], failed: {}, totals: {} }
  const skipped = new Set<string>()
  for (let pass = 0; pass < passes; pass++) {
    const latencies: number[] = []
    const qtimes: number[] = []
    for (const query of queries.measured) {
      if (skipped.has(query.id)) {
        continue
      }
      options.check?.()
      const t = performance.now()
      let answer: Answer
      try {
        const pending = run(query.text)
        answer = pending instanceof Promise ? await pending : pending
      } catch (error) {
        if (pass > 0) {
          throw error
        }
        skipped.add(query.id)
        const code = isPubmatchError(error) ? error.code : 'OTHER'
        samples.failed[code] = (samples.failed[code] ?? 0) + 1
        options.onFailure?.(error, samples.failed)
        continue
      }
      latencies.push(performance.now() - t)
      if (answer.qtimeMs !== undefined && options.sent?.(query) !== false) {
        qtimes.push(answer.qtimeMs)
      }
      if (pass === 0) {
        samples.totals[query.id] = answer.total
      }
    }
    samples.latencies.push(latencies)
    samples.qtimes.push(qtimes)
    options.onPass?.(pass + 1)
  }
  return samples
}
