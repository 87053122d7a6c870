/**
 * Best Match with its first stage in SolrCloud: the query runs in a Solr collection that
 * `indexCorpus` built from the same corpus (BM25F over the weighted fields, global statistics
 * across shards), and everything after the first stage runs here as with the embedded first
 * stage: the local engine's forward store, the 179 features, the model, paging and stored
 * records, keyed by PMID. The local index supplies the features' statistics and the records.
 */
import type { SearchResult } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import { createSolrClient, createSolrFirstStage, solrFields, type SolrClient, type SolrSearchResult } from '@pubmatch/solr'
import { parseBackend, readCollectionState, type CollectionState, type SolrBackend } from '@pubmatch/solr/internal'
import { corpusMeshLookup } from './corpus-data.ts'
import type { PrfOptions } from './prf.ts'
import {
  engineInternals,
  openSearch,
  type EngineResult,
  type EngineRun,
  type EngineSearchOptions,
  type OpenSearchOptions,
  type SearchEngine,
} from './search-engine.ts'

/** Options of {@link openSolrSearch}: the local engine's, and the collection. */
export interface OpenSolrSearchOptions extends OpenSearchOptions {
  /** `solr://HOST:PORT/solr/COLLECTION` (see `parseBackend`). */
  readonly backend: string
  /** The Solr client's attempts per request. Defaults to the client's. */
  readonly retries?: number
}

/** Searches with the first stage in Solr. */
export interface SolrSearch {
  /** The local engine (records, features, model). */
  readonly engine: SearchEngine
  readonly backend: SolrBackend
  readonly client: SolrClient
  /** As `SearchEngine.search`, with the first stage in Solr. */
  search(query: string, options?: EngineSearchOptions): Promise<EngineResult & { readonly solrQtimeMs: number }>
  /** As `SearchEngine.run`, with the first stage in Solr. */
  run(query: string, limit?: number, options?: { readonly prf?: boolean | PrfOptions }): Promise<EngineRun>
}

/**
 * Opens the local engine and a Solr collection's first stage.
 * @param options - see {@link OpenSolrSearchOptions}
 * @throws PubmatchError `SCHEMA_MISMATCH` (the collection holds another field set or analyzer, or
 *   its BM25 is not the local ranker's), `NOT_FOUND` (no indexed collection), `INVALID_ARGUMENT`
 *   (a bad backend address, a first stage other than BM25F)
 */
export async function openSolrSearch(options: OpenSolrSearchOptions): Promise<SolrSearch> {
  const { backend, retries, ...local } = options
  const engine = await openSearch(local)
  return attachSolrBackend(engine, { backend, ...(retries === undefined ? {} : { retries }) })
}

/** Options of {@link attachSolrBackend}. */
export interface AttachSolrOptions {
  /** `solr://HOST:PORT/solr/COLLECTION` (see `parseBackend`). */
  readonly backend: string
  /** The Solr client's attempts per request. Defaults to the client's. */
  readonly retries?: number
}

/**
 * A Solr collection's first stage in front of an opened engine (the server attaches one to each
 * engine it swaps in).
 * @param engine - the local engine (records, features, model)
 * @param options - see {@link AttachSolrOptions}
 * @throws PubmatchError as {@link openSolrSearch}
 */
export async function attachSolrBackend(engine: SearchEngine, options: AttachSolrOptions): Promise<SolrSearch> {
  const backend = parseBackend(options.backend)
  const client = createSolrClient({ urls: backend.urls, ...(options.retries === undefined ? {} : { retries: options.retries }) })
  const state = await readCollectionState(client, backend.collection)
  if (state === undefined) {
    throw new PubmatchError(
      'NOT_FOUND',
      `the Solr collection ${backend.collection} holds no indexed corpus; index the engine's corpus into it with \`pubmatch index -c ${engine.settings.corpus} --solr ${backend.urls.join(',')} --collection ${backend.collection}\``,
    )
  }
  const params = checkCollection(engine, backend.collection, state)
  const { settings, firstStage } = engine
  const ranking = engine.openedWith.ranking
  const { reader, analyzer } = engineInternals(engine)
  const mesh = settings.fieldSet === 'pubmed' && ranking?.mesh !== false ? await corpusMeshLookup(settings, engine.indexDir) : undefined
  const solr = createSolrFirstStage({
    client,
    collection: backend.collection,
    fields: solrFields(state.fieldSet),
    analyzer,
    match: firstStage.match,
    syntax: firstStage.syntax,
    ...(ranking?.recover === true ? { recover: true } : {}),
    ...(params.fieldWeights === undefined ? {} : { fieldWeights: params.fieldWeights }),
    ...(params.defaultFieldWeight === undefined ? {} : { defaultFieldWeight: params.defaultFieldWeight }),
    ...(params.fieldB === undefined ? {} : { fieldB: params.fieldB }),
    scoring: backend.scoring,
    ...(mesh === undefined ? {} : { mesh }),
  })
  const toResult = (answer: SolrSearchResult): SearchResult => localResult(reader, engine.indexDir, answer)
  return {
    engine,
    backend,
    client,
    async search(query, searchOptions = {}) {
      const started = performance.now()
      const { limit } = engine.firstStageRequest(searchOptions)
      const remaining = searchOptions.deadline === undefined ? undefined : searchOptions.deadline - performance.now()
      const answer = await solr.search(query, {
        limit,
        ...(searchOptions.filters === undefined ? {} : { filters: searchOptions.filters }),
        ...(remaining === undefined ? {} : { timeAllowedMs: Math.max(1, remaining) }),
      })
      const page = engine.pageFrom(query, toResult(answer), searchOptions, started)
      return { ...page, solrQtimeMs: answer.qtimeMs }
    },
    async run(query, limit = 1000, runOptions = {}) {
      const depth = engine.model?.depth ?? 0
      const answer = await solr.search(query, { limit: Math.max(limit, depth), tieBreak: 'idDescending' })
      return engine.runFrom(query, toResult(answer), limit, runOptions)
    },
  }
}

