/**
 * `@pubmatch/index/internal`: what other pubmatch packages need to drive the index directly, and
 * benchmarks that measure it: the end of a `PostingsCursor` that first-stage and feedback scoring
 * walk (`bm25f`, `feedback`, `fulltext`), the k-way merge of sorted term lists (`fulltext`), the
 * keyword normalisation and tag → field map that the query side must share with the index
 * (`bm25f`, `solr`), the passage field set of a full-text index (`fulltext`), and where an index's
 * bytes go (`indexSpaceUsage`, for the benchmarks under `tools/`). Unstable: it
 * changes with the index, without notice. Apps use the package's entry point only.
 */
export { NO_MORE_DOCS } from './postings/postings-format.ts'
export type { PostingsCursor } from './postings/postings-cursor.ts'
export { TermMerge } from './terms/term-merge.ts'
export type { TermKeyed } from './terms/term-merge.ts'
export { authorDisplayName, normalizeKeyword } from './schema/keyword.ts'
export {
  PUBMED_DATE_DOC_VALUES,
  PUBMED_TAG_FIELDS,
  PUBMED_TAG_ONLY_FIELDS,
  sortableDate,
} from './schema/pubmed-fields.ts'
export { PUBMED_FILTERS, lookupPubmedFilter } from './schema/pubmed-filters.ts'
export type { PubmedFilter } from './schema/pubmed-filters.ts'
export { passageArticle, sectionField, sectionFields } from './schema/section-fields.ts'
export { indexSpaceUsage } from './space-usage.ts'
export type { FieldSpaceUsage, IndexSpaceUsage } from './space-usage.ts'
