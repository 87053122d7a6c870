/**
 * An engine with no local index, corpus or forward store: everything a search page reads comes
 * from a Solr collection that `indexCorpus` built. The first stage runs there (the same query
 * translation as `createSolrFirstStage`), each hit's record is the collection's stored
 * `pubmatch_record`, facets are Solr's JSON facets over the same doc values the embedded engine
 * counts, the explanation tree is Solr's `bm25f` explanation in pubmatch's shape, the MeSH
 * vocabulary of `[mh]` is the collection's, and highlights are marked here from the stored text
 * with the collection's analyzer. Paging and the date sort follow the embedded engine's rules.
 * With a model deployed in the collection (`deployModel`, `pubmatch model deploy-solr`), Best
 * Match's second stage runs on the shards too (`createSolrReranker`: the `pubmatch` rank query):
 * the first stage's top `depth` candidates are reranked there, their model scores come back in
 * double precision and are ordered here as the embedded reranker orders them (model score, ties by
 * first-stage rank), and the explanation's feature values and per-feature contributions are the
 * shards' (`[pubmatch explain=true]`). It holds nothing but its configuration, the vocabulary and
 * the model's manifest, so several can serve one collection behind a load balancer.
 */
import { getAnalyzer } from '@pubmatch/analysis'
import type { MatchMode, QuerySyntax, SearchFilters, SearchMeshLookup } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import type { StoredDocument } from '@pubmatch/index'
import { createMeshVocabulary } from '@pubmatch/ingest'
import {
  BEST_MATCH_SCHEMA,
  DEFAULT_RANGE_MARGIN,
  type CurrentFirstStage,
  type FeatureContribution,
  type ModelManifest,
  type RerankFallback,
} from '@pubmatch/ltr'
import { checkFirstStage, MEMORY_SCHEMA_SUFFIX, parseModelManifest } from '@pubmatch/ltr/internal'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrReranker,
  createSolrServing,
  listModels,
  solrFields,
  type SearchFacets,
  type SolrClient,
  type SolrFirstStage,
  type SolrFirstStageOptions,
  type SolrHit,
  type SolrReranker,
  type SolrRerankedHit,
  type SolrSearchResult,
  type SolrServing,
} from '@pubmatch/solr'
import {
  parseBackend,
  readCollectionState,
  readDeployedFile,
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
  type EngineModel,
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
   * The name of a model deployed in the collection (`deployModel`, `pubmatch model deploy-solr`):
   * Best Match's second stage then runs on the shards. Not a directory: this engine reads nothing
   * local. Refused at open when the collection does not hold it (`NOT_FOUND`), when its features
   * are not the 179 the rank query computes (a query memory, extra blocks: `INVALID_ARGUMENT`) or
   * when it was trained on another first stage than `ranking` describes (`SCHEMA_MISMATCH`).
   * Defaults to none (the first stage alone).
   */
  readonly model?: string
  /** Candidates the model reorders. Defaults to the model's training depth (500 for Best Match). */
  readonly depth?: number
  /**
   * How far past its training range a query may go before the model leaves it alone, in widths of
   * that range. Defaults to `DEFAULT_RANGE_MARGIN` of `@pubmatch/ltr`, as the embedded engine.
   */
  readonly rangeMargin?: number
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
  /** The deployed model it reranks with (`dir` and `name`: its name in the collection). */
  readonly model?: SolrEngineModel
  /**
   * A page of results: with a model, the first stage's top `depth` reranked on the shards then the
   * first stage's tail, paged as the embedded engine pages them (`prf` is refused).
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `INVALID_ARGUMENT` (a page beyond the
   *   result window, `prf`), `TIMEOUT`, `UPSTREAM_HTTP`/`NETWORK`, `INDEX_CORRUPTED` (a record
   *   of another shape)
   */
  search(query: string, options?: EngineSearchOptions): Promise<SolrEngineResult>
  /**
   * A whole ranking for a TREC run (trec_eval's tie order; with a model the top `depth` reranked
   * and the rest in first-stage order, scored as the embedded engine scores them).
   * @param limit - documents. Defaults to `1000`.
   */
  run(
    query: string,
    limit?: number,
    options?: { readonly prf?: boolean | PrfOptions },
  ): Promise<EngineRun>
  /**
   * Why a document ranks where it does for a query: its rank among the first 1,000, its score and
   * Solr's explanation as pubmatch's tree; with a model and a document among the candidates it
   * reorders, its rank and score after reranking and its 179 values with their contributions to
   * the model's score (computed on its shard), and the fallback when the query keeps first-stage
   * order.
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

/** A model deployed in the collection, as a Solr-only engine reranks with it. */
export interface SolrEngineModel extends EngineModel {
  /** Its name in the collection (`dir` holds the same: there is no directory). */
  readonly name: string
  /** The deployment it was opened at (a name redeployed after removal is another upload). */
  readonly uploadId: string
}

/** What an app serves: the embedded engine (the default) or a Solr-only one ({@link isSolrEngine} tells them apart). */
export type ServingEngine = SearchEngine | SolrEngine

/** How deep `explain` looks for a document's rank, as the embedded engine. */
const EXPLAIN_WINDOW = 1000

/**
 * Opens a Solr-only engine: reads the collection's state and MeSH vocabulary, and checks the
 * first stage against the collection.
 * @param options - see {@link OpenSolrEngineOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` (a bad backend address, a first stage other than BM25F
 *   with Lucene's idf, a model of other features), `NOT_FOUND` (no indexed collection, no such
 *   model in it), `SCHEMA_MISMATCH` (another k1 or b, a collection of another
 *   `SOLR_SCHEMA_VERSION`, a model trained on another first stage), `UPSTREAM_HTTP`/`NETWORK`
 */
export async function openSolrEngine(options: OpenSolrEngineOptions): Promise<SolrEngine> {
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
  const current: CurrentFirstStage = {
    ranker,
    params: { ...ranking.params },
    analyzer: state.analyzer,
    fieldSet: state.fieldSet,
    fields: fields.text,
    match,
    syntax,
  }
  const model =
    options.model === undefined
      ? undefined
      : await openDeployedModel(client, backend.collection, options.model, current, options.depth)
  const second: SecondStage | undefined =
    model === undefined
      ? undefined
      : {
          model,
          reranker: createSolrReranker({ ...solrOptions, model: model.name }),
          rangeMargin: options.rangeMargin ?? DEFAULT_RANGE_MARGIN,
        }
  const parts: Parts = { serving, firstStage, collection: backend.collection, second }
  return {
    kind: 'solr',
    openedWith: options,
    backend,
    collection: state,
    generation: 0,
    docCount,
    firstStage: current,
    ...(model === undefined ? {} : { model }),
    search: (query, searchOptions = {}) =>
      second === undefined || searchOptions.rerank === false || searchOptions.sort === 'date'
        ? search(serving, query, searchOptions)
        : rerankedSearch(parts, second, query, searchOptions),
    async run(query, limit = 1000, runOptions = {}) {
      refusePrf(runOptions.prf)
      if (second !== undefined) {
        return rerankedRun(parts, second, query, limit)
      }
      const answer = await firstStage.search(query, { limit, tieBreak: 'idDescending' })
      return {
        hits: answer.hits.map((hit) => ({ id: hit.id, score: hit.score, rank: hit.rank })),
        warnings: answer.warnings,
      }
    },
    explain: (id, query, explainOptions = {}) =>
      second === undefined
        ? explain(serving, backend.collection, id, query, explainOptions.filters)
        : rerankedExplain(parts, second, id, query, explainOptions.filters),
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

/** Refuses a page the embedded engine refuses: bad numbers, or beyond the result window. */
function checkPage(offset: number, limit: number): void {
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
  checkPage(offset, limit)
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
  window = EXPLAIN_WINDOW,
): Promise<DocumentExplanation> {
  const found = await serving.rank(id, query, {
    window,
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

/** The second stage of a Solr-only engine: the deployed model and the rank query's client. */
interface SecondStage {
  readonly model: SolrEngineModel
  readonly reranker: SolrReranker
  readonly rangeMargin: number
}

/** What the reranked operations read. */
interface Parts {
  readonly serving: SolrServing
  readonly firstStage: SolrFirstStage
  readonly collection: string
  readonly second: SecondStage | undefined
}

/**
 * A model deployed in the collection, checked as the embedded engine checks a model directory:
 * present, of the 179 features the rank query computes, trained on this first stage.
 */
async function openDeployedModel(
  client: SolrClient,
  collection: string,
  name: string,
  current: CurrentFirstStage,
  depth: number | undefined,
): Promise<SolrEngineModel> {
  const { models } = await listModels({ client, collection })
  const deployed = models.find((model) => model.name === name)
  if (deployed === undefined) {
    const names = models.map((model) => model.name)
    throw new PubmatchError(
      'NOT_FOUND',
      `model ${name} is not deployed in collection ${collection} (${names.length === 0 ? 'it holds none' : `it holds ${names.join(', ')}`}); deploy a model folder with \`pubmatch model deploy-solr DIR --solr URLS --collection ${collection} --name ${name}\``,
      { details: { model: name, collection, deployed: names } },
    )
  }
  const where = `model ${name} in collection ${collection}`
  const manifest: ModelManifest = parseModelManifest(
    (await readDeployedFile({ client, collection, name, file: 'manifest.json' })).text,
    `${where}: manifest.json`,
  )
  const computed = [BEST_MATCH_SCHEMA.version, `${BEST_MATCH_SCHEMA.version}${MEMORY_SCHEMA_SUFFIX}`]
  if (!computed.includes(manifest.schema.version)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${where} has features of schema ${manifest.schema.version}; the rank query on the shards computes ${computed.join(' and ')} only (the 179, with or without the query memory; extra feature blocks such as full-text sections are not computed in Solr): rerank with it over a local index (-i INDEX), or train one without them`,
    )
  }
  checkFirstStage(manifest, current, where)
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `depth must be a positive integer, got ${depth}`)
  }
  const modelBytes = deployed.files['model.txt']?.bytes ?? 0
  return {
    name,
    dir: name,
    // as the embedded engine names a model: its creation time and its text's length
    id: `${manifest.createdAt}/${modelBytes}`,
    uploadId: deployed.uploadId,
    depth: depth ?? manifest.firstStage.depth,
    manifest,
  }
}

/** The time left before a deadline (ms), or `TIMEOUT` when none is. */
function timeLeft(deadline: number | undefined): number | undefined {
  if (deadline === undefined) {
    return undefined
  }
  const remaining = deadline - performance.now()
  if (remaining <= 0) {
    throw new PubmatchError('TIMEOUT', 'the search ran past its deadline')
  }
  return remaining
}

function timeAllowed(deadline: number | undefined): { readonly timeAllowedMs?: number } {
  const remaining = timeLeft(deadline)
  return remaining === undefined ? {} : { timeAllowedMs: remaining }
}

/** The first stage's hits in Solr's answer, with only some kept (the head a rerank reads). */
function withHits(result: SolrSearchResult, hits: readonly SolrHit[]): SolrSearchResult {
  return { ...result, hits }
}

/** A head reranked on the shards, ordered here. */
interface OrderedHead {
  /** Indexes into the head, in ranking order. */
  readonly order: readonly number[]
  /** Per head index: the model's score (`undefined` on a fallback). */
  readonly scores: ReadonlyArray<number | undefined>
  readonly fallback?: RerankFallback
}

/**
 * Reranks the head on the shards and orders it as the embedded reranker does: model score (the
 * double the shard computed), ties by first-stage rank; on a fallback, first-stage order.
 */
async function rerankHead(
  second: SecondStage,
  query: string,
  first: SolrSearchResult,
  head: readonly SolrHit[],
  options: {
    readonly filters?: SearchFilters
    readonly deadline?: number
    readonly outOfRange?: 'rerank'
  },
): Promise<OrderedHead> {
  const answer = await second.reranker.rerank(query, withHits(first, head), {
    rows: head.length,
    scores: true,
    rangeMargin: second.rangeMargin,
    ...(options.outOfRange === undefined ? {} : { outOfRange: options.outOfRange }),
    ...(options.filters === undefined ? {} : { filters: options.filters }),
    ...timeAllowed(options.deadline),
  })
  const index = new Map(head.map((hit, i) => [hit.id, i]))
  if (answer.fallback !== undefined) {
    return {
      order: head.map((_, i) => i),
      scores: head.map(() => undefined),
      fallback: answer.fallback,
    }
  }
  const scores: Array<number | undefined> = head.map(() => undefined)
  for (const hit of answer.hits) {
    const i = index.get(hit.id)
    if (i !== undefined && typeof hit.modelScore === 'number') {
      scores[i] = hit.modelScore
    }
  }
  const missing = scores.findIndex((score) => score === undefined)
  if (missing >= 0) {
    throw new PubmatchError(
      'UPSTREAM_ERROR',
      `collection reranked ${answer.hits.length} of ${head.length} candidates (not ${head[missing]!.id}); search again`,
    )
  }
  const order = head.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b)
  return { order, scores }
}

/** Per-feature contributions as `explainScore` of `@pubmatch/ltr` lists them: non-zero, largest first. */
function contributionsOf(
  manifest: ModelManifest,
  explained: NonNullable<SolrRerankedHit['explain']>,
  features: readonly number[],
): { readonly bias: number; readonly contributions: FeatureContribution[] } {
  const ids = manifest.schema.features
  const contributions: FeatureContribution[] = []
  explained.contributions.forEach((contribution, c) => {
    if (contribution !== 0) {
      contributions.push({ feature: ids[c] ?? `column ${c}`, value: features[c]!, contribution })
    }
  })
  contributions.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
  return { bias: explained.bias, contributions }
}

/** Each hit's features and contributions computed on its shard (`[pubmatch explain=true]`). */
async function explainHits(
  second: SecondStage,
  query: string,
  first: SolrSearchResult,
  hits: readonly SolrHit[],
  options: { readonly filters?: SearchFilters; readonly deadline?: number },
): Promise<{
  readonly byId: Map<
    string,
    { readonly bias: number; readonly contributions: FeatureContribution[] }
  >
  readonly fallback?: RerankFallback
}> {
  if (hits.length === 0) {
    return { byId: new Map() }
  }
  const answer = await second.reranker.rerank(query, withHits(first, hits), {
    rows: hits.length,
    explain: true,
    rangeMargin: second.rangeMargin,
    ...(options.filters === undefined ? {} : { filters: options.filters }),
    ...timeAllowed(options.deadline),
  })
  const byId = new Map<
    string,
    { readonly bias: number; readonly contributions: FeatureContribution[] }
  >()
  for (const hit of answer.hits) {
    if (hit.explain !== undefined && hit.features !== undefined) {
      byId.set(hit.id, contributionsOf(second.model.manifest, hit.explain, hit.features))
    }
  }
  return { byId, ...(answer.fallback === undefined ? {} : { fallback: answer.fallback }) }
}

/**
 * A page with the model, as the embedded engine's `pageFrom`: the first stage's top
 * `max(offset + limit, depth)`, its first `depth` reranked on the shards, the page cut from the
 * reranked head then the first stage's tail; records (and the first stage's explanations) for the
 * page's ids, and, with `explain`, each reranked hit's contributions.
 */
async function rerankedSearch(
  parts: Parts,
  second: SecondStage,
  query: string,
  options: EngineSearchOptions,
): Promise<SolrEngineResult> {
  const started = performance.now()
  refusePrf(options.prf)
  const offset = options.offset ?? 0
  const limit = options.limit ?? 20
  checkPage(offset, limit)
  const { filters, deadline } = options
  const depth = second.model.depth
  const facetsRequest =
    options.facets === true
      ? parts.serving.page(query, {
          offset: 0,
          limit: 0,
          facets: true,
          ...(filters === undefined ? {} : { filters }),
          ...timeAllowed(deadline),
        })
      : undefined
  const first = await parts.firstStage.search(query, {
    limit: Math.max(offset + limit, depth),
    ...(filters === undefined ? {} : { filters }),
    ...timeAllowed(deadline),
  })
  let qtimeMs = first.qtimeMs
  const head = first.hits.slice(0, depth)
  const ranked =
    head.length === 0
      ? undefined
      : await rerankHead(second, query, first, head, {
          ...(filters === undefined ? {} : { filters }),
          ...(deadline === undefined ? {} : { deadline }),
        })
  const end = Math.min(offset + limit, first.hits.length)
  const shown: Array<{ readonly hit: SolrHit; readonly score: number; readonly model?: number }> =
    []
  for (let i = offset; i < end; i++) {
    if (ranked !== undefined && i < head.length) {
      const at = ranked.order[i]!
      const model = ranked.scores[at]
      const hit = head[at]!
      shown.push(model === undefined ? { hit, score: hit.score } : { hit, score: model, model })
    } else {
      const hit = first.hits[i]!
      shown.push({ hit, score: hit.score })
    }
  }
  const ids = shown.map((entry) => entry.hit.id)
  const [records, explained, facetPage] = await Promise.all([
    ids.length === 0
      ? undefined
      : parts.serving.page(query, {
          offset: 0,
          limit: ids.length,
          filters: { ...filters, ids },
          ...(options.explain === true ? { explain: true } : {}),
          ...timeAllowed(deadline),
        }),
    options.explain === true && ranked?.fallback === undefined
      ? explainHits(
          second,
          query,
          first,
          shown.filter((entry) => entry.model !== undefined).map((entry) => entry.hit),
          {
            ...(filters === undefined ? {} : { filters }),
            ...(deadline === undefined ? {} : { deadline }),
          },
        )
      : undefined,
    facetsRequest,
  ])
  qtimeMs += (records?.qtimeMs ?? 0) + (facetPage?.qtimeMs ?? 0)
  const byId = new Map(records?.hits.map((hit) => [hit.id, hit]))
  const hits = shown.map((entry, i): EngineHit => {
    const record = byId.get(entry.hit.id)
    if (record === undefined) {
      throw new PubmatchError(
        'UPSTREAM_ERROR',
        `collection ${parts.collection} lost document ${entry.hit.id} between two requests of one search; search again`,
      )
    }
    const contributions = explained?.byId.get(entry.hit.id)
    return {
      id: entry.hit.id,
      docNumber: -1,
      rank: offset + i + 1,
      score: entry.score,
      firstStage: {
        score: entry.hit.score,
        rank: entry.hit.rank,
        ...(record.explain === undefined ? {} : { explain: record.explain }),
      },
      ...(entry.model === undefined
        ? {}
        : {
            secondStage: {
              score: entry.model,
              ...(contributions === undefined ? {} : { explain: contributions }),
            },
          }),
      document: record.record,
    }
  })
  const fallback = ranked?.fallback
  return {
    query,
    total: first.total,
    totalRelation: 'eq',
    offset,
    hits,
    reranked: ranked !== undefined && fallback === undefined,
    ...(fallback === undefined ? {} : { fallback }),
    warnings: first.warnings,
    ...(facetPage?.facets === undefined ? {} : { facets: facetPage.facets }),
    tookMs: performance.now() - started,
    solrQtimeMs: qtimeMs,
  }
}

/**
 * A TREC run with the model, as the embedded engine's `runFrom`: the first stage's top
 * `max(limit, depth)` in trec_eval's tie order, its first `depth` reranked on the shards (model
 * scores; on a fallback, first-stage order and scores), then the tail in first-stage order with
 * scores below the head's (`withTail` of `@pubmatch/ltr`).
 */
async function rerankedRun(
  parts: Parts,
  second: SecondStage,
  query: string,
  limit: number,
): Promise<EngineRun> {
  const depth = second.model.depth
  const first = await parts.firstStage.search(query, {
    limit: Math.max(limit, depth),
    tieBreak: 'idDescending',
  })
  const head = first.hits.slice(0, depth)
  if (head.length === 0) {
    return { hits: [], warnings: first.warnings }
  }
  const ranked = await rerankHead(second, query, first, head, {})
  const hits = ranked.order.map((at, r) => {
    const hit = head[at]!
    return { id: hit.id, score: ranked.scores[at] ?? hit.score, rank: r + 1 }
  })
  // the tail: strictly decreasing scores below the head's lowest, as withTail gives them
  const n = first.hits.length - head.length
  let floor = Infinity
  for (const hit of hits) {
    floor = Math.min(floor, hit.score)
  }
  for (let i = 0; i < n; i++) {
    const hit = first.hits[head.length + i]!
    hits.push({ id: hit.id, score: floor - 1 - (i + 1) / (n + 1), rank: head.length + i + 1 })
  }
  return {
    hits: hits.slice(0, limit),
    ...(ranked.fallback === undefined ? {} : { fallback: ranked.fallback }),
    warnings: first.warnings,
  }
}

/**
 * A document's explanation with the model, as the embedded engine's `explain`: its first-stage
 * rank, score and tree; when among the first `depth` candidates, its rank and score after
 * reranking (reranked even when the query falls back, as the embedded engine explains it) and its
 * features' contributions, and the fallback the query gets on a search.
 */
async function rerankedExplain(
  parts: Parts,
  second: SecondStage,
  id: string,
  query: string,
  filters: SearchFilters | undefined,
): Promise<DocumentExplanation> {
  const depth = second.model.depth
  const [base, first] = await Promise.all([
    explain(parts.serving, parts.collection, id, query, filters, Math.max(depth, EXPLAIN_WINDOW)),
    parts.firstStage.search(query, { limit: depth, ...(filters === undefined ? {} : { filters }) }),
  ])
  const position = first.hits.findIndex((hit) => hit.id === id)
  if (!base.matches || position < 0) {
    return base
  }
  const filtersOnly = filters === undefined ? {} : { filters }
  const [ranked, explained] = await Promise.all([
    rerankHead(second, query, first, first.hits, { ...filtersOnly, outOfRange: 'rerank' }),
    explainHits(second, query, first, [first.hits[position]!], filtersOnly),
  ])
  const contributions = explained.byId.get(id)
  if (contributions === undefined) {
    throw new PubmatchError(
      'UPSTREAM_ERROR',
      `collection ${parts.collection} did not explain document ${id}; ask again`,
    )
  }
  const at = ranked.order.indexOf(position)
  return {
    ...base,
    firstStage: { ...base.firstStage!, rank: position + 1 },
    secondStage: { rank: at + 1, score: ranked.scores[position]!, ...contributions },
    ...(explained.fallback === undefined ? {} : { fallback: explained.fallback }),
  }
}
