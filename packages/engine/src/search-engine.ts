/**
 * The search engine every app opens: an index (with its settings, forward store and MeSH
 * vocabulary), its first stage, and optionally a Best Match model. It answers PubMed-syntax
 * searches with both stages' scores and explanations, pages through a ranking whose top
 * candidates the model reorders, sorts by date, explains one document, and writes TREC runs.
 * An engine is immutable: a new index generation or model is a new engine (see `swap` in apps).
 * Its parts (index reader, searcher, forward store, highlighter, the model's reranker) stay
 * inside: this package's modules reach them through {@link engineInternals}, other pubmatch
 * packages and benchmarks through `@pubmatch/engine/internal`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Analyzer } from '@pubmatch/analysis'
import {
  createSearcher,
  formatQuery,
  type Candidate,
  type QueryNode,
  type CitationMatch,
  type CitationMatcher,
  type Explanation,
  type FirstStageRanker,
  type MatchMode,
  type QuerySyntax,
  type ScorerConfig,
  type ScorerName,
  type SearchFilters,
  type SearchOptions,
  type SearchResult,
  type SearchWarning,
  type TermMapping,
  type TieBreak,
} from '@pubmatch/bm25f'
import { isPubmatchError, PubmatchError } from '@pubmatch/core'
import { openFulltextIndex } from '@pubmatch/fulltext'
import { openIndex, readIndexGeneration, type IndexReader, type StoredDocument } from '@pubmatch/index'
import {
  loadModel,
  openReranker,
  readUsage,
  type BestMatchReranker,
  type CurrentFirstStage,
  type FeatureContribution,
  type ForwardIndex,
  type ModelManifest,
  type RerankFallback,
} from '@pubmatch/ltr'
import type { SearchFacets } from '@pubmatch/solr'
import { MANIFEST_FILE as MODEL_MANIFEST_FILE, parseModelManifest } from '@pubmatch/ltr/internal'
import { corpusCitationMatcher, corpusMeshLookup, openForwardStore } from './corpus-data.ts'
import { matchingFacets } from './facets.ts'
import { createHighlighter, highlightDocument, type Highlighted, type Highlighter } from './highlight.ts'
import { applyPrf, PRF_CANDIDATES, prfOptions, type PrfOptions, type PrfResult } from './prf.ts'
import { fulltextDir, SECTION_FEATURES_SUFFIX, sectionFeatureBlock } from './section-features.ts'
import { createRecordCache, DEFAULT_RECORD_CACHE, type RecordCache } from './record-cache.ts'
import { readIndexSettings, type IndexSettings } from './settings.ts'

/** How the first stage ranks. */
export interface RankingOptions {
  /** The scoring function. Defaults to `bm25f`. */
  readonly ranker?: ScorerName
  /** Its parameters (`k1`, `b`, `fieldWeights`, …). Defaults to the scorer's. */
  readonly params?: Readonly<Record<string, unknown>>
  /** Defaults to `all` (PubMed) for PubMed indexes, `any` for test collections. */
  readonly match?: MatchMode
  /** Defaults to `pubmed` for PubMed indexes, `plain` for test collections. */
  readonly syntax?: QuerySyntax
  /** Work around query syntax errors with warnings instead of failing. Defaults to `false`. */
  readonly recover?: boolean
  /** Map `[mh]` terms through the corpus's MeSH vocabulary (PubMed indexes). Defaults to `true`. */
  readonly mesh?: boolean
  /**
   * Automatic term mapping (PubMed's ATM): untagged terms also search the MeSH descriptors their
   * words name (exploded; the corpus's MeSH vocabulary) and, whole, the journal they name (the
   * corpus's journals); each result gives the translation (`translation`). Not with a model: its
   * first stage was recorded without it. Defaults to `false`.
   */
  readonly termMapping?: boolean
}

/** Options of {@link openSearch}. */
export interface OpenSearchOptions {
  /** The index directory (`pubmatch index -i`). */
  readonly index: string
  /** A model directory (`pubmatch train -o`) for the second stage. Defaults to none. */
  readonly model?: string
  readonly ranking?: RankingOptions
  /** A click log whose past usage feeds the model's F2–F3. Defaults to none. */
  readonly usageLog?: string
  /** Candidates the model reorders. Defaults to the model's training depth (500 for Best Match). */
  readonly depth?: number
  /** Progress of a forward-store rebuild (after the index changed). */
  readonly onProgress?: (done: number, total: number) => void
  /** How far past its training range a query may go before the model leaves it alone (ltr's `DEFAULT_RANGE_MARGIN`). */
  readonly rangeMargin?: number
  /**
   * Load the citation sensor (the citation records of the index's corpus, see `search`'s
   * `citation`). Defaults to `true` for PubMed indexes; test collections have no citations.
   */
  readonly citations?: boolean
  /**
   * Stored records kept parsed, the most recently shown (`0`: none): a result page takes its
   * hits' records from here instead of inflating and parsing them from the index again. A record
   * of a PubMed citation with its abstract takes about 2.3 KB of memory (about 37 MB for the
   * default). Kept per index generation: a new model keeps it, a new generation starts empty.
   * Defaults to `16384`.
   */
  readonly recordCache?: number
}

