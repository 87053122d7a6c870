/**
 * The first-stage retrieval contract: what `createSearcher` returns and what the LTR reranker
 * and relevance feedback consume (they use these types only, never the searcher's internals).
 */
import type { Analyzer } from '@pubmatch/analysis'
import type { QueryNode } from '../query/ast.ts'
import type { MeshLookup } from '../query/mesh.ts'
import type { ParseQueryOptions } from '../query/parse.ts'
import type { QueryWarning } from '../query/problems.ts'
import type { TermMapping, TermMappingLookup } from '../query/term-mapping.ts'
import type { Explanation } from '../scoring/explanation.ts'
import type { ScorerConfig, ScorerName } from '../scoring/scorer.ts'

/** One retrieved document. */
export interface Candidate {
  /** The external id (PMID or collection document id). */
  readonly id: string
  /** The document number in the reader that produced it (valid for that reader only). */
  readonly docNumber: number
  /** The first-stage score (higher is better). */
  readonly score: number
  /** 1-based rank in `SearchResult.hits`. */
  readonly rank: number
  /** The scorer's explanation tree, when `explain` was asked for; `explain.value === score`. */
  readonly explain?: Explanation
}

/**
 * How the words of one search term combine.
 *
 * - `all`: PubMed's Boolean semantics. Every word of a bare run (`deep fried foods`) must occur
 *   somewhere in the searched fields; explicit `AND`/`OR`/`NOT`, phrases and tags as written.
 * - `any`: ranked retrieval over the disjunction of the words, as TREC-style test collections
 *   are evaluated: a document matches when it contains at least one word of the run. Explicit
 *   operators, phrases and tags keep their meaning.
 */
export type MatchMode = 'all' | 'any'

/** How a query string is read. */
export type QuerySyntax = 'pubmed' | 'plain'

/**
 * Order among equal scores. `docNumber`: ascending document number (index order).
 * `idDescending`: external id descending by code point, the order `trec_eval` gives ties, so a
 * run written from the hits is exactly what `trec_eval` evaluates.
 */
export type TieBreak = 'docNumber' | 'idDescending'

/** Restrictions applied on top of the query (PubMed's sidebar filters). */
export interface SearchFilters {
  /**
   * Publication years, inclusive `[from, to]`, from the `year` doc values. Documents without a
   * year are excluded. Defaults to no restriction.
   */
  readonly years?: readonly [number, number]
  /**
   * Publication types (`Review`, `Randomized Controlled Trial`), matched case-insensitively as
   * `[pt]` values; a document needs one of them. Defaults to no restriction.
   */
  readonly publicationTypes?: readonly string[]
  /** Language codes (`eng`), as `[la]` values; a document needs one of them. Defaults to no restriction. */
  readonly languages?: readonly string[]
  /** Document ids (PMIDs); a document needs to be one of them. Defaults to no restriction. */
  readonly ids?: readonly string[]
}

/**
 * A MeSH vocabulary for `[mh]`/`[majr]` terms: the parser's {@link MeshLookup}, optionally with
 * descriptor names. With `descriptorName`, exploded descriptors are matched by name in the
 * `[mh]`/`[majr]` keyword fields (postings); without it, `[mh]` is matched against the
 * `mesh_ui` doc values (a scan of the candidates) and `[majr]` by name without explosion.
 */
export interface SearchMeshLookup extends MeshLookup {
  /**
   * The preferred name of a descriptor (`D009369` → `Neoplasms`), as indexed in the MeSH heading
   * fields; `undefined` when unknown.
   */
  descriptorName?(ui: string): string | undefined
}

