/**
 * Articles → Solr documents, from the same field definitions the embedded index uses: text
 * fields as their raw values (Solr analyzes them), keyword fields as `normalizeKeyword` values
 * (what pubmatch's keyword fields hold), `year` and `pubdate` (`YYYYMMDD`) as numbers; and what
 * the features read on the shards: the forward token streams (`pubmatch_fwd`, base64 of
 * {@link encodeForwardStreams}), the publication types and languages as the embedded index's doc
 * values hold them, pubmatch's own index terms of title and abstract (`pubmatch_ti_terms`,
 * `pubmatch_ab_terms`, `pubmatch_tiab`: the features' document frequencies) and the article marker
 * `pubmatch_article`.
 */
import { getAnalyzer, type Analyzer, type AnalyzerRegistry } from '@pubmatch/analysis'
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
import {
  ABSTRACT_TERMS_FIELD,
  ARTICLE_FIELD,
  FEATURE_DOC_VALUES,
  SEGMENT_FIELD,
  SOLR_NUMERIC_FIELDS,
  TIAB_FIELD,
  TITLE_TERMS_FIELD,
  USAGE_FIELDS,
  type SolrFieldSet,
} from './configset.ts'
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
  const analyzer = registry.get(options.analyzer ?? 'biomedical')
  const streamer = createTokenStreamer(analyzer, registry)
  return {
    toSolr(article, segment) {
      const doc: SolrDocument = { id: article.id }
      const terms: Record<string, Set<string>> = {}
      for (const field of fields) {
        const raw = field.source(article)
        const values = (raw === null || raw === undefined ? [] : typeof raw === 'string' ? [raw] : [...raw]).filter(
          (value) => value.trim() !== '',
        )
        if (field.name === 'title' || field.name === 'abstract') {
          terms[field.name] = indexTerms(analyzer, values)
        }
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
      const title = terms['title'] ?? new Set<string>()
      const abstract = terms['abstract'] ?? new Set<string>()
      const tiab = new Set([...title, ...abstract])
      for (const [name, set] of [[TITLE_TERMS_FIELD, title], [ABSTRACT_TERMS_FIELD, abstract], [TIAB_FIELD, tiab]] as const) {
        if (set.size > 0) {
          doc[name] = [...set]
        }
      }
      doc[ARTICLE_FIELD] = '1'
      // past usage starts at none; pushUsage (usage.ts) updates it in place
      for (const name of Object.values(USAGE_FIELDS)) {
        doc[name] = 0
      }
      // what serving shows without a local index (records.ts)
      doc[RECORD_FIELD] = encodeRecord(article)
      if (segment !== undefined) {
        doc[SEGMENT_FIELD] = segment
      }
      return doc
    },
  }
}

/** Lucene's largest term, in UTF-8 bytes (`IndexWriter.MAX_TERM_LENGTH`). */
const MAX_TERM_BYTES = 32_766

/**
 * The distinct terms the embedded index holds for a text field's values: every token of the
 * field's analyzer, joined compound forms included (what `IndexReader.docFreq` counts). A term
 * longer than Lucene accepts (over 32,766 UTF-8 bytes, never a query term in practice) is left out.
 * @param analyzer - the field's analyzer
 * @param values - the field's values
 */
export function indexTerms(analyzer: Pick<Analyzer, 'analyze'>, values: readonly string[]): Set<string> {
  const out = new Set<string>()
  for (const value of values) {
    for (const token of analyzer.analyze(value)) {
      if (token.term.length * 3 <= MAX_TERM_BYTES || Buffer.byteLength(token.term, 'utf8') <= MAX_TERM_BYTES) {
        out.add(token.term)
      }
    }
  }
  return out
}