/** A document of a result list. */
export interface EngineHit {
  readonly id: string
  readonly docNumber: number
  /** 1-based rank in the whole ranking. */
  readonly rank: number
  /** The score the ranking is ordered by (the model's for reranked hits, else the first stage's). */
  readonly score: number
  readonly firstStage: { readonly score: number; readonly rank: number; readonly explain?: Explanation }
  /** The model's score of a reranked hit. */
  readonly secondStage?: { readonly score: number; readonly explain?: { readonly bias: number; readonly contributions: readonly FeatureContribution[] } }
  /** The stored record: title, authors, journal, year, types, abstract, ids. */
  readonly document: StoredDocument
}

/** Options of {@link SearchEngine.search}. */
export interface EngineSearchOptions {
  /** 0-based offset into the ranking. Defaults to `0`. */
  readonly offset?: number
  /** Hits returned. Defaults to `20`. */
  readonly limit?: number
  /** `relevance` (both stages) or `date` (newest first, ties by relevance). Defaults to `relevance`. */
  readonly sort?: 'relevance' | 'date'
  readonly filters?: SearchFilters
  /** Use the model when one is loaded. Defaults to `true`. */
  readonly rerank?: boolean
  /** Attach both stages' explanations. Defaults to `false`. */
  readonly explain?: boolean
  /** Stop with `TIMEOUT` once `performance.now()` passes this (milliseconds). */
  readonly deadline?: number
  /**
   * Pseudo relevance feedback as part of the first stage: the first stage's top candidates
   * (1,000 by default) re-ranked under the query expanded from their own top 10. Defaults to off.
   */
  readonly prf?: boolean | PrfOptions
  /**
   * Count the years, publication types and languages of every matching document (`facets` of the
   * result). Defaults to `false`.
   */
  readonly facets?: boolean
  /**
   * The citation sensor: when the query is a citation of one article of the index (journal with
   * year, volume, issue, page or first author; or its title pasted whole), that article is ranked
   * first and the result says so (`citationMatch`). Applies to relevance-sorted searches without
   * filters, on engines opened with `citations`. Defaults to `true`.
   */
  readonly citation?: boolean
}

/** A result page. */
export interface EngineResult {
  readonly query: string
  /** Matching documents. */
  readonly total: number
  readonly totalRelation: 'eq' | 'gte'
  readonly offset: number
  readonly hits: readonly EngineHit[]
  /** Whether the model reordered the top candidates. */
  readonly reranked: boolean
  /** Set when a model is loaded but left this query in first-stage order, and why. */
  readonly fallback?: RerankFallback
  readonly warnings: readonly SearchWarning[]
  readonly tookMs: number
  /** With `prf`: the expanded query's terms and weights, heaviest first. */
  readonly prf?: { readonly terms: ReadonlyArray<readonly [string, number]> }
  /** With `facets`: counts over the matching set. */
  readonly facets?: SearchFacets
  /** With `ranking.termMapping`: the query as searched (PubMed syntax) and the runs of words that mapped. */
  readonly translation?: { readonly query: string; readonly mappings: readonly TermMapping[] }
  /**
   * Set when the citation sensor recognised the query as a citation of one article: which, and
   * the parts that matched. That article is ranked first; the rest keep their order after it. When
   * the query itself does not match it, it is counted in `total` and its first-stage rank is `NaN`.
   */
  readonly citationMatch?: CitationMatch
}

/** Why a document is where it is for a query. */
export interface DocumentExplanation {
  readonly id: string
  readonly query: string
  /** Whether the document matches the query at all. */
  readonly matches: boolean
  /** Its first-stage rank and score and the scorer's explanation tree. */
  readonly firstStage?: { readonly rank: number; readonly score: number; readonly explain?: Explanation }
  /**
   * The model's score and each feature's value and contribution (Saabas attribution), when a model
   * is loaded and the document is among the candidates it reorders.
   */
  readonly secondStage?: {
    readonly rank: number
    readonly score: number
    readonly bias: number
    readonly contributions: readonly FeatureContribution[]
  }
  /** Set when the model left the query in first-stage order. */
  readonly fallback?: RerankFallback
  readonly document: StoredDocument
}

/** How an engine was opened, as plain data (what a worker needs to open the same engine). */
export type SearchEngineSource = Omit<OpenSearchOptions, 'onProgress'>

/** Options of {@link SearchEngine.firstStageSearch}: per search, over the engine's first stage. */
export interface FirstStageSearchOptions {
  /** Candidates returned. Defaults to `500`. */
  readonly limit?: number
  readonly filters?: SearchFilters
  /** Attach the scorer's explanation tree to each hit. Defaults to `false`. */
  readonly explain?: boolean
  /**
   * Count every match for `total` (what a model's F176 reads: training and `run` with a model
   * count exactly). Defaults to `true` for `match: 'all'` and `false` for `any`.
   */
  readonly exactTotal?: boolean
  /** The order of equal scores (`idDescending` is trec_eval's). Defaults to `docNumber`. */
  readonly tieBreak?: TieBreak
  /** Stop with `TIMEOUT` once `performance.now()` passes this (milliseconds). Defaults to none. */
  readonly deadline?: number
}

/** A whole ranking, as a TREC run writes it. */
export interface EngineRun {
  hits: Array<{ id: string; score: number; rank: number }>
  /** Set when a model is loaded but left this query in first-stage order, and why. */
  fallback?: RerankFallback
  warnings: readonly SearchWarning[]
}

/** The model an engine reranks with. */
export interface EngineModel {
  readonly dir: string
  readonly id: string
  /** Candidates it reorders. */
  readonly depth: number
  /** What the model records: its features, training, first stage and query ranges. */
  readonly manifest: ModelManifest
}

