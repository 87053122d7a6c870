/**
 * What a search-pool worker does (the worker entry is `workers/search.worker.ts`): one engine per
 * worker thread, opened from the source in `workerData` on the first task; each task is one
 * `engine.search` and the highlights of its hits. Errors travel back as data (a `PubmatchError`
 * does not survive structured cloning as a class).
 */
import { workerData } from 'node:worker_threads'
import { toPubmatchError, type PubmatchErrorCode } from '@pubmatch/core'
import type { Highlighted } from './highlight.ts'
import { openSearch, type EngineHit, type EngineResult, type EngineSearchOptions, type SearchEngine, type SearchEngineSource } from './search-engine.ts'

/** A hit of a pooled search, with its title and snippet highlighted for the query. */
export interface PooledHit extends EngineHit {
  readonly highlights: { readonly title: Highlighted; readonly snippet: Highlighted }
}

/** A result page of a pooled search. */
export interface PooledResult extends Omit<EngineResult, 'hits'> {
  readonly hits: readonly PooledHit[]
}

/** Options of a pooled search: `engine.search`'s, with a wall-clock deadline (threads do not share `performance.now()`). */
export interface PooledSearchOptions extends Omit<EngineSearchOptions, 'deadline'> {
  /** Stop with `TIMEOUT` once `Date.now()` passes this (milliseconds since the epoch), time spent waiting for a worker included. Defaults to none. */
  readonly deadlineAt?: number
}

/** A task of the pool. */
export type SearchTask = { readonly kind: 'warm' } | { readonly kind: 'search'; readonly query: string; readonly options: PooledSearchOptions }

/** A task's outcome. */
export type SearchTaskOutcome =
  | { readonly ok: true; readonly result?: PooledResult; readonly generation: number; readonly model?: string }
  | { readonly ok: false; readonly code: PubmatchErrorCode; readonly message: string; readonly details: Record<string, unknown> }

let opening: Promise<SearchEngine> | undefined

/**
 * Runs one task in this worker.
 * @param task - a search, or a warm-up (opens the engine)
 */
export async function runSearchTask(task: SearchTask): Promise<SearchTaskOutcome> {
  try {
    opening ??= openSearch(workerData as SearchEngineSource)
    const engine = await opening
    const served = { generation: engine.generation, ...(engine.model === undefined ? {} : { model: engine.model.id }) }
    if (task.kind === 'warm') {
      return { ok: true, ...served }
    }
    const { deadlineAt, ...options } = task.options
    const result = engine.search(task.query, deadlineAt === undefined ? options : { ...options, deadline: performance.now() + (deadlineAt - Date.now()) })
    const hits = result.hits.map((hit) => ({ ...hit, highlights: engine.highlights(hit.document, task.query) }))
    return { ok: true, result: { ...result, hits }, ...served }
  } catch (error) {
    const failure = toPubmatchError(error)
    return { ok: false, code: failure.code, message: failure.message, details: failure.details }
  }
}
