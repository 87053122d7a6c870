/**
 * Searches on more than one core: a piscina pool of worker threads, each holding its own copy of
 * an engine (opened from `engine.openedWith`). A Node process otherwise runs every search on its
 * one event loop, so under load a request waits for the searches before it; with a pool the main
 * thread only parses, queues and answers. Each worker costs the engine's memory again.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import { PubmatchError } from '@pubmatch/core'
import { workerExecArgv } from '@pubmatch/core/internal'
import type { PooledResult, PooledSearchOptions, SearchTask, SearchTaskOutcome } from './search-pool-task.ts'
import type { SearchEngine } from './search-engine.ts'

/** Options of {@link openSearchPool}. */
export interface SearchPoolOptions {
  /** Worker threads (each opens the engine). */
  readonly workers: number
  /** The worker file. Defaults to this package's `dist/workers/search.worker.js`. */
  readonly workerFilename?: string
}

/** Searches of one engine, run on worker threads. */
export interface SearchPool {
  readonly workers: number
  /** The index generation the workers search. */
  readonly generation: number
  /** The model id the workers rerank with, if any. */
  readonly model?: string
  /**
   * A result page, with each hit's highlights.
   * @param query - PubMed syntax (or plain text for test collections)
   * @param options - `engine.search`'s options, with `deadlineAt` (wall clock) instead of `deadline`
   * @throws PubmatchError as `engine.search` does (`TIMEOUT` past `deadlineAt`)
   */
  search(query: string, options?: PooledSearchOptions): Promise<PooledResult>
  /** Lets the searches under way finish, then stops the workers. */
  close(): Promise<void>
}

/**
 * The built worker entry of this package (`dist/workers/search.worker.js`), resolved from the
 * sources as well as from `dist`.
 */
function defaultWorkerFilename(): string {
  return fileURLToPath(new URL('../dist/workers/search.worker.js', import.meta.url))
}

/**
 * Starts worker threads that each open the engine `engine` was opened from, and waits until they
 * have.
 * @param engine - an open engine (its `openedWith` is what the workers open)
 * @param options - see {@link SearchPoolOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a worker count that is not a positive integer,
 *   `NOT_FOUND` when the worker file is missing (the package is not built), or what opening the
 *   engine throws in a worker
 */
export async function openSearchPool(engine: SearchEngine, options: SearchPoolOptions): Promise<SearchPool> {
  const workers = options.workers
  if (!Number.isInteger(workers) || workers < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `a search pool needs a positive whole number of workers, got ${String(workers)}`)
  }
  const filename = options.workerFilename ?? defaultWorkerFilename()
  if (!existsSync(filename)) {
    throw new PubmatchError('NOT_FOUND', `the search worker ${filename} is missing; run \`pnpm --filter @pubmatch/engine build\` first`, {
      details: { file: filename },
    })
  }
  const threads = new Piscina<SearchTask, SearchTaskOutcome>({ filename, workerData: engine.openedWith, minThreads: workers, maxThreads: workers, execArgv: workerExecArgv(process.execArgv) })
  const unwrap = (outcome: SearchTaskOutcome): SearchTaskOutcome & { ok: true } => {
    if (!outcome.ok) {
      throw new PubmatchError(outcome.code, outcome.message, { details: outcome.details })
    }
    return outcome
  }
  let served: SearchTaskOutcome & { ok: true }
  try {
    // as many warm-ups as workers, at once: each idle worker takes one and opens the engine
    served = (await Promise.all(Array.from({ length: workers }, () => threads.run({ kind: 'warm' })))).map(unwrap)[0]!
  } catch (error) {
    await threads.destroy()
    throw error
  }
  return {
    workers,
    generation: served.generation,
    ...(served.model === undefined ? {} : { model: served.model }),
    async search(query, searchOptions = {}) {
      const outcome = unwrap(await threads.run({ kind: 'search', query, options: searchOptions }))
      return outcome.result!
    },
    close: () => threads.close(),
  }
}
