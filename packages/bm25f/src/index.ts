// Query syntax: PubMed queries to a typed tree and back, and the tree's traversal
export { parseQuery } from './query/parse.ts'
export type { ParseQueryOptions } from './query/parse.ts'
export { formatQuery } from './query/format.ts'
export { isSimpleQuery } from './query/simple.ts'
export { PUBMED_FIELDS } from './query/fields.ts'
export type { PubmedField, PubmedFieldInfo } from './query/fields.ts'
export { foldQuery, walkQuery } from './query/walk.ts'
export type { QueryFolder } from './query/walk.ts'
export type { QueryNode, TermNode } from './query/ast.ts'
export type { QueryProblem, QueryWarning } from './query/problems.ts'
export { translateOvid } from './query/ovid-translate.ts'
export type {
  OvidNote,
  OvidNoteKind,
  OvidTranslatedLine,
  OvidTranslation,
  TranslateOvidOptions,
} from './query/ovid-translate.ts'
export { mapQueryTerms } from './query/term-mapping.ts'
export type { TermMapping, TermMappingLookup, TermMappingOptions } from './query/term-mapping.ts'
// The citation sensor: a query that names one article
export { citationRecordOf, createCitationMatcher } from './citation/citation.ts'
export type { CitationField, CitationMatch, CitationMatcher, CitationRecord } from './citation/citation.ts'
// The first stage: a searcher over an index, and the contract the later stages use
export { createSearcher } from './search/searcher.ts'
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
export {
  EARLIEST_YEAR,
  LATEST_YEAR,
  parseYearRange,
  YEAR_RANGE_PATTERN,
} from './search/year-range.ts'
// Rankers: the six scoring functions by name, and their explanations
export { createScorer, SCORER_NAMES } from './scoring/scorer.ts'
export type { Scorer, ScorerConfig, ScorerName, ScorerParamsByName } from './scoring/scorer.ts'
export type { PreparedQuery, TermScorer } from './scoring/term-scorer.ts'
export type { CollectionStats, TermStats } from './scoring/stats.ts'
export { formatExplanation } from './scoring/explanation.ts'
export type { Explanation } from './scoring/explanation.ts'
