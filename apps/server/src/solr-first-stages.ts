/**
 * The first stage in a SolrCloud collection (`solrBackend`): each engine served gets its own,
 * attached before it is served (at start and before a reload swaps it in).
 */
import { PubmatchError } from '@pubmatch/core'
import { attachSolrBackend, isSolrEngine, type SearchEngine, type ServingEngine, type SolrSearch } from '@pubmatch/engine'

/** The Solr first stages of the engines served. */
export interface SolrFirstStages {
  /** Attaches the backend to an engine (nothing without a backend). */
  attach(engine: ServingEngine): Promise<void>
  /** The engine's Solr first stage, or `undefined`: the embedded first stage. */
  of(engine: ServingEngine): SolrSearch | undefined
}

/**
 * Creates them.
 * @param backend - `solr://HOST:PORT/solr/COLLECTION`, or `undefined` for none
 */
export function createSolrFirstStages(backend: string | undefined): SolrFirstStages {
  const attached = new WeakMap<SearchEngine, SolrSearch>()
  return {
    async attach(engine) {
      if (isSolrEngine(engine)) {
        if (backend !== undefined) {
          throw new PubmatchError('INVALID_ARGUMENT', 'a Solr-only engine runs everything in its collection; it takes no second Solr backend')
        }
        return
      }
      if (backend !== undefined) {
        attached.set(engine, await attachSolrBackend(engine, { backend }))
      }
    },
    of: (engine) => (isSolrEngine(engine) ? undefined : attached.get(engine)),
  }
}
