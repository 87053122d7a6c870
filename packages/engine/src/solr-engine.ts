/**
 * An engine with no local index, corpus or forward store: everything a search page reads comes
 * from a Solr collection that `indexCorpus` built. The first stage runs there (the same query
 * translation as `createSolrFirstStage`), each hit's record is the collection's stored
 * `pubmatch_record`, facets are Solr's JSON facets over the same doc values the embedded engine
 * counts, the explanation tree is Solr's `bm25f` explanation in pubmatch's shape, the MeSH
 * vocabulary of `[mh]` is the collection's, and highlights are marked here from the stored text
 * with the collection's analyzer. Paging and the date sort follow the embedded engine's rules.
 * It holds nothing but its configuration and the vocabulary, so several can serve one collection
 * behind a load balancer. Reranking needs the Solr rerank query, which this engine does not run.
 */
import { getAnalyzer } from '@pubmatch/analysis'
import type { MatchMode, QuerySyntax, SearchFilters, SearchMeshLookup } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import type { StoredDocument } from '@pubmatch/index'
import { createMeshVocabulary } from '@pubmatch/ingest'
import type { CurrentFirstStage } from '@pubmatch/ltr'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrServing,
  solrFields,
  type SearchFacets,
  type SolrFirstStageOptions,
  type SolrServing,
} from '@pubmatch/solr'
import {
  parseBackend,
  readCollectionState,
  readMeshVocabulary,
  type CollectionState,
  type SolrBackend,
} from '@pubmatch/solr/internal'
import { createHighlighter, highlightDocument, type Highlighted } from './highlight.ts'
import { prfOptions, type PrfOptions } from './prf.ts'
import {
  RESULT_WINDOW,
  type DocumentExplanation,
  type EngineHit,
  type EngineResult,
  type EngineRun,
  type EngineSearchOptions,
  type RankingOptions,
  type SearchEngine,
} from './search-engine.ts'
import { checkSolrRanking } from './solr-backend.ts'

/** Options of {@link openSolrEngine}. */
export interface OpenSolrEngineOptions {
  /** `solr://HOST:PORT[,HOST:PORT…]/solr/COLLECTION` (see `parseBackend`). */
  readonly backend: string
  /**
   * The first stage: BM25F only, with the collection's k1 and b (field weights and per-field b
   * are per request). Defaults as the embedded engine's (`match`/`syntax` from the collection's
   * field set).
   */
  readonly ranking?: RankingOptions
  /**
   * A model directory: refused (`INVALID_ARGUMENT`) until the second stage runs in Solr. Defaults
   * to none.
   */
  readonly model?: string
  /** The Solr client's attempts per request. Defaults to the client's. */
  readonly retries?: number
}

/** A result page of a Solr-only engine. */
export interface SolrEngineResult extends EngineResult {
  /** Solr's own time for the requests (ms). */
  readonly solrQtimeMs: number
}

/** A search engine over a Solr collection alone (see {@link openSolrEngine}). */
export interface SolrEngine {
  /** Tells it apart from an embedded `SearchEngine`. */
  readonly kind: 'solr'
  /** The options it was opened with. */
  readonly openedWith: OpenSolrEngineOptions
  readonly backend: SolrBackend
  /** The collection's state: field set, analyzer, k1 and b, the last corpus segment indexed. */
  readonly collection: CollectionState
  /** `0`: a collection has no index generation of pubmatch's (its corpus segment is in `collection`). */
  readonly generation: number
  /** Articles in the collection when the engine was opened. */
  readonly docCount: number
  /** The first stage, as a model records it. */
  readonly firstStage: CurrentFirstStage
  /** Never set: a Solr-only engine does not rerank. */
  readonly model?: undefined
  /**
   * A page of results (`rerank` is ignored: there is no model; `prf` is refused).
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `INVALID_ARGUMENT` (a page beyond the
   *   result window, `prf`), `TIMEOUT`, `UPSTREAM_HTTP`/`NETWORK`, `INDEX_CORRUPTED` (a record
   *   of another shape)
   */
  search(query: string, options?: EngineSearchOptions): Promise<SolrEngineResult>
  /**
   * A whole ranking for a TREC run (trec_eval's tie order).
   * @param limit - documents. Defaults to `1000`.
   */
  run(
    query: string,
    limit?: number,
    options?: { readonly prf?: boolean | PrfOptions },
  ): Promise<EngineRun>
  /**
   * Why a document ranks where it does for a query: its rank among the first 1,000, its score and
   * Solr's explanation as pubmatch's tree.
   * @throws PubmatchError `NOT_FOUND` for an id the collection does not hold
   */
  explain(
    id: string,
    query: string,
    options?: { readonly filters?: SearchFilters },
  ): Promise<DocumentExplanation>
  /** A document's stored record, or `undefined`. */
  document(id: string): Promise<StoredDocument | undefined>
  /** Title and abstract snippet of a hit with the query's words marked (the embedded engine's highlighter). */
  highlights(
    document: StoredDocument,
    query: string,
  ): { readonly title: Highlighted; readonly snippet: Highlighted }
}

