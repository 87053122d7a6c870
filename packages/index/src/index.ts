export { createIndexWriter } from './index-writer.ts'
export type { CommitInfo, IndexProgress, IndexWriter, IndexWriterOptions } from './index-writer.ts'
export { openIndex } from './index-reader.ts'
export type {
  FieldStats,
  IndexReader,
  IndexSegmentInfo,
  IndexTermEntry,
  OpenIndexOptions,
} from './index-reader.ts'
export { buildIndex } from './build/build-index.ts'
export type { BuildIndexOptions, BuildIndexResult, BuildInput } from './build/build-index.ts'
export type { SegmentBuildRunner, SegmentBuildTask } from './build/segment-build.ts'
export type { ExtractedDocument } from './document/extract.ts'
export type {
  FieldConfig,
  FieldValue,
  IndexConfig,
  NumericDocValuesConfig,
  SortedSetDocValuesConfig,
  StoredDocument,
} from './schema/config.ts'
export {
  PUBMED_TAG_FIELDS,
  defaultNumericDocValues,
  defaultPubmedFields,
  defaultSortedSetDocValues,
  defaultStoredDocument,
  sortableDate,
  testCollectionFields,
} from './schema/pubmed-fields.ts'
export type { PubmedFieldsOptions, TestCollectionFieldsOptions } from './schema/pubmed-fields.ts'
export { passageArticle, sectionField, sectionFields } from './schema/section-fields.ts'
export { authorDisplayName, normalizeKeyword } from './schema/keyword.ts'
export { DEFAULT_CODEC, KEYWORD_ANALYZER } from './schema/schema.ts'
export type { FieldSchema, IndexSchema } from './schema/schema.ts'
export type { CodecName } from './codec/block-codec.ts'
export { NO_MERGES, logMergePolicy } from './merge/merge-policy.ts'
export type { LogMergePolicyOptions, MergeCandidate, MergePolicy } from './merge/merge-policy.ts'
export { NO_MORE_DOCS } from './postings/postings-format.ts'
export type { PostingsCursor } from './postings/postings-cursor.ts'
export type { Impact } from './postings/impacts.ts'
export { MANIFEST_FILE } from './commit/manifest.ts'
export { FORMAT_VERSION } from './io/file-format.ts'
export type { SegmentFieldStats, SegmentMeta } from './segment/segment-meta.ts'
