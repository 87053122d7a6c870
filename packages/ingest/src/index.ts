/**
 * `@pubmatch/ingest`: NCBI data (PubMed XML, PMC full texts, MeSH, E-utilities answers) and plain
 * test collections → the article model of `@pubmatch/core`, kept in a crash-safe, resumable corpus
 * directory. Plumbing other pubmatch packages share is in `@pubmatch/ingest/internal`.
 */

// Ingesting files and directories, or an Entrez query, into a corpus
export { ingestFiles, ingestOutcome } from './pipeline/ingest-files.ts'
export type { FileReader, FileReaders, IngestEvent, IngestFilesOptions, IngestOutcome, IngestSummary } from './pipeline/ingest-files.ts'
export { ingestEntrez } from './pipeline/ingest-entrez.ts'
export type { IngestEntrezOptions } from './pipeline/ingest-entrez.ts'
export { defaultReaders } from './pipeline/readers.ts'
export { detectFormat, INPUT_FORMATS } from './pipeline/detect-format.ts'
export type { Detection, InputFormat } from './pipeline/detect-format.ts'

// The corpus store
export { MANIFEST_FILE, noArticlesError, openCorpus } from './store/corpus-store.ts'
export type { CorpusChange, CorpusError, CorpusStats, CorpusStore, OpenCorpusOptions, SourceCounts } from './store/corpus-store.ts'

// Readers, one per input format: each yields records, a bad one as an `error` record
export type { IngestRecord, MeshEntry } from './records.ts'
export { parsePubmedXmlString, readPubmedXml } from './pubmed/reader.ts'
export type { PubmedXmlOptions } from './pubmed/reader.ts'
export { readBiocFile } from './bioc/read-bioc.ts'
export { readJatsXml } from './jats/reader.ts'
export type { JatsXmlOptions } from './jats/reader.ts'
export { readMeshXml } from './mesh/reader.ts'
export type { MeshXmlOptions } from './mesh/reader.ts'
export { readMedlineText } from './collections/medline-text.ts'
export { readNfcorpusDocs } from './collections/nfcorpus.ts'
export { readJsonlArticles } from './collections/jsonl.ts'

// Queries and topics of test collections
export { readQueries, readTrecTopics } from './collections/queries.ts'
export type { TrecTopicOptions } from './collections/queries.ts'

// MeSH lookups: entry terms, tree numbers, explosion
export { createMeshVocabulary } from './mesh/vocabulary.ts'
export type { MeshVocabulary } from './mesh/vocabulary.ts'

// The NCBI E-utilities client and its on-disk response cache
export { createEntrezClient } from './entrez/client.ts'
export type { EntrezClient, EntrezClientOptions } from './entrez/client.ts'
export type { EntrezCallOptions } from './entrez/transport.ts'
export { createResponseCache } from './entrez/response-cache.ts'
export type { ResponseCache, ResponseCacheOptions } from './entrez/response-cache.ts'