/** What an app serves: the embedded engine (the default) or a Solr-only one ({@link isSolrEngine} tells them apart). */
export type ServingEngine = SearchEngine | SolrEngine

/** How deep `explain` looks for a document's rank, as the embedded engine. */
const EXPLAIN_WINDOW = 1000

/**
 * Opens a Solr-only engine: reads the collection's state and MeSH vocabulary, and checks the
 * first stage against the collection.
 * @param options - see {@link OpenSolrEngineOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` (a bad backend address, a model, a first stage other
 *   than BM25F with Lucene's idf), `NOT_FOUND` (no indexed collection), `SCHEMA_MISMATCH`
 *   (another k1 or b, a collection of another `SOLR_SCHEMA_VERSION`), `UPSTREAM_HTTP`/`NETWORK`
 */
export async function openSolrEngine(options: OpenSolrEngineOptions): Promise<SolrEngine> {
  if (options.model !== undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `reranking a Solr-only engine needs the Solr rerank query; serve the model (${options.model}) with a local index (-i INDEX with --backend), or leave it out to rank by the first stage alone`,
    )
  }
  const backend = parseBackend(options.backend)
  const client = createSolrClient({
    urls: backend.urls,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  })
  const state = await readCollectionState(client, backend.collection)
  if (state === undefined) {
    throw new PubmatchError(
      'NOT_FOUND',
      `the Solr collection ${backend.collection} holds no indexed corpus; index one into it with \`pubmatch index -c CORPUS --solr ${backend.urls.join(',')} --collection ${backend.collection}\``,
    )
  }
  const ranking = options.ranking ?? {}
  const ranker = ranking.ranker ?? 'bm25f'
  const params = checkSolrRanking(backend.collection, state, ranker, { ...ranking.params })
  const testCollection = state.fieldSet === 'test-collection'
  const match: MatchMode = ranking.match ?? (testCollection ? 'any' : 'all')
  const syntax: QuerySyntax = ranking.syntax ?? (testCollection ? 'plain' : 'pubmed')
  const analyzer = getAnalyzer(state.analyzer)
  const fields = solrFields(state.fieldSet)
  const mesh =
    !testCollection && ranking.mesh !== false
      ? meshLookup(await readMeshVocabulary(client, backend.collection))
      : undefined
  const solrOptions: SolrFirstStageOptions = {
    client,
    collection: backend.collection,
    fields,
    analyzer,
    match,
    syntax,
    ...(ranking.recover === true ? { recover: true } : {}),
    ...(params.fieldWeights === undefined ? {} : { fieldWeights: params.fieldWeights }),
    ...(params.defaultFieldWeight === undefined
      ? {}
      : { defaultFieldWeight: params.defaultFieldWeight }),
    ...(params.fieldB === undefined ? {} : { fieldB: params.fieldB }),
    scoring: backend.scoring,
    ...(mesh === undefined ? {} : { mesh }),
  }
  const serving = createSolrServing(solrOptions)
  const firstStage = createSolrFirstStage(solrOptions)
  const highlighter = createHighlighter({ analyzer })
  const docCount = await serving.articleCount()
  return {
    kind: 'solr',
    openedWith: options,
    backend,
    collection: state,
    generation: 0,
    docCount,
    firstStage: {
      ranker,
      params: { ...ranking.params },
      analyzer: state.analyzer,
      fieldSet: state.fieldSet,
      fields: fields.text,
      match,
      syntax,
    },
    search: (query, searchOptions = {}) => search(serving, query, searchOptions),
    async run(query, limit = 1000, runOptions = {}) {
      refusePrf(runOptions.prf)
      const answer = await firstStage.search(query, { limit, tieBreak: 'idDescending' })
      return {
        hits: answer.hits.map((hit) => ({ id: hit.id, score: hit.score, rank: hit.rank })),
        warnings: answer.warnings,
      }
    },
    explain: (id, query, explainOptions = {}) =>
      explain(serving, backend.collection, id, query, explainOptions.filters),
    document: (id) => serving.document(id),
    highlights: (document, query) => highlightDocument(highlighter, document, query),
  }
}

