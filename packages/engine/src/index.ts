export { analyzerOf, openSearch, RESULT_WINDOW } from './search-engine.ts'
export type {
  DocumentExplanation,
  EngineHit,
  EngineModel,
  EngineResult,
  EngineRun,
  EngineSearchOptions,
  FirstStageSearchOptions,
  OpenSearchOptions,
  RankingOptions,
  SearchEngine,
  SearchEngineSource,
} from './search-engine.ts'
export { openSearchPool } from './search-pool.ts'
export type { SearchPool, SearchPoolOptions } from './search-pool.ts'
export type { PooledHit, PooledResult, PooledSearchOptions } from './search-pool-task.ts'
export { updateIndex } from './update-index.ts'
export type { UpdateIndexOptions, UpdateIndexResult } from './update-index.ts'
export { FIELD_SETS, SETTINGS_FILE, indexConfigFor, readIndexSettings, writeIndexSettings } from './settings.ts'
export type { FieldSet, IndexSettings } from './settings.ts'
export { FORWARD_FILE, FORWARD_META_FILE, MESH_CACHE_FILE } from './corpus-data.ts'
export { createHighlighter } from './highlight.ts'
export type { Highlighted, Highlighter, HighlighterOptions, QueryTerms } from './highlight.ts'
export { readLabelledQueries } from './labelled-queries.ts'
export { openFeedbackSessions } from './feedback.ts'
export type { FeedbackSessions, FeedbackSessionsOptions } from './feedback.ts'
export type { PrfOptions } from './prf.ts'
export { openFulltext, updateFulltext } from './fulltext.ts'
export { fulltextDir, SECTION_FEATURES_SUFFIX, sectionFeatureBlock, sectionModelFile } from './section-features.ts'
export type { FulltextResultHit, FulltextSearch } from './fulltext.ts'
export { featureSet, trainModel } from './training.ts'
export type { FeatureSetOptions, TrainModelOptions } from './training.ts'
export { attachSolrBackend, openSolrSearch } from './solr-backend.ts'
export type { AttachSolrOptions, OpenSolrSearchOptions, SolrSearch } from './solr-backend.ts'