/** The opened engine. */
export interface SearchEngine {
  /** The options it was opened with, without `onProgress`. */
  readonly openedWith: SearchEngineSource
  readonly indexDir: string
  readonly settings: IndexSettings
  /** The index generation this engine searches. */
  readonly generation: number
  readonly docCount: number
  /** The first stage, as a model records it. */
  readonly firstStage: CurrentFirstStage
  /** The loaded model. */
  readonly model?: EngineModel
  /**
   * A page of results.
   * @param query - PubMed syntax (or plain text for test collections)
   * @param options - paging, sort, filters, explanations, deadline
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `INVALID_ARGUMENT` (a page beyond the
   *   result window), `TIMEOUT`
   */
  search(query: string, options?: EngineSearchOptions): EngineResult
  /**
   * The first stage alone: this engine's ranker, query reading and MeSH vocabulary, without PRF
   * or the model (the candidates a model reorders, what training searches).
   * @param query - PubMed syntax (or plain text for test collections)
   * @param options - see {@link FirstStageSearchOptions}
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `TIMEOUT`
   */
  firstStageSearch(query: string, options?: FirstStageSearchOptions): SearchResult
  /**
   * How many first-stage candidates {@link SearchEngine.search} needs for these options (the page,
   * the model's depth, PRF's candidates, the date sort's window), and whether the total must be
   * exact (the model's F176). A first stage run elsewhere (a Solr backend) asks for as many.
   * @throws PubmatchError `INVALID_ARGUMENT` (a bad or too deep page)
   */
  firstStageRequest(options?: EngineSearchOptions): { readonly limit: number; readonly exactTotal: boolean }
  /**
   * A result page from a first-stage result computed elsewhere (a Solr backend): PRF, the model,
   * paging, the date sort and the stored records, exactly as `search` does after its first stage.
   * The candidates' `docNumber`s must be this engine's.
   * @param query - the query
   * @param result - the first-stage result (at least `firstStageRequest(options).limit` deep)
   * @param options - as `search`'s
   * @param started - `performance.now()` when the request started (for `tookMs`)
   */
  pageFrom(query: string, result: SearchResult, options?: EngineSearchOptions, started?: number): EngineResult
  /**
   * A whole ranking for a TREC run: trec_eval's tie order, the top candidates reranked.
   * @param query - the query
   * @param limit - documents. Defaults to `1000`.
   */
  run(query: string, limit?: number, options?: { readonly prf?: boolean | PrfOptions }): EngineRun
  /**
   * `run` from a first-stage result computed elsewhere (in trec_eval's tie order, at least
   * `max(limit, model depth)` deep).
   */
  runFrom(query: string, result: SearchResult, limit?: number, options?: { readonly prf?: boolean | PrfOptions }): EngineRun
  /**
   * Why a document ranks where it does for a query.
   * @param id - the document id (PMID)
   * @param query - the query
   * @throws PubmatchError `NOT_FOUND` for an id the index does not hold
   */
  explain(id: string, query: string, options?: { readonly filters?: SearchFilters }): DocumentExplanation
  /** A document's stored record, or `undefined`. */
  document(id: string): StoredDocument | undefined
  /**
   * Title and abstract snippet of a hit with the query's words marked.
   * @param document - a stored record
   * @param query - the query
   */
  highlights(document: StoredDocument, query: string): { readonly title: Highlighted; readonly snippet: Highlighted }
  /**
   * Loads the forward store (the document token streams of the second stage's features) now,
   * building or extending it from the corpus when the index moved on (reporting to `onProgress`).
   * A model, training and feature export load it themselves; this is for doing it ahead of them.
   * @throws PubmatchError `NOT_FOUND` when it must be built and the corpus is gone
   */
  prepareFeatures(): Promise<void>
}

/**
 * An engine's parts, for this package's modules (feedback sessions, the Solr backend, training)
 * and, through `@pubmatch/engine/internal`, for other pubmatch packages and benchmarks.
 */
export interface EngineInternals {
  readonly reader: IndexReader
  /** The first-stage searcher with the engine's defaults (ranker, query reading, MeSH). */
  readonly searcher: FirstStageRanker
  /** The analyzer of the index's text fields. */
  readonly analyzer: Analyzer
  /** Marks query words in titles and abstracts. */
  readonly highlighter: Highlighter
  /** The forward store (loaded with a model, else on first use). */
  readonly forwardStore: () => Promise<ForwardIndex>
  /** The opened model's reranker over this engine's index (`undefined` without a model). */
  readonly reranker: BestMatchReranker | undefined
  /** The stored records read lately, parsed (see `recordCache` of {@link OpenSearchOptions}). */
  readonly records: RecordCache
}

/** What the engine's operations work on. */
interface EngineState extends EngineInternals {
  /** What the engine read of its index (shared with the engines `withModel` makes). */
  readonly parts: IndexParts
  readonly model: EngineModel | undefined
  /** Candidates the model reorders (0 without a model). */
  readonly depth: number
  /** The citation sensor's matcher (`undefined` when not loaded). */
  readonly citations: CitationMatcher | undefined
}

const internals = new WeakMap<SearchEngine, EngineState>()

/**
 * The parts of an engine opened by {@link openSearch}.
 * @param engine - the engine
 * @throws PubmatchError `INVALID_ARGUMENT` for an object `openSearch` did not return
 */
export function engineInternals(engine: SearchEngine): EngineInternals {
  const state = internals.get(engine)
  if (state === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', `the engine of ${engine.indexDir} was not opened by openSearch`)
  }
  return state
}

