/**
 * Articles → Solr documents, from the same field definitions the embedded index uses: text
 * fields as their raw values (Solr analyzes them), keyword fields as `normalizeKeyword` values
 * (what pubmatch's keyword fields hold), `year` and `pubdate` (`YYYYMMDD`) as numbers.
 */
import type { Article } from '@pubmatch/core'
import {
  defaultNumericDocValues,
  defaultPubmedFields,
  testCollectionFields,
  type FieldConfig,
  type NumericDocValuesConfig,
} from '@pubmatch/index'
import { normalizeKeyword } from '@pubmatch/index/internal'
import { SEGMENT_FIELD, SOLR_NUMERIC_FIELDS, type SolrFieldSet } from './configset.ts'

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

/**
 * A mapper for a field set.
 * @param fieldSet - the field set the collection was created with
 * @param options - `meshEntryTerms` as the embedded index's (descriptor → entry terms indexed in `mesh`)
 */
export function createDocumentMapper(
  fieldSet: SolrFieldSet,
  options: { readonly meshEntryTerms?: (descriptorUiOrName: string) => readonly string[] } = {},
): DocumentMapper {
  const fields: FieldConfig[] =
    fieldSet === 'pubmed'
      ? defaultPubmedFields(options.meshEntryTerms === undefined ? {} : { meshEntryTerms: options.meshEntryTerms })
      : testCollectionFields()
  const numeric: NumericDocValuesConfig[] = defaultNumericDocValues().filter((config) => SOLR_NUMERIC_FIELDS.includes(config.name))
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
      if (segment !== undefined) {
        doc[SEGMENT_FIELD] = segment
      }
      return doc
    },
  }
}
