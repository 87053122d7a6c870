import type { AnalyzerRegistry } from '@pubmatch/analysis'
import type { Article, DerivedFrom } from '@pubmatch/core'
import type { CodecName } from '../codec/block-codec.ts'
import type { MergePolicy } from '../merge/merge-policy.ts'

/** What a field's source extractor returns: one value, several, or nothing. */
export type FieldValue = string | readonly string[] | null | undefined

/** One indexed field: where its text comes from and how it is analyzed. */
export interface FieldConfig {
  /** The field name (unique, non-empty), e.g. `title`. */
  readonly name: string
  /** Pulls the field's value(s) out of an article. Several values are indexed one after another. */
  readonly source: (article: Article) => FieldValue
  /**
   * The analyzer (a name `getAnalyzer` knows, or one of `IndexConfig.analyzers`). Ignored for
   * keyword fields. Defaults to `biomedical`.
   */
  readonly analyzer?: string
  /**
   * Index each value as one exact, normalised term (see `normalizeKeyword`) instead of
   * analyzing it: publication types, languages, journals, authors in `smith j` form. The
   * field length is the number of distinct values. Defaults to `false`.
   */
  readonly keyword?: boolean
  /** Store positions (for phrases and proximity). Defaults to `true` for text, `false` for keyword fields. */
  readonly positions?: boolean
  /**
   * Positions left empty between two values of a multi-valued text field, so that phrases
   * do not match across values. Defaults to `100`.
   */
  readonly positionGap?: number
}

/** A per-document integer kept in doc values (for filters, sorting and LTR features). */
export interface NumericDocValuesConfig {
  /** The name, unique among numeric doc values. */
  readonly name: string
  /** The value: an integer in −2^31 … 2^31−1, or `null`/`undefined` when missing. */
  readonly source: (article: Article) => number | null | undefined
}

/** A per-document set of strings kept in doc values (e.g. publication types). */
export interface SortedSetDocValuesConfig {
  /** The name, unique among sorted-set doc values. */
  readonly name: string
  /** The values (duplicates are dropped, order is not kept). */
  readonly source: (article: Article) => readonly string[]
}

/**
 * The compact record stored per document so that results can be displayed without the
 * corpus. Must be JSON-serialisable.
 */
export interface StoredDocument {
  /** The external id (PMID or collection document id). */
  readonly id: string
  readonly title: string
  readonly year?: number
  /** The journal abbreviation (MedlineTA, else ISO abbreviation, else title). */
  readonly journal?: string
  /** The first three authors, `Smith J` style (collective names as given). */
  readonly authors: readonly string[]
  readonly authorCount: number
  readonly pubTypes: readonly string[]
  readonly languages: readonly string[]
  /** The abstract as plain text, for snippets (absent in indexes built before it was stored). */
  readonly abstract?: string
  /** The PubMed Central id (`PMC…`), when the article has one. */
  readonly pmcid?: string
  /** The DOI, when the article has one. */
  readonly doi?: string
  /**
   * Set when the record is not a PubMed citation but was derived from a PMC full text's front
   * matter (`Article.derivedFrom`): the format it was read from.
   */
  readonly derivedFrom?: DerivedFrom
}

/** Everything that defines an index: fields, doc values, stored fields, codec. */
export interface IndexConfig {
  /** The indexed fields (at least one), e.g. `defaultPubmedFields()` or `testCollectionFields()`. */
  readonly fields: readonly FieldConfig[]
  /** Numeric doc values. Defaults to `defaultNumericDocValues()`. */
  readonly numericDocValues?: readonly NumericDocValuesConfig[]
  /** Sorted-set doc values. Defaults to `defaultSortedSetDocValues()`. */
  readonly sortedSetDocValues?: readonly SortedSetDocValuesConfig[]
  /** The stored record of a document. Defaults to `defaultStoredDocument`. */
  readonly storedFields?: (article: Article) => StoredDocument
  /** The block codec for new segments (see README "Codec"). Defaults to `bitpack`. */
  readonly codec?: CodecName
  /**
   * Where analyzer names are looked up. Defaults to the built-in analyzers. Worker builds
   * (`buildIndex` with `workers > 0`) always use the built-ins.
   */
  readonly analyzers?: AnalyzerRegistry
  /** When to merge segments. Defaults to `logMergePolicy()`. */
  readonly mergePolicy?: MergePolicy
}