/**
 * The analyzer of an engine's text fields (the title's, else the first field's).
 * @param engine - the engine
 */
export function analyzerOf(engine: SearchEngine): Analyzer {
  return engineInternals(engine).analyzer
}

/** How deep `explain` looks for a document's first-stage rank. */
const EXPLAIN_WINDOW = 1000

/** How far into a ranking a page may start, as PubMed (its last page ends at 10,000). */
export const RESULT_WINDOW = 10_000

/**
 * Opens an index (and a model) for searching.
 * @param options - see {@link OpenSearchOptions}
 * @throws PubmatchError `NOT_FOUND` (no index or model), `SCHEMA_MISMATCH` (a model trained on
 *   other features or another first stage)
 */
export async function openSearch(options: OpenSearchOptions): Promise<SearchEngine> {
  return assemble(await openIndexParts(options), options)
}

/**
 * What an engine reads of its index; with `earlier` (an engine over an earlier generation of the
 * same index directory), the segments the new generation still lists are shared with it.
 */
async function openIndexParts(options: OpenSearchOptions, earlier?: EngineState): Promise<IndexParts> {
  const settings = await readIndexSettings(options.index)
  const reader = await openIndex(options.index, earlier === undefined ? {} : { reuse: earlier.reader })
  const citations =
    options.citations !== false && settings.fieldSet !== 'test-collection'
      ? await corpusCitationMatcher(settings, reader, options.index)
      : undefined
  const { searcher, firstStage } = await firstStageOf(reader, settings, options, citations)
  let forward: Promise<ForwardIndex> | undefined
  const forwardStore = (): Promise<ForwardIndex> => {
    forward ??= openForwardStore(options.index, reader, settings, options.onProgress)
    return forward
  }
  const analyzer = reader.analyzer(textFieldOf(reader))
  const highlighter = createHighlighter({ analyzer })
  const records = createRecordCache((doc) => reader.stored(doc), options.recordCache ?? DEFAULT_RECORD_CACHE)
  return { settings, reader, searcher, firstStage, citations, forwardStore, analyzer, highlighter, records }
}

/** The model an engine is opened with (see {@link withModel}). */
export type EngineModelOptions = Pick<
  OpenSearchOptions,
  'model' | 'usageLog' | 'depth' | 'rangeMargin'
>

/**
 * An engine over the same index parts as `engine` (its index reader at its generation, first
 * stage, MeSH vocabulary, citation table and forward store, none of them read again) with
 * another model, or none: what swapping the model of a served engine takes. The model is opened
 * and checked as {@link openSearch} opens one.
 * @param engine - an engine opened by {@link openSearch} (or by this function)
 * @param options - the model, and its usage log, depth and range margin (each defaults as in
 *   {@link openSearch}, not to `engine`'s)
 * @throws PubmatchError `NOT_FOUND` (no model), `SCHEMA_MISMATCH` (a model trained on other
 *   features or another first stage), `INVALID_ARGUMENT` (a model with automatic term mapping,
 *   or an engine `openSearch` did not open)
 */
export async function withModel(
  engine: SearchEngine,
  options: EngineModelOptions,
): Promise<SearchEngine> {
  const state = internals.get(engine)
  if (state === undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `the engine of ${engine.indexDir} was not opened by openSearch`,
    )
  }
  const {
    model: _model,
    usageLog: _usageLog,
    depth: _depth,
    rangeMargin: _rangeMargin,
    ...index
  } = engine.openedWith
  if (index.ranking?.termMapping === true && options.model !== undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', TERM_MAPPING_WITH_MODEL)
  }
  return assemble(state.parts, { ...index, ...options }, state)
}

/**
 * The engine a reload asks for: `engine`'s index (or another index directory) at its newest
 * generation, with `engine`'s model (or another, or none with `null`) and `engine`'s first stage.
 * When the index is `engine`'s and has not moved on since (its manifest's generation and its
 * settings' build time are the engine's), only the model is opened ({@link withModel}); otherwise
 * the index is opened again with the first stage's ranker, parameters, match mode and syntax. A
 * new generation of `engine`'s own index shares with `engine` the segments it still lists
 * unchanged (`openIndex`'s `reuse`: only new segments and changed deletions are read), and a model
 * whose directory holds the model `engine` serves keeps its parsed and compiled trees.
 * @param engine - the engine served now
 * @param request - the index directory and the model directory (`null`: no model); each defaults
 *   to `engine`'s
 * @throws PubmatchError as {@link openSearch}
 */
export async function reopenSearch(
  engine: SearchEngine,
  request: { readonly index?: string; readonly model?: string | null },
): Promise<SearchEngine> {
  const model = request.model === null ? undefined : (request.model ?? engine.model?.dir)
  const index = request.index ?? engine.indexDir
  const state = internals.get(engine)
  if (index === engine.indexDir && state !== undefined && (await unchanged(engine))) {
    return withModel(engine, model === undefined ? {} : { model })
  }
  const options: OpenSearchOptions = {
    index,
    ranking: {
      ranker: engine.firstStage.ranker as ScorerName,
      params: engine.firstStage.params,
      match: engine.firstStage.match,
      syntax: engine.firstStage.syntax,
    },
    ...(model === undefined ? {} : { model }),
    ...(engine.openedWith.recordCache === undefined ? {} : { recordCache: engine.openedWith.recordCache }),
  }
  // a new generation of the same index shares the segments it still has with the served engine,
  // and the same model's parsed and compiled trees
  return assemble(await openIndexParts(options, index === engine.indexDir ? state : undefined), options, state)
}

