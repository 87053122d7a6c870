import { PubmatchError } from '@pubmatch/core'
import { normaliseIds } from './params.ts'
import type { EFetchParams, HistoryRef } from './request-params.ts'
import type { EntrezCallOptions } from './transport.ts'

/** What to fetch in batches: an id list, or a history-server set of known size. */
export type EFetchSource =
  | { readonly ids: ReadonlyArray<string | number> }
  | (HistoryRef & {
      /** How many records the set holds (ESearch `count`, or the number of ids posted). */
      readonly count: number
      /** Where to start within the set. Defaults to `0`. */
      readonly retstart?: number
    })

/** Options of `fetchBatches`. */
export interface FetchBatchesOptions extends EntrezCallOptions {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** Record format, e.g. `abstract`. Defaults to NCBI's full record. */
  readonly rettype?: string
  /** `xml` or `text`. Defaults to `'xml'`. */
  readonly retmode?: string
  /** Records per request. Defaults to `200`. */
  readonly batchSize?: number
  /**
   * Requests in flight at once (they still share the rate limiter); batches are yielded in
   * order regardless. Defaults to `1`.
   */
  readonly concurrency?: number
}

/** One EFetch answer of a batched fetch. */
export interface EFetchBatch {
  /** The ids requested in this batch (id-list sources only). */
  readonly ids?: readonly string[]
  /** Offset of the batch within the id list or history set. */
  readonly retstart: number
  /** Number of records requested. */
  readonly retmax: number
  /** The raw answer (e.g. a `<PubmedArticleSet>`), for the caller to parse. */
  readonly body: string
}

/** One planned batch: the EFetch parameters and what to report with its answer. */
export interface PlannedBatch {
  /** EFetch parameters of the batch. */
  readonly params: EFetchParams
  /** The batch's ids (id-list sources only). */
  readonly ids?: readonly string[]
  /** Offset within the source. */
  readonly retstart: number
  /** Number of records requested. */
  readonly retmax: number
}

/**
 * Plans the EFetch requests of a batched fetch: id lists are cut into consecutive chunks of
 * `batchSize`; history sets are paged with `retstart`/`retmax`.
 * @param source - ids or a history set
 * @param options - database, formats and batch size
 * @throws PubmatchError `INVALID_ARGUMENT` for a batch size below 1
 */
export function planBatches(
  source: EFetchSource,
  options: FetchBatchesOptions = {},
): PlannedBatch[] {
  const batchSize = options.batchSize ?? 200
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `efetch batch size must be a positive integer, got ${batchSize}`,
    )
  }
  const common = {
    db: options.db ?? 'pubmed',
    ...(options.rettype === undefined ? {} : { rettype: options.rettype }),
    retmode: options.retmode ?? 'xml',
  }
  const batches: PlannedBatch[] = []
  if ('ids' in source) {
    const ids = normaliseIds(source.ids)
    for (let start = 0; start < ids.length; start += batchSize) {
      const chunk = ids.slice(start, start + batchSize)
      batches.push({
        params: { ...common, ids: chunk },
        ids: chunk,
        retstart: start,
        retmax: chunk.length,
      })
    }
    return batches
  }
  const history: HistoryRef = { webEnv: source.webEnv, queryKey: source.queryKey }
  for (let start = source.retstart ?? 0; start < source.count; start += batchSize) {
    const retmax = Math.min(batchSize, source.count - start)
    batches.push({
      params: { ...common, history, retstart: start, retmax },
      retstart: start,
      retmax,
    })
  }
  return batches
}

/**
 * Runs tasks with at most `concurrency` in flight and yields their results in task order.
 * When the consumer stops early, `onStop` is called so that in-flight work can be aborted;
 * their failures are then ignored.
 * @param tasks - the work, started lazily
 * @param concurrency - the most tasks in flight. Defaults to `1`.
 * @param onStop - called when the generator finishes or is abandoned
 */
export async function* runOrdered<T>(
  tasks: ReadonlyArray<() => Promise<T>>,
  concurrency = 1,
  onStop?: () => void,
): AsyncGenerator<T, void, undefined> {
  const width = Math.max(1, Math.floor(concurrency))
  const inFlight: Array<Promise<T>> = []
  let next = 0
  const launch = (): void => {
    while (inFlight.length < width && next < tasks.length) {
      const task = tasks[next]
      next += 1
      if (task !== undefined) {
        const promise = task()
        promise.catch(() => undefined)
        inFlight.push(promise)
      }
    }
  }
  try {
    launch()
    while (inFlight.length > 0) {
      const head = inFlight.shift()
      if (head === undefined) {
        break
      }
      const value = await head
      launch()
      yield value
    }
  } finally {
    onStop?.()
  }
}
