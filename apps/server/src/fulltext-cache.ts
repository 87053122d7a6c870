/**
 * Each engine's full-text side (`fulltext=` searches) with its section model compiled: opened
 * with the engine (at start and before a reload swaps it in) when the index has one, else on
 * first use. A failed opening is forgotten, so the next request tries again.
 */
import { existsSync } from 'node:fs'
import { fulltextDir, isSolrEngine, openFulltext, type FulltextSearch, type SearchEngine, type ServingEngine } from '@pubmatch/engine'

/** The full-text sides of the engines served. */
export interface FulltextCache {
  /** The engine's full-text side, opened on first use. */
  of(engine: SearchEngine): Promise<FulltextSearch>
  /** Opens it ahead of the first request when the index has a full-text index; an unreadable one fails its own requests, not the server. */
  warm(engine: ServingEngine): Promise<void>
}

/** Creates the cache (one per server; entries go with their engine). */
export function createFulltextCache(): FulltextCache {
  const opened = new WeakMap<SearchEngine, Promise<FulltextSearch>>()
  const of = (engine: SearchEngine): Promise<FulltextSearch> => {
    let fulltext = opened.get(engine)
    if (fulltext === undefined) {
      fulltext = openFulltext(engine, { compile: true })
      opened.set(engine, fulltext)
      fulltext.catch(() => opened.delete(engine))
    }
    return fulltext
  }
  return {
    of,
    async warm(engine) {
      if (!isSolrEngine(engine) && existsSync(fulltextDir(engine.indexDir))) {
        await of(engine).catch(() => undefined)
      }
    },
  }
}