/**
 * Whether an engine's index directory still holds the index it opened: the same generation, and
 * settings of the same build (a rebuild swaps in a new index whose generation may be the same).
 */
async function unchanged(engine: SearchEngine): Promise<boolean> {
  const [generation, settings] = await Promise.all([readIndexGeneration(engine.indexDir), readIndexSettings(engine.indexDir)])
  return generation === engine.generation && settings.builtAt === engine.settings.builtAt
}

/** What an engine reads of its index, shared by the engines {@link withModel} makes from it. */
interface IndexParts {
  readonly settings: IndexSettings
  readonly reader: IndexReader
  readonly searcher: FirstStageRanker
  readonly firstStage: CurrentFirstStage
  readonly citations: CitationMatcher | undefined
  readonly forwardStore: () => Promise<ForwardIndex>
  readonly analyzer: Analyzer
  readonly highlighter: Highlighter
  readonly records: RecordCache
}

/**
 * An engine over index parts, with the options' model (the trees of `earlier`'s model when it is
 * the same model).
 */
async function assemble(parts: IndexParts, options: OpenSearchOptions, earlier?: EngineState): Promise<SearchEngine> {
  const { settings, reader, searcher, firstStage, citations, forwardStore, analyzer, highlighter, records } =
    parts
  const opened = await openModel(options, reader, firstStage, forwardStore, earlier?.reranker)
  const model = opened?.model
  const state: EngineState = {
    parts,
    reader,
    searcher,
    analyzer,
    highlighter,
    forwardStore,
    records,
    reranker: opened?.reranker,
    model,
    depth: model?.depth ?? 0,
    citations,
  }
  const { onProgress: _onProgress, ...openedWith } = options
  const engine: SearchEngine = {
    openedWith,
    indexDir: options.index,
    settings,
    generation: reader.generation,
    docCount: reader.docCount,
    firstStage,
    ...(model === undefined ? {} : { model }),
    search: (query, searchOptions = {}) => search(state, query, searchOptions),
    firstStageSearch: (query, searchOptions) => searcher.search(query, searchOptions),
    firstStageRequest: (searchOptions = {}) => firstStageRequest(state, searchOptions),
    pageFrom: (query, result, searchOptions = {}, started = performance.now()) =>
      pageFrom(state, query, result, searchOptions, started),
    run: (query, limit = 1000, runOptions = {}) => run(state, query, limit, runOptions),
    runFrom: (query, result, limit = 1000, runOptions = {}) =>
      runFrom(state, query, result, limit, runOptions),
    explain: (id, query, explainOptions = {}) => explain(state, id, query, explainOptions),
    document: (id) => storedDocument(state, id),
    highlights: (document, query) => highlightDocument(state.highlighter, document, query),
    prepareFeatures: async () => {
      await forwardStore()
    },
  }
  internals.set(engine, state)
  return engine
}

/** The text field whose analyzer the engine's text goes through (the title, else the first field). */
function textFieldOf(reader: IndexReader): string {
  return reader.hasField('title') ? 'title' : reader.schema.fields[0]!.name
}

const TERM_MAPPING_WITH_MODEL = 'automatic term mapping is not part of a model’s first stage: search with the model without it, or without the model'

/** The first-stage searcher of the ranking options over an index, and its record for models. */
async function firstStageOf(
  reader: IndexReader,
  settings: IndexSettings,
  options: OpenSearchOptions,
  citations: CitationMatcher | undefined,
): Promise<{ searcher: FirstStageRanker; firstStage: CurrentFirstStage }> {
  const ranking = options.ranking ?? {}
  const testCollection = settings.fieldSet === 'test-collection'
  const termMapping = ranking.termMapping === true
  if (termMapping && options.model !== undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', TERM_MAPPING_WITH_MODEL)
  }
  const meshWanted = termMapping || (ranking.mesh !== false && !testCollection)
  const mesh = meshWanted ? await corpusMeshLookup(settings, options.index) : undefined
  const ranker = { name: ranking.ranker ?? 'bm25f', params: { ...ranking.params } } as ScorerConfig
  const defaults: SearchOptions = {
    ranker,
    match: ranking.match ?? (testCollection ? 'any' : 'all'),
    syntax: ranking.syntax ?? (testCollection ? 'plain' : 'pubmed'),
    parse: ranking.recover === true ? { recover: true } : {},
    mesh: ranking.mesh !== false && !testCollection ? mesh : undefined,
    ...(termMapping
      ? { termMapping: { ...(mesh === undefined ? {} : { mesh }), ...(citations === undefined ? {} : { journal: (text: string) => citations.journal(text) }) } }
      : {}),
  }
  const firstStage: CurrentFirstStage = {
    ranker: ranker.name,
    params: { ...ranking.params },
    analyzer: reader.analyzer(textFieldOf(reader)).name,
    fieldSet: settings.fieldSet,
    fields: reader.schema.fields.filter((field) => !field.keyword).map((field) => field.name),
    match: defaults.match ?? 'all',
    syntax: defaults.syntax ?? 'pubmed',
  }
  return { searcher: createSearcher(reader, defaults), firstStage }
}

