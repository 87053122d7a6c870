// opening an index (and a model) and searching it
export { openSearch, reopenSearch, RESULT_WINDOW, withModel } from './search-engine.ts'
export type {
  DocumentExplanation,
  EngineHit,
  EngineModel,
  EngineModelOptions,
  EngineResult,
  EngineRun,
  EngineSearchOptions,
  FirstStageSearchOptions,
  OpenSearchOptions,
  RankingOptions,
  SearchEngine,
  SearchEngineSource,
} from './search-engine.ts'
export type { Highlighted } from './highlight.ts'
export type { PrfOptions } from './prf.ts'
// searches on worker threads
export { openSearchPool } from './search-pool.ts'
export type { SearchPool, SearchPoolOptions } from './search-pool.ts'
export type { PooledHit, PooledResult, PooledSearchOptions } from './search-pool-task.ts'
// an index built and kept up to date from a corpus store, and its settings
export { updateIndex } from './update-index.ts'
export type { UpdateIndexOptions, UpdateIndexResult } from './update-index.ts'
export { readIndexSettings, SETTINGS_FILE } from './settings.ts'
export type { FieldSet, IndexSettings } from './settings.ts'
// a Best Match model trained on this first stage, and its features as a training set
export { featureSet, trainModel } from './training.ts'
export type { FeatureSetOptions, TrainModelOptions } from './training.ts'
export { readLabelledQueries } from './labelled-queries.ts'
// relevance feedback sessions over the index or Entrez
export { openFeedbackSessions } from './feedback.ts'
export type { FeedbackSessions, FeedbackSessionsOptions } from './feedback.ts'
// the corpus's full texts ranked by section, and where an index keeps them
export { openFulltext, updateFulltext } from './fulltext.ts'
export type { FulltextResultHit, FulltextSearch } from './fulltext.ts'
export { fulltextDir, sectionModelFile } from './section-features.ts'
// the first stage in a Solr collection
export { attachSolrBackend, openSolrSearch } from './solr-backend.ts'
export type { AttachSolrOptions, OpenSolrSearchOptions, SolrSearch } from './solr-backend.ts'
// an engine with no local index: records, facets, explanations and MeSH from a Solr collection
export { isSolrEngine, openSolrEngine } from './solr-engine.ts'
export type { OpenSolrEngineOptions, ServingEngine, SolrEngine, SolrEngineModel, SolrEngineResult } from './solr-engine.ts'
export type { FacetCount, SearchFacets } from '@pubmatch/solr'
export type { CitationField, CitationMatch, TermMapping } from '@pubmatch/bm25f'