/**
 * Whether an engine is a Solr-only one.
 * @param engine - an embedded or Solr-only engine
 */
export function isSolrEngine(engine: object): engine is SolrEngine {
  return (engine as Partial<SolrEngine>).kind === 'solr'
}

function meshLookup(
  descriptors: Awaited<ReturnType<typeof readMeshVocabulary>>,
): SearchMeshLookup | undefined {
  if (descriptors === undefined || descriptors.length === 0) {
    return undefined
  }
  const vocabulary = createMeshVocabulary(descriptors)
  return {
    descriptorsForTerm: (term) => vocabulary.lookupTerm(term),
    explode: (ui) => vocabulary.explode(ui),
    descriptorName: (ui) => vocabulary.descriptor(ui)?.name,
  }
}

function refusePrf(prf: boolean | PrfOptions | undefined): void {
  if (prfOptions(prf) !== undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      "pseudo relevance feedback reads a local index's postings; a Solr-only engine has none (serve with -i INDEX)",
    )
  }
}

async function search(
  serving: SolrServing,
  query: string,
  options: EngineSearchOptions,
): Promise<SolrEngineResult> {
  const started = performance.now()
  refusePrf(options.prf)
  const offset = options.offset ?? 0
  const limit = options.limit ?? 20
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `offset and limit must be non-negative integers, got ${offset} and ${limit}`,
    )
  }
  if (offset + limit > RESULT_WINDOW) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `results ${offset + 1}–${offset + limit} are beyond the result window of ${RESULT_WINDOW}; narrow the query`,
      {
        details: { offset, limit, window: RESULT_WINDOW },
      },
    )
  }
  const remaining =
    options.deadline === undefined ? undefined : options.deadline - performance.now()
  if (remaining !== undefined && remaining <= 0) {
    throw new PubmatchError('TIMEOUT', 'the search ran past its deadline')
  }
  const page = await serving.page(query, {
    offset,
    limit,
    sort: options.sort ?? 'relevance',
    dateWindow: RESULT_WINDOW,
    ...(options.filters === undefined ? {} : { filters: options.filters }),
    ...(options.explain === true ? { explain: true } : {}),
    ...(options.facets === true ? { facets: true } : {}),
    ...(remaining === undefined ? {} : { timeAllowedMs: remaining }),
  })
  const hits = page.hits.map((hit): EngineHit => ({
    id: hit.id,
    docNumber: -1,
    rank: hit.rank,
    score: hit.score,
    firstStage: {
      score: hit.score,
      rank: hit.relevanceRank,
      ...(hit.explain === undefined ? {} : { explain: hit.explain }),
    },
    document: hit.record,
  }))
  const facets: SearchFacets | undefined = page.facets
  return {
    query,
    total: page.total,
    totalRelation: 'eq',
    offset,
    hits,
    reranked: false,
    warnings: page.warnings,
    ...(facets === undefined ? {} : { facets }),
    tookMs: performance.now() - started,
    solrQtimeMs: page.qtimeMs,
  }
}

async function explain(
  serving: SolrServing,
  collection: string,
  id: string,
  query: string,
  filters: SearchFilters | undefined,
): Promise<DocumentExplanation> {
  const found = await serving.rank(id, query, {
    window: EXPLAIN_WINDOW,
    ...(filters === undefined ? {} : { filters }),
  })
  if (found.record === undefined) {
    throw new PubmatchError('NOT_FOUND', `no document ${id} in the Solr collection ${collection}`, {
      details: { record: id },
    })
  }
  return {
    id,
    query,
    matches: found.matches,
    ...(found.matches && found.score !== undefined
      ? {
          firstStage: {
            rank: found.rank ?? Number.NaN,
            score: found.score,
            ...(found.explain === undefined ? {} : { explain: found.explain }),
          },
        }
      : {}),
    document: found.record,
  }
}