/** The model of the options, opened over the index and checked against its first stage, and its reranker. */
async function openModel(
  options: OpenSearchOptions,
  reader: IndexReader,
  firstStage: CurrentFirstStage,
  forwardStore: () => Promise<ForwardIndex>,
  earlier: BestMatchReranker | undefined,
): Promise<{ readonly model: EngineModel; readonly reranker: BestMatchReranker } | undefined> {
  if (options.model === undefined) {
    if (options.usageLog !== undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', 'a usage log only matters with a model')
    }
    return undefined
  }
  const usage = options.usageLog === undefined ? undefined : (await readUsage(options.usageLog)).total
  // a model trained with the full-text section features gets them back from the full-text index
  const needsSections = (await modelManifest(options.model)).schema.version.includes(SECTION_FEATURES_SUFFIX)
  const blocks = needsSections ? [sectionFeatureBlock(await openFulltextIndex(fulltextDir(options.index)))] : []
  const reranker = await openReranker(options.model, {
    blocks,
    reader,
    forward: await forwardStore(),
    syntax: firstStage.syntax,
    firstStage,
    ...(usage === undefined ? {} : { usage }),
    ...(options.rangeMargin === undefined ? {} : { rangeMargin: options.rangeMargin }),
    ...(earlier === undefined ? {} : { reuse: earlier }),
  })
  const model = { dir: options.model, id: reranker.id, depth: options.depth ?? reranker.manifest.firstStage.depth, manifest: reranker.manifest }
  return { model, reranker }
}

/**
 * A model directory's manifest, read without parsing its trees (`openReranker` parses them once);
 * a directory whose manifest cannot be read or is not one is left to `loadModel`, which says what
 * is wrong with it exactly as opening the model would.
 */
async function modelManifest(dir: string): Promise<ModelManifest> {
  const file = join(dir, MODEL_MANIFEST_FILE)
  try {
    return parseModelManifest(await readFile(file, 'utf8'), file)
  } catch {
    return (await loadModel(dir)).manifest
  }
}

function search(state: EngineState, query: string, options: EngineSearchOptions): EngineResult {
  const started = performance.now()
  const { limit, exactTotal } = firstStageRequest(state, options)
  let result: SearchResult
  try {
    result = state.searcher.search(query, {
      ...(options.filters === undefined ? {} : { filters: options.filters }),
      ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
      explain: options.explain === true,
      limit,
      ...(exactTotal ? { exactTotal: true } : {}),
    })
  } catch (error) {
    // a citation typed as people type them ("Angew. Chem. Int. Ed. Engl. 2015;54:10604", a
    // title in brackets or with "#1") need not be a valid PubMed search: the cited article alone
    const sensed = isPubmatchError(error) && (error.code === 'QUERY_SYNTAX' || error.code === 'UNKNOWN_FIELD' || error.code === 'INVALID_ARGUMENT') ? senseCitation(state, query, options) : undefined
    const docNumber = sensed === undefined ? undefined : state.reader.docNumber(sensed.id)
    if (sensed === undefined || docNumber === undefined || !(error instanceof PubmatchError)) {
      throw error
    }
    const offset = options.offset ?? 0
    const limitShown = options.limit ?? 20
    const cited = toHit(state.records, { id: sensed.id, docNumber, score: 0, rank: Number.NaN }, 1, 0)
    return {
      query,
      total: 1,
      totalRelation: 'eq',
      offset,
      hits: offset === 0 && limitShown > 0 ? [cited] : [],
      reranked: false,
      warnings: [{ code: 'CITATION_ONLY', message: `${error.code}: ${error.message.split('\n')[0]!}; the query cites ${sensed.id}, the only result` }],
      citationMatch: sensed,
      tookMs: performance.now() - started,
    }
  }
  return pageFrom(state, query, result, options, started)
}

/** The citation sensor's match for a query, when it applies to these options. */
function senseCitation(state: EngineState, query: string, options: EngineSearchOptions): CitationMatch | undefined {
  return state.citations !== undefined && options.citation !== false && options.sort !== 'date' && options.filters === undefined
    ? state.citations.match(query)
    : undefined
}

function firstStageRequest(state: EngineState, options: EngineSearchOptions): { readonly limit: number; readonly exactTotal: boolean } {
  const offset = options.offset ?? 0
  const limit = options.limit ?? 20
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `offset and limit must be non-negative integers, got ${offset} and ${limit}`)
  }
  if (offset + limit > RESULT_WINDOW) {
    throw new PubmatchError('INVALID_ARGUMENT', `results ${offset + 1}–${offset + limit} are beyond the result window of ${RESULT_WINDOW}; narrow the query`, {
      details: { offset, limit, window: RESULT_WINDOW },
    })
  }
  if (options.sort === 'date') {
    // newest first over the matches (the best RESULT_WINDOW by relevance when there are more)
    return { limit: RESULT_WINDOW, exactTotal: false }
  }
  const useModel = state.model !== undefined && options.rerank !== false
  const prf = prfOptions(options.prf)
  return {
    limit: Math.max(offset + limit, useModel ? state.depth : 0, prf === undefined ? 0 : (prf.candidates ?? PRF_CANDIDATES)),
    // the model's F176 is the exact result count, as in training
    exactTotal: useModel,
  }
}

function pageFrom(state: EngineState, query: string, firstStageResult: SearchResult, options: EngineSearchOptions, started: number): EngineResult {
  const page = citationPage(state, query, firstStageResult, options, started)
  if (options.facets !== true) {
    return page
  }
  const facets = matchingFacets(state.reader, state.searcher, query, options.filters, options.deadline)
  return { ...page, facets }
}

/**
 * The citation sensor over a ranked page: the article a citation query names first, then the
 * ranking without it. Needs the ranking only as deep as the page: the cited article takes the
 * place of the one it pushes past the page's end.
 */
