export { parseQuery } from './query/parse.ts'
export type { ParseQueryOptions } from './query/parse.ts'
export { formatQuery } from './query/format.ts'
export { isSimpleQuery } from './query/simple.ts'
export { walkQuery, foldQuery, queryChildren, queryLeaves } from './query/walk.ts'
export type { QueryFolder } from './query/walk.ts'
export { isBooleanNode } from './query/ast.ts'
export type {
  QueryNode,
  QueryLeaf,
  BooleanNode,
  TermNode,
  ProximityNode,
  DateRangeNode,
  HistoryNode,
  AndNode,
  OrNode,
  NotNode,
} from './query/ast.ts'
export {
  PUBMED_FIELDS,
  lookupField,
  fieldInfo,
  isDateField,
  isProximityField,
} from './query/fields.ts'
export type {
  PubmedField,
  PubmedDateField,
  ProximityField,
  PubmedFieldInfo,
} from './query/fields.ts'
export { detectOvidSyntax, MESH_QUALIFIER_ABBREVIATIONS, OVID_SIGNAL_LABELS } from './query/ovid.ts'
export type { OvidDetection, OvidSignal } from './query/ovid.ts'
export type { QueryProblem, QueryWarning } from './query/problems.ts'
export { resolveMeshTerm } from './query/mesh.ts'
export type { MeshLookup } from './query/mesh.ts'
// Scoring: first-stage scoring functions (pure, with explanations)
export { createScorer, createScorerFromConfig, SCORER_NAMES } from './scoring/scorer.ts'
export type { Scorer, ScorerName, ScorerConfig, ScorerParamsByName } from './scoring/scorer.ts'
export type { TermScorer, PreparedQuery } from './scoring/term-scorer.ts'
export type { CollectionStats, FieldStats, TermStats, TermScoringInput } from './scoring/stats.ts'
export { explanation, formatExplanation } from './scoring/explanation.ts'
export type { Explanation, Explained } from './scoring/explanation.ts'
export { bestMatchS1, BEST_MATCH_FIELD_WEIGHTS } from './scoring/bestmatch-s1.ts'
export type { BestMatchS1Params } from './scoring/bestmatch-s1.ts'
export { bm25f } from './scoring/bm25f.ts'
export type { Bm25fParams } from './scoring/bm25f.ts'
export { bm25, bm25LengthNorm, lucene6Bm25 } from './scoring/bm25.ts'
export type { Bm25Params } from './scoring/bm25.ts'
export { tfIdf } from './scoring/tfidf.ts'
export type { TfIdfParams, TfIdfInput, LengthNormEncoding } from './scoring/tfidf.ts'
export { dfrIneL2 } from './scoring/dfr.ts'
export type { DfrParams } from './scoring/dfr.ts'
export { xapianBm25 } from './scoring/xapian.ts'
export type { XapianBm25Params } from './scoring/xapian.ts'
export { rsjIdf, luceneIdf, classicIdf, smoothIdf } from './scoring/idf.ts'
export type { Bm25Idf, TfIdfIdf } from './scoring/idf.ts'
// Search: first-stage retrieval (query evaluation, top-k with block-max pruning)
export {
  createSearcher,
  DEFAULT_RANKER,
  DEFAULT_LIMIT,
  DEFAULT_MAX_EXPANSIONS,
} from './search/searcher.ts'
export type {
  Candidate,
  FirstStageRanker,
  MatchMode,
  QuerySyntax,
  SearchFilters,
  SearchMeshLookup,
  SearchOptions,
  SearchResult,
  SearchStats,
  SearchWarning,
  SearchWarningCode,
  TieBreak,
} from './search/types.ts'
export { QUESTION_STOPWORDS } from './search/question-stopwords.ts'
export { dateLowerBound, dateUpperBound, dateTermBounds } from './search/dates.ts'
export type { DateBounds } from './search/dates.ts'
export { EARLIEST_YEAR, LATEST_YEAR, parseYearRange, YEAR_RANGE_PATTERN } from './search/year-range.ts'
export { TAG_SCORE_FIELDS } from './search/compile.ts'
