// @pubmatch/ingest — public API. Everything turns NCBI data (and plain test collections)
// into the article model of @pubmatch/core and stores it in a corpus directory.

// Records every reader yields
export type { IngestRecord, MeshEntry } from './records.ts'

// PubMed / MEDLINE XML (streaming) and MEDLINE text
export { parsePubmedXmlString, readPubmedXml } from './pubmed/reader.ts'
export type { PubmedXmlOptions } from './pubmed/reader.ts'
export { parseMedlineDate } from './pubmed/dates.ts'
export { readMedlineText } from './collections/medline-text.ts'

// PMC BioC full texts
export { parseBiocJson, parseBiocXml, readBiocFile } from './bioc/read-bioc.ts'
export type { BiocParseOptions } from './bioc/read-bioc.ts'
export { normaliseSectionType, SECTION_TYPE_MAP } from './bioc/section-types.ts'
export type { PassageKind, PassageTypeMapping, SectionTypeMapping } from './bioc/section-types.ts'
export { normalisePmcid } from './bioc/to-fulltext.ts'

// PMC JATS full texts (.nxml, EFetch db=pmc), read as NCBI's BioC converter would
export { parseJatsXml, readJatsXml } from './jats/reader.ts'
export type { JatsXmlOptions } from './jats/reader.ts'
export { classifySection, JATS_SEC_TYPES, JATS_TITLE_RULES, sectionTypeOfSecType, sectionTypeOfTitle } from './jats/section-rules.ts'
export type { JatsSectionCode, JatsTitleRule } from './jats/section-rules.ts'

// MeSH
export { parseMeshXmlString, readMeshXml } from './mesh/reader.ts'
export type { MeshXmlOptions } from './mesh/reader.ts'
export { createMeshVocabulary, meshEntryTermLookup, normaliseMeshTerm } from './mesh/vocabulary.ts'
export type { MeshVocabulary } from './mesh/vocabulary.ts'

// Plain test collections and queries
export { readNfcorpusDocs } from './collections/nfcorpus.ts'
export { readJsonlArticles } from './collections/jsonl.ts'
export { readQueries, readTrecTopics } from './collections/queries.ts'
export type { TrecTopicOptions } from './collections/queries.ts'

// Safe XML limits (shared by every XML reader)
export { DEFAULT_ENTITY_LIMITS } from './xml/entities.ts'
export type { EntityLimits } from './xml/entities.ts'

// NCBI E-utilities client
export { createEntrezClient, DEFAULT_EUTILS_BASE_URL } from './entrez/client.ts'
export type { EntrezClient, EntrezClientOptions } from './entrez/client.ts'
export type { CacheMode, EntrezCallOptions } from './entrez/transport.ts'
export type {
  EntrezHooks,
  EntrezRequestEvent,
  EntrezResponseEvent,
  EntrezRetryEvent,
  EntrezUtility,
} from './entrez/hooks.ts'
export type {
  EFetchParams,
  EInfoParams,
  ELinkParams,
  EPostParams,
  ESearchParams,
  ESpellParams,
  ESummaryParams,
  ExtraParams,
  HistoryRef,
} from './entrez/request-params.ts'
export type { EntrezParamValue } from './entrez/params.ts'
export { systemClock } from './entrez/clock.ts'
export type { Clock } from './entrez/clock.ts'
export { createRateLimiter, defaultRequestsPerSecond } from './entrez/rate-limiter.ts'
export type { RateLimiter, RateLimiterOptions } from './entrez/rate-limiter.ts'
export type { RetryOptions } from './entrez/retry.ts'
export { createResponseCache } from './entrez/response-cache.ts'
export type { CachedResponse, ResponseCache, ResponseCacheOptions } from './entrez/response-cache.ts'
export type { DateRange, DateRangeCount } from './entrez/date-split.ts'
export type { EFetchBatch, EFetchSource, FetchBatchesOptions } from './entrez/fetch-batches.ts'
export type { SearchAllParams, SearchAllResult } from './entrez/search-all.ts'
export type { EntrezFormat } from './entrez/parse-common.ts'
export type { ESearchResult, ESearchTranslation, EntrezWarning, TranslationStackEntry } from './entrez/parse-esearch.ts'
export type { ESummaryDocument, ESummaryResult, SummaryValue } from './entrez/parse-esummary.ts'
export { summaryText } from './entrez/parse-esummary.ts'
export type {
  ELinkIdCheck,
  ELinkIdUrls,
  ELinkLink,
  ELinkResult,
  ELinkSet,
  ELinkSetDb,
  ELinkSetDbHistory,
} from './entrez/parse-elink.ts'
export type { ESpellResult } from './entrez/parse-espell.ts'
export type { EInfoDbInfo, EInfoField, EInfoLink, EInfoResult } from './entrez/parse-einfo.ts'
export type { EPostResult } from './entrez/parse-epost.ts'

// Corpus store
export { noArticlesError, openCorpus, MANIFEST_FILE } from './store/corpus-store.ts'
export type {
  CorpusChange,
  CorpusError,
  CorpusStats,
  CorpusStore,
  OpenCorpusOptions,
  SegmentEntry,
  SourceCounts,
  SourceEntry,
  StoredError,
} from './store/corpus-store.ts'

// Ingestion pipeline
export { detectFormat, detectFromText, INPUT_FORMATS } from './pipeline/detect-format.ts'
export type { Detection, InputFormat } from './pipeline/detect-format.ts'
export { ingestFiles, ingestOutcome } from './pipeline/ingest-files.ts'
export type { FileReader, FileReaders, IngestEvent, IngestFilesOptions, IngestOutcome, IngestSummary } from './pipeline/ingest-files.ts'
export { defaultReaders } from './pipeline/readers.ts'
export { ingestEntrez } from './pipeline/ingest-entrez.ts'
export type { IngestEntrezOptions } from './pipeline/ingest-entrez.ts'
