/**
 * Articles → Solr documents, from the same field definitions the embedded index uses: text
 * fields as their raw values (Solr analyzes them), keyword fields as `normalizeKeyword` values
 * (what pubmatch's keyword fields hold), `year` and `pubdate` (`YYYYMMDD`) as numbers; and what
 * the features read on the shards: the forward token streams (`pubmatch_fwd`, base64 of
 * {@link encodeForwardStreams}), the publication types and languages as the embedded index's doc
 * values hold them, and the article marker `pubmatch_article`.
 */
import { getAnalyzer, type AnalyzerRegistry } from '@pubmatch/analysis'
import { createTokenStreamer, tokenStreamTexts } from '@pubmatch/analysis/internal'
import type { Article } from '@pubmatch/core'
import {
  defaultNumericDocValues,
  defaultPubmedFields,
  defaultSortedSetDocValues,
  testCollectionFields,
  type FieldConfig,
  type NumericDocValuesConfig,
  type SortedSetDocValuesConfig,
} from '@pubmatch/index'
import { normalizeKeyword } from '@pubmatch/index/internal'
import { ARTICLE_FIELD, FEATURE_DOC_VALUES, SEGMENT_FIELD, SOLR_NUMERIC_FIELDS, type SolrFieldSet } from './configset.ts'
import { encodeForwardStreams, FORWARD_FIELD } from './forward.ts'
import { encodeRecord, RECORD_FIELD } from './records.ts'

/** A Solr input document. */
export type SolrDocument = Record<string, string | number | readonly string[]>

/** Turns articles into Solr documents. */
export interface DocumentMapper {
  /**
   * @param article - the article
   * @param segment - the corpus segment it came from (stored in `pubmatch_segment`)
   */
  toSolr(article: Article, segment?: string): SolrDocument
}

/** Options of {@link createDocumentMapper}. */
export interface DocumentMapperOptions {
  /** As the embedded index's: descriptor → entry terms indexed in `mesh`. Defaults to none. */
  readonly meshEntryTerms?: (descriptorUiOrName: string) => readonly string[]
  /**
   * The collection's analyzer (pubmatch's name, as `createConfigset`'s), whose stop-word-keeping
   * variant makes the forward token streams. Defaults to `biomedical`.
   */
  readonly analyzer?: string
  /** Where the analyzer and its variant are looked up. Defaults to the built-in analyzers. */
  readonly analyzers?: Pick<AnalyzerRegistry, 'get'>
}

/**
 * A mapper for a field set.
 * @param fieldSet - the field set the collection was created with
 * @param options - see {@link DocumentMapperOptions}
 * @throws PubmatchError `NOT_FOUND` for an unknown analyzer
 */
export function createDocumentMapper(fieldSet: SolrFieldSet, options: DocumentMapperOptions = {}): DocumentMapper {
  const fields: FieldConfig[] =
    fieldSet === 'pubmed'
      ? defaultPubmedFields(options.meshEntryTerms === undefined ? {} : { meshEntryTerms: options.meshEntryTerms })
      : testCollectionFields()
  const numeric: NumericDocValuesConfig[] = defaultNumericDocValues().filter((config) => SOLR_NUMERIC_FIELDS.includes(config.name))
  const sets: SortedSetDocValuesConfig[] = defaultSortedSetDocValues().filter((config) => Object.hasOwn(FEATURE_DOC_VALUES, config.name))
  const registry = options.analyzers ?? { get: getAnalyzer }
  const streamer = createTokenStreamer(registry.get(options.analyzer ?? 'biomedical'), registry)
  return {
    toSolr(article, segment) {
      const doc: SolrDocument = { id: article.id }
      for (const field of fields) {
        const raw = field.source(article)
        const values = (raw === null || raw === undefined ? [] : typeof raw === 'string' ? [raw] : [...raw]).filter(
          (value) => value.trim() !== '',
        )
        const kept = field.keyword === true ? [...new Set(values.map(normalizeKeyword))].filter((v) => v !== '') : values
        if (kept.length > 0) {
          doc[field.name] = kept
        }
      }
      for (const config of numeric) {
        const value = config.source(article)
        if (typeof value === 'number' && Number.isFinite(value)) {
          doc[config.name] = value
        }
      }
      // the embedded index's sorted-set doc values: the source's values, duplicates removed
      for (const config of sets) {
        const values = [...new Set(config.source(article))]
        if (values.length > 0) {
          doc[FEATURE_DOC_VALUES[config.name]!] = values
        }
      }
      doc[FORWARD_FIELD] = Buffer.from(encodeForwardStreams(streamer, tokenStreamTexts(article))).toString('base64')
      doc[ARTICLE_FIELD] = '1'
      // what serving shows without a local index (records.ts)
      doc[RECORD_FIELD] = encodeRecord(article)
      if (segment !== undefined) {
        doc[SEGMENT_FIELD] = segment
      }
      return doc
    },
  }
}
