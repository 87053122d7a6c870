/**
 * `@pubmatch/solr/internal`: the pieces `indexCorpus` and the first stage are built from, for
 * other pubmatch packages (`@pubmatch/engine` checks a collection's state and reads backend
 * addresses) and for benchmarks that drive them directly (collections without a corpus store,
 * documents and query translation measured alone). Unstable: it changes with the package, without
 * notice. Apps use the package's entry point only.
 */
export { parseBackend } from './backend.ts'
export type { SolrBackend } from './backend.ts'
export { createCollection, readCollectionState } from './indexer.ts'
export { SOLR_SCHEMA_VERSION } from './configset.ts'
export type { CollectionState, CreateCollectionOptions } from './indexer.ts'
export { createDocumentMapper } from './documents.ts'
export type { DocumentMapper, DocumentMapperOptions, SolrDocument } from './documents.ts'
export { translateQuery } from './translate.ts'
export type { SolrQuery, TranslateOptions } from './translate.ts'
// the collection's first-stage record (collection property) and a deployed model's files read back
export { analyzeQueryMemory, collectionFirstStage, FIRST_STAGE_PROPERTY, MEMORY_TERMS_FILE, MODELS_HANDLER, readDeployedFile, recordFirstStage } from './models.ts'
export type { CollectionFirstStage } from './models.ts'
// the stored record and the MeSH vocabulary a serving process reads from the collection
export { decodeRecord, encodeRecord, MESH_FIELD, MESH_ID, readMeshVocabulary, RECORD_FIELD } from './records.ts'
export { toExplanation } from './explain.ts'
export type { SolrExplanation } from './explain.ts'