function citationPage(state: EngineState, query: string, firstStageResult: SearchResult, options: EngineSearchOptions, started: number): EngineResult {
  const sensed = senseCitation(state, query, options)
  const docNumber = sensed === undefined ? undefined : state.reader.docNumber(sensed.id)
  if (sensed === undefined || docNumber === undefined) {
    return rankedPage(state, query, firstStageResult, options, started)
  }
  const offset = options.offset ?? 0
  const limit = options.limit ?? 20
  const { records } = state
  const whole = rankedPage(state, query, firstStageResult, { ...options, offset: 0, limit: offset + limit }, started)
  let cited = whole.hits.find((hit) => hit.docNumber === docNumber)
  let matchesQuery = true
  if (cited === undefined) {
    const candidate =
      firstStageResult.hits.find((hit) => hit.docNumber === docNumber) ??
      state.searcher.search(query, { limit: 1, explain: options.explain === true, filters: { ids: [sensed.id] } }).hits[0]
    matchesQuery = candidate !== undefined
    cited =
      candidate === undefined
        ? toHit(records, { id: sensed.id, docNumber, score: 0, rank: Number.NaN }, 1, 0)
        : toHit(records, { ...candidate, rank: firstStageResult.hits.includes(candidate) ? candidate.rank : Number.NaN }, 1, candidate.score)
  }
  const ranking = [cited, ...whole.hits.filter((hit) => hit.docNumber !== docNumber)]
  const hits = ranking.slice(offset, offset + limit).map((hit, i) => ({ ...hit, rank: offset + i + 1 }))
  return {
    ...whole,
    offset,
    hits,
    total: whole.total + (matchesQuery ? 0 : 1),
    citationMatch: sensed,
    tookMs: performance.now() - started,
  }
}

function rankedPage(state: EngineState, query: string, firstStageResult: SearchResult, options: EngineSearchOptions, started: number): EngineResult {
  const { reader, records, reranker, depth } = state
  const offset = options.offset ?? 0
  const limit = options.limit ?? 20
  let result = firstStageResult
  if (options.sort === 'date') {
    const dates = reader.numericValues('pubdate')
    const ordered = [...result.hits].sort((a, b) => dateOf(dates, b) - dateOf(dates, a) || a.rank - b.rank)
    const hits = ordered.slice(offset, offset + limit).map((hit, i) => toHit(records, hit, offset + i + 1, hit.score))
    return finish(query, result, offset, hits, false, undefined, started)
  }
  const prf = prfOptions(options.prf)
  let prfTerms: PrfResult['terms'] | undefined
  if (prf !== undefined) {
    checkTime(options.deadline)
    const expanded = applyPrf(reader, state.analyzer, query, result, prf)
    result = expanded.result
    prfTerms = expanded.terms
  }
  const withPrf = (page: EngineResult): EngineResult => (prfTerms === undefined ? page : { ...page, prf: { terms: prfTerms } })
  if (reranker === undefined || options.rerank === false || result.hits.length === 0) {
    const hits = result.hits.slice(offset, offset + limit).map((hit) => toHit(records, hit, hit.rank, hit.score))
    return withPrf(finish(query, result, offset, hits, false, undefined, started))
  }
  checkTime(options.deadline)
  const head = result.hits.slice(0, depth)
  const reranked = reranker.rerank(query, { ...result, hits: head }, { explain: options.explain === true })
  checkTime(options.deadline)
  const byDoc = new Map(head.map((hit) => [hit.docNumber, hit]))
  const ranking: EngineHit[] = []
  for (let i = offset; i < Math.min(offset + limit, result.hits.length); i++) {
    if (i < reranked.hits.length) {
      const hit = reranked.hits[i]!
      const candidate = byDoc.get(hit.docNumber)!
      ranking.push(
        reranked.fallback === undefined
          ? toHit(records, candidate, i + 1, hit.score, { score: hit.score, ...(hit.explain === undefined ? {} : { explain: hit.explain }) })
          : toHit(records, candidate, i + 1, hit.score),
      )
    } else {
      const candidate = result.hits[i]!
      ranking.push(toHit(records, candidate, i + 1, candidate.score))
    }
  }
  return withPrf(finish(query, result, offset, ranking, reranked.fallback === undefined, reranked.fallback, started))
}

function run(state: EngineState, query: string, limit: number, options: { readonly prf?: boolean | PrfOptions }): EngineRun {
  const prf = prfOptions(options.prf)
  const result = state.searcher.search(query, {
    limit: Math.max(limit, state.depth, prf === undefined ? 0 : (prf.candidates ?? PRF_CANDIDATES)),
    tieBreak: 'idDescending',
    ...(state.model === undefined ? {} : { exactTotal: true }),
  })
  return runFrom(state, query, result, limit, options)
}

function runFrom(
  state: EngineState,
  query: string,
  firstStageResult: SearchResult,
  limit: number,
  options: { readonly prf?: boolean | PrfOptions },
): EngineRun {
  const { reranker } = state
  const prf = prfOptions(options.prf)
  let result = firstStageResult
  if (prf !== undefined) {
    result = applyPrf(state.reader, state.analyzer, query, result, prf).result
    if (reranker === undefined) {
      // the re-ranked candidates, then the first stage's tail, with scores that keep that order
      const n = result.hits.length
      return { hits: result.hits.slice(0, limit).map((hit, i) => ({ id: hit.id, score: n - i, rank: i + 1 })), warnings: result.warnings }
    }
  }
  if (reranker === undefined) {
    return { hits: result.hits.slice(0, limit).map((hit) => ({ id: hit.id, score: hit.score, rank: hit.rank })), warnings: result.warnings }
  }
  const ranked = reranker.rerank(query, result, { depth: state.depth })
  const hits = ranked.hits.slice(0, limit).map((hit) => ({ id: hit.id, score: hit.score, rank: hit.rank }))
  return { hits, ...(ranked.fallback === undefined ? {} : { fallback: ranked.fallback }), warnings: result.warnings }
}