/** Options of a search; those given to `createSearcher` are the defaults of every search. */
export interface SearchOptions {
  /**
   * The scoring function and its parameters (k1, b, per-field weights and b, …), by name or as
   * `{ name, params }`. Defaults to `DEFAULT_RANKER` (BM25F, k1 1.2, b 0.75, title and MeSH weight 5).
   */
  readonly ranker?: ScorerName | ScorerConfig
  /** How many hits to return (Best Match reranks the top 500). Defaults to `500`. */
  readonly limit?: number
  /** How the words of a term combine, see {@link MatchMode}. Defaults to `all` (PubMed). */
  readonly match?: MatchMode
  /**
   * How a string query is read: `pubmed` parses PubMed syntax (`parseQuery`); `plain` searches
   * the whole text as one untagged term (natural-language queries of test collections, which may
   * contain quotes and parentheses). Ignored for a `QueryNode`. Defaults to `pubmed`.
   */
  readonly syntax?: QuerySyntax
  /** Options for `parseQuery` (e.g. `{ recover: true }`); its warnings are reported. Defaults to strict parsing. */
  readonly parse?: Omit<ParseQueryOptions, 'onWarning'>
  /** Restrictions on top of the query. Defaults to none. */
  readonly filters?: SearchFilters
  /** Attach the scorer's explanation tree to each hit. Defaults to `false`. */
  readonly explain?: boolean
  /**
   * Stop with a `TIMEOUT` error once `performance.now()` passes this many milliseconds (checked
   * every 1,024 documents or block windows, or term at a time before each clause and each
   * postings list of a truncated word). Defaults to no limit.
   */
  readonly deadline?: number
  /** The MeSH vocabulary for `[mh]` mapping and explosion. Defaults to none (names only, no explosion, with a warning). */
  readonly mesh?: SearchMeshLookup
  /**
   * Automatic term mapping of a query given as text (`mapQueryTerms`): untagged, unquoted terms
   * also search the MeSH descriptors and the journal they name (`result.query` is the translation,
   * `result.mappings` what mapped). Defaults to none (terms are searched as typed).
   */
  readonly termMapping?: TermMappingLookup
  /**
   * Analyze the query text of every text field with this analyzer (or analyzer name) instead of
   * the analyzer the field was indexed with — for raw queries against a pre-processed corpus
   * (an analyzer name is looked up with `getAnalyzer`). Defaults to each field's own analyzer.
   */
  readonly queryAnalyzer?: Analyzer | string
  /**
   * Words dropped from the query text on top of the analyzer's own stop words, matched
   * case-insensitively on each token's surface form (before stemming); their positions stay (so
   * phrases keep their gaps). `false` drops none. Defaults to `QUESTION_STOPWORDS` (English
   * function words) for `syntax: 'plain'`, and to none for PubMed syntax (PubMed's stop words are
   * the analyzer's).
   */
  readonly queryStopwords?: readonly string[] | false
  /**
   * Search and score the joined forms of query compounds (`cox2` of `COX-2`, `plantbased` of
   * `plant-based`) as terms of their own, besides their parts. Phrases and `match: 'all'` always
   * require the parts only. Defaults to `false`: a document holding the compound holds its parts
   * too, so the joined form repeats their evidence; on NFCorpus train, scoring the parts only is
   * better (README "Search").
   */
  readonly joinedForms?: boolean
  /**
   * The fields that score (BM25F's fields; the scorer's `fieldWeights` name them). Defaults to
   * every text (non-keyword) field of the index: `title`, `abstract`, `mesh`, `keywords` for
   * `defaultPubmedFields()`.
   */
  readonly scoredFields?: readonly string[]
  /**
   * The fields an untagged term searches: text fields word by word, keyword fields by the whole
   * term; `[all]` searches them and the index's tag-only fields but `filter` (PubMed's All
   * Fields). Defaults to every field of the index but the tag-only ones (`PUBMED_TAG_ONLY_FIELDS`
   * of `@pubmatch/index`).
   */
  readonly defaultFields?: readonly string[]
  /**
   * Index fields per PubMed tag, merged over `PUBMED_TAG_FIELDS` of `@pubmatch/index`. A tag whose fields the
   * index lacks is `UNKNOWN_FIELD`. Defaults to `{}`.
   */
  readonly tagFields?: Readonly<Record<string, readonly string[]>>
  /** The most index terms a truncated word (`colo*`) expands to; more give a warning. Defaults to `600` (PubMed's limit). */
  readonly maxExpansions?: number
  /**
   * Skip documents and blocks that cannot enter the top `limit` (block-max MaxScore), or, for a
   * BM25F disjunction with a large `limit`, rank term at a time (README "Top-k and dynamic
   * pruning"). The hits are the same either way; `false` scores every matching document, document
   * at a time (for tests and benchmarks). Defaults to `true`.
   */
  readonly pruning?: boolean
  /**
   * Count every matching document for `total`, at the cost of one more pass over the matches
   * (none when the search visited every match, as term at a time does). Defaults to `true` for
   * `match: 'all'` and `false` for `any`.
   */
  readonly exactTotal?: boolean
  /** The order of equal scores. Defaults to `docNumber`. */
  readonly tieBreak?: TieBreak
  /** "Now" for relative dates (`"last 5 years"[dp]`). Defaults to the current time. */
  readonly now?: Date
}