/** The BM25F parameters of a Solr first stage. */
export interface SolrBm25fParams {
  k1?: number
  b?: number
  fieldWeights?: Record<string, number>
  defaultFieldWeight?: number
  fieldB?: Record<string, number>
  idf?: string
  k1Plus1?: boolean
}

/**
 * Throws unless a Solr collection holds what the engine's first stage searches (field set,
 * analyzer, BM25F with Lucene's idf and the same k1 and b); returns the first stage's parameters.
 */
function checkCollection(engine: SearchEngine, collection: string, state: CollectionState): SolrBm25fParams {
  const { settings, firstStage } = engine
  if (state.fieldSet !== settings.fieldSet || state.analyzer !== settings.analyzer) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `the Solr collection ${collection} holds ${state.fieldSet}/${state.analyzer} but the local index ${engine.indexDir} ${settings.fieldSet}/${settings.analyzer}`,
    )
  }
  return checkSolrRanking(collection, state, firstStage.ranker, firstStage.params)
}

/**
 * Throws unless a ranker can run in a Solr collection: BM25F with Lucene's idf, without (k1 + 1),
 * with the collection's k1 and b; returns its parameters.
 * @param collection - the collection's name (for messages)
 * @param state - its state
 * @param ranker - the ranker's name
 * @param given - its parameters
 * @throws PubmatchError `INVALID_ARGUMENT` (another ranker or idf), `SCHEMA_MISMATCH` (other k1 or b)
 */
export function checkSolrRanking(collection: string, state: CollectionState, ranker: string, given: Readonly<Record<string, unknown>>): SolrBm25fParams {
  if (ranker !== 'bm25f') {
    throw new PubmatchError('INVALID_ARGUMENT', `a Solr backend runs BM25F only, not ${ranker}`)
  }
  const params = given as SolrBm25fParams
  if ((params.idf !== undefined && params.idf !== 'lucene') || params.k1Plus1 === true) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      "Solr's bm25f parser scores with Lucene's idf and without (k1 + 1); drop idf/k1Plus1 from the ranker's parameters",
    )
  }
  if ((params.k1 ?? 1.2) !== state.k1 || (params.b ?? 0.75) !== state.b) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `the Solr collection ${collection} scores with k1 ${state.k1}, b ${state.b}; the first stage asks for k1 ${params.k1 ?? 1.2}, b ${params.b ?? 0.75}`,
    )
  }
  return params
}

/**
 * Solr's hits as first-stage candidates of the local index (documents it lacks are left out, with
 * a warning).
 */
function localResult(reader: IndexReader, indexDir: string, answer: SolrSearchResult): SearchResult {
  const hits = []
  let missing = 0
  for (const hit of answer.hits) {
    const docNumber = reader.docNumber(hit.id)
    if (docNumber === undefined) {
      missing++
      continue
    }
    hits.push({ id: hit.id, docNumber, score: hit.score, rank: hits.length + 1 })
  }
  const warnings = [...answer.warnings]
  if (missing > 0) {
    warnings.push({
      code: 'BACKEND_MISMATCH',
      message: `${missing} of Solr's ${answer.hits.length} documents are not in the local index ${indexDir} and were left out; index both from the same corpus`,
    })
  }
  return {
    hits,
    total: answer.total,
    totalRelation: 'eq',
    query: answer.query,
    warnings,
    stats: { docsScored: 0, postingsScored: 0, docsMatched: answer.total, windows: 0, blocksSkipped: 0, clauses: 0, pruned: false },
  }
}