function explain(state: EngineState, id: string, query: string, options: { readonly filters?: SearchFilters }): DocumentExplanation {
  const { reader, searcher, reranker, depth } = state
  const docNumber = reader.docNumber(id)
  if (docNumber === undefined) {
    throw new PubmatchError('NOT_FOUND', `no document ${id} in the index`, { details: { record: id } })
  }
  const document = state.records.get(docNumber)
  // deep enough to find the rank of anything a result page shows near the top
  const window = Math.max(depth, EXPLAIN_WINDOW)
  const filters = options.filters
  const result = searcher.search(query, {
    limit: window,
    explain: true,
    ...(reranker === undefined ? {} : { exactTotal: true }),
    ...(filters === undefined ? {} : { filters }),
  })
  const position = result.hits.findIndex((hit) => hit.docNumber === docNumber)
  if (position < 0) {
    // beyond the candidates: its own first-stage score, from a search restricted to it
    const own = searcher.search(query, { limit: 1, explain: true, filters: { ...filters, ids: [id] } })
    const hit = own.hits[0]
    return {
      id,
      query,
      matches: hit !== undefined,
      ...(hit === undefined ? {} : { firstStage: { rank: Number.NaN, score: hit.score, ...(hit.explain === undefined ? {} : { explain: hit.explain }) } }),
      document,
    }
  }
  const candidate = result.hits[position]!
  const firstStageInfo = { rank: candidate.rank, score: candidate.score, ...(candidate.explain === undefined ? {} : { explain: candidate.explain }) }
  if (reranker === undefined || position >= depth) {
    // no model, or a candidate the model does not reorder
    return { id, query, matches: true, firstStage: firstStageInfo, document }
  }
  const head = { ...result, hits: result.hits.slice(0, depth) }
  const reranked = reranker.rerank(query, head, { explain: true, outOfRange: 'rerank' })
  const fallback = reranker.rerank(query, { ...result, hits: result.hits.slice(0, 1) }).fallback
  const at = reranked.hits.findIndex((hit) => hit.docNumber === docNumber)
  const hit = reranked.hits[at]!
  return {
    id,
    query,
    matches: true,
    firstStage: firstStageInfo,
    secondStage: { rank: at + 1, score: hit.score, bias: hit.explain!.bias, contributions: hit.explain!.contributions },
    ...(fallback === undefined ? {} : { fallback }),
    document,
  }
}

function storedDocument(state: EngineState, id: string): StoredDocument | undefined {
  const docNumber = state.reader.docNumber(id)
  return docNumber === undefined ? undefined : state.records.get(docNumber)
}

function toHit(records: RecordCache, candidate: Candidate, rank: number, score: number, second?: EngineHit['secondStage']): EngineHit {
  return {
    id: candidate.id,
    docNumber: candidate.docNumber,
    rank,
    score,
    firstStage: { score: candidate.score, rank: candidate.rank, ...(candidate.explain === undefined ? {} : { explain: candidate.explain }) },
    ...(second === undefined ? {} : { secondStage: second }),
    document: records.get(candidate.docNumber),
  }
}

/**
 * A mapped query as PubMed text; a plain-text query whose words PubMed's syntax cannot hold (a lone
 * `"`) is written with its terms as typed, for people to read.
 */
function translationText(query: QueryNode): string {
  try {
    return formatQuery(query)
  } catch {
    const write = (node: QueryNode, parent: 'and' | 'or' | undefined): string => {
      switch (node.kind) {
        case 'term':
          return node.field === null ? node.text : `"${node.text}"[${node.field}]`
        case 'and':
        case 'or': {
          const text = node.children.map((child) => write(child, node.kind)).join(node.kind === 'and' ? ' AND ' : ' OR ')
          return parent === undefined ? text : `(${text})`
        }
        case 'not':
          return `${write(node.include, 'and')} NOT ${write(node.exclude, 'and')}`
        default:
          return formatQuery(node)
      }
    }
    return write(query, undefined)
  }
}

function dateOf(dates: Float64Array, hit: Candidate): number {
  const value = dates[hit.docNumber]
  return value === undefined || Number.isNaN(value) ? -Infinity : value
}

function checkTime(deadline: number | undefined): void {
  if (deadline !== undefined && performance.now() > deadline) {
    throw new PubmatchError('TIMEOUT', 'the search ran past its deadline')
  }
}

function finish(
  query: string,
  result: SearchResult,
  offset: number,
  hits: EngineHit[],
  reranked: boolean,
  fallback: RerankFallback | undefined,
  started: number,
): EngineResult {
  return {
    query,
    total: result.total,
    totalRelation: result.totalRelation,
    offset,
    hits,
    reranked,
    ...(fallback === undefined ? {} : { fallback }),
    warnings: result.warnings,
    ...(result.mappings === undefined ? {} : { translation: { query: translationText(result.query), mappings: result.mappings } }),
    tookMs: performance.now() - started,
  }
}
