/**
 * The engine being served, and its search workers. An admin reload swaps them atomically: a
 * request keeps the engine it started with (searches are synchronous, so nothing needs a lock),
 * and the old workers stop once the searches they were given are done.
 */
import { isSolrEngine, openSearchPool, type SearchPool, type ServingEngine } from '@pubmatch/engine'

/** The current engine and its workers. */
export interface EngineHolder {
  /** The engine new requests use. */
  readonly current: ServingEngine
  /** Its search workers, with `searchWorkers`. */
  readonly pool: SearchPool | undefined
  /** Prepares an engine as the first one was (and opens its workers), then serves it instead of the current one. */
  swap(engine: ServingEngine): Promise<void>
  /** Stops the workers, those of replaced engines included. */
  close(): Promise<void>
}

/** Options of {@link openEngineHolder}. */
export interface EngineHolderOptions {
  /** Worker threads that run searches, per engine. Defaults to `0`: searches run on the server's thread. */
  readonly searchWorkers?: number
  /** What an engine needs before it is served (its Solr first stage, its full-text side), at start and before a swap. Defaults to nothing. */
  readonly prepare?: (engine: ServingEngine) => Promise<void>
}

/**
 * Prepares the first engine and holds it.
 * @param engine - the engine to serve first
 * @param options - see {@link EngineHolderOptions}
 */
export async function openEngineHolder(engine: ServingEngine, options: EngineHolderOptions = {}): Promise<EngineHolder> {
  const workers = options.searchWorkers ?? 0
  const prepare = async (next: ServingEngine): Promise<SearchPool | undefined> => {
    await options.prepare?.(next)
    // a Solr-only engine's searches wait on Solr, not on this thread: no workers
    return workers > 0 && !isSolrEngine(next) ? openSearchPool(next, { workers }) : undefined
  }
  let current = engine
  let pool = await prepare(engine)
  const retiring: Array<Promise<void>> = []
  return {
    get current() {
      return current
    },
    get pool() {
      return pool
    },
    async swap(next) {
      const nextPool = await prepare(next)
      const retired = pool
      current = next
      pool = nextPool
      if (retired !== undefined) {
        // the old workers finish the searches they were given, then stop
        retiring.push(retired.close().catch(() => undefined))
      }
    },
    async close() {
      await Promise.all([pool?.close(), ...retiring])
    },
  }
}
