// Build an index from articles, and keep it up to date
export { buildIndex } from './build/build-index.ts'
export type { BuildIndexOptions, BuildIndexResult, BuildInput } from './build/build-index.ts'
export { createIndexWriter } from './index-writer.ts'
export type { CommitInfo, IndexProgress, IndexWriter, IndexWriterOptions } from './index-writer.ts'
export { NO_MERGES, logMergePolicy } from './merge/merge-policy.ts'
export type { LogMergePolicyOptions, MergePolicy } from './merge/merge-policy.ts'
// Read it: statistics, terms, postings, doc values and stored records of the last commit
export { openIndex, readIndexGeneration } from './index-reader.ts'
export type {
  FieldStats,
  IndexReader,
  IndexSegmentInfo,
  IndexTermEntry,
  OpenIndexOptions,
} from './index-reader.ts'
// What an index holds: its fields, doc values and stored record, and the ready-made field sets
export type {
  FieldConfig,
  FieldValue,
  IndexConfig,
  NumericDocValuesConfig,
  SortedSetDocValuesConfig,
  StoredDocument,
} from './schema/config.ts'
export {
  defaultNumericDocValues,
  defaultPubmedFields,
  defaultSortedSetDocValues,
  defaultStoredDocument,
  testCollectionFields,
} from './schema/pubmed-fields.ts'
export type { PubmedFieldsOptions, TestCollectionFieldsOptions } from './schema/pubmed-fields.ts'
export { PUBMED_FILTERS } from './schema/pubmed-filters.ts'
export type { PubmedFilter } from './schema/pubmed-filters.ts'