/** What can go wrong without failing a search. */
export type SearchWarningCode =
  /** The parser worked around a syntax problem (`parse.recover`); `problem` names it. */
  | 'QUERY_SYNTAX'
  /** A truncated word had more index terms than `maxExpansions`; the first ones were used. */
  | 'TRUNCATION_LIMIT'
  /** A term has no searchable words after analysis (only stop words or punctuation) and was ignored. */
  | 'IGNORED_TERM'
  /** A `[mh]`/`[majr]` term could not be exploded (no MeSH vocabulary, or no way to match descriptors). */
  | 'MESH_NOT_EXPLODED'
  /** A date range whose start is after its end matches nothing. */
  | 'EMPTY_DATE_RANGE'
  /** Nothing searchable is left of the query; there are no hits. */
  | 'EMPTY_QUERY'
  /**
   * A first stage run elsewhere (a Solr backend) returned documents the local index does not
   * hold (the two were built from different states of the corpus); they were left out.
   */
  | 'BACKEND_MISMATCH'
  /**
   * A field tag the index has no data for (a test collection, an index built before the field
   * was indexed, a field PubMed XML does not carry such as `[pa]`), or a `[filter]` value the
   * index does not hold: the term matches nothing, as in PubMed a term found in no record.
   */
  | 'FIELD_NOT_INDEXED'
  /** A field tag the corpus can only approximate (`free full text[sb]`: the articles in PMC). */
  | 'FIELD_APPROXIMATED'
  /**
   * The query could not be searched (not valid PubMed syntax, a tag the index cannot answer, a history reference)
   * but the citation sensor recognised it as a citation of one article, the only result.
   */
  | 'CITATION_ONLY'

/** A problem worked around during a search. */
export interface SearchWarning {
  readonly code: SearchWarningCode
  /** A sentence for people, naming the term. */
  readonly message: string
  /** The parser's problem, for `QUERY_SYNTAX`. */
  readonly problem?: QueryWarning['problem']
}

/** Counters of one search (for measuring pruning). */
export interface SearchStats {
  /** Documents whose score was computed, fully or until they could not make the top `limit`. */
  readonly docsScored: number
  /** (clause, document) postings whose contribution was computed. */
  readonly postingsScored: number
  /** Matching documents visited (all of them without pruning). */
  readonly docsMatched: number
  /** Windows of blocks examined by the pruned loop. */
  readonly windows: number
  /** Windows skipped whole because their block upper bounds could not beat the top `limit`. */
  readonly blocksSkipped: number
  /** Scoring clauses (distinct query terms per field set). */
  readonly clauses: number
  /** Whether pruning was on. */
  readonly pruned: boolean
  /**
   * How the top k was found: `termAtATime` (every match accumulated clause by clause: large
   * limits of a BM25F disjunction), `intersection` (every match of a BM25F conjunction of words,
   * found from the rarest word up), `documentAtATime` (block-max MaxScore when pruned), or `none`
   * (nothing was searched). Absent from first stages that do not say (a Solr backend).
   */
  readonly strategy?: 'termAtATime' | 'intersection' | 'documentAtATime' | 'none'
}

/** The answer to one search. */
export interface SearchResult {
  /** The top `limit` documents, best first (score descending, then {@link TieBreak}). */
  readonly hits: Candidate[]
  /**
   * Matching documents. Exact when `totalRelation` is `eq` (always with `exactTotal`, the
   * default for `match: 'all'`); otherwise a lower bound: the matching documents the pruned
   * search visited (at least `hits.length`).
   */
  readonly total: number
  /** `eq`: `total` is exact; `gte`: a lower bound. */
  readonly totalRelation: 'eq' | 'gte'
  /** The query that was run (parsed when a string was given; with `termMapping`, mapped). */
  readonly query: QueryNode
  /** With `termMapping`: the runs of words that mapped (possibly none). */
  readonly mappings?: readonly TermMapping[]
  /** Problems worked around, in the order met. */
  readonly warnings: SearchWarning[]
  /** Counters for measuring pruning. */
  readonly stats: SearchStats
}

/**
 * A first-stage ranker: a query in, the top documents with scores out. `search` is synchronous:
 * the index is held in memory and the work is CPU-bound, so a promise would add nothing but
 * overhead; run searches on worker threads for parallelism.
 */
export interface FirstStageRanker {
  /**
   * Runs a query.
   * @param query - PubMed query text (see `syntax`) or a parsed tree
   * @param options - per-search options over the searcher's defaults
   * @throws PubmatchError `INVALID_ARGUMENT` (empty query, bad option, `#N` history reference),
   *   `QUERY_SYNTAX` (strict parsing), `UNKNOWN_FIELD` (a tag the index has no field for)
   */
  search(query: string | QueryNode, options?: SearchOptions): SearchResult
}
