/**
 * The contracts between the parts of the second stage: feature extraction (`src/features`),
 * training data from search logs (`src/clicks`), training (`src/train`) and reranking
 * (`src/rerank`). Each part depends on these types only.
 */
import type { SearchResult } from '@pubmatch/bm25f'

/** Where a feature's value comes from (NCBI's grouping). */
export type FeatureGroup = 'document' | 'query-document' | 'query'

/** One feature column. */
export interface FeatureDefinition {
  /** `F1` … `F179` for Best Match's features; extra blocks use their own prefix. */
  readonly id: string
  /** 0-based column in a {@link FeatureMatrix}. */
  readonly column: number
  /** A short machine-friendly name (`pubtype_review`, `title_coverage`). */
  readonly name: string
  readonly group: FeatureGroup
  /** One sentence for people: what the value is. */
  readonly description: string
  /** The documented value when the data the feature needs is absent (no MeSH, no year, …). */
  readonly neutral: number
}

/** The ordered list of features a model was trained on; models record its `version`. */
export interface FeatureSchema {
  /** Changes whenever a feature's definition, order or count changes. */
  readonly version: string
  readonly features: readonly FeatureDefinition[]
}

/**
 * Feature values of a candidate list, row-major: row `r` is `ids[r]`, in the order of the
 * first-stage hits given to the extractor; `data[r * numFeatures + c]` is feature column `c`.
 * Shaped like `@pubmatch/lightgbm-wasm`'s `FeatureMatrix`, so it can be scored or trained on as is.
 */
export interface FeatureMatrix {
  readonly numRows: number
  readonly numFeatures: number
  readonly data: Float64Array
  readonly ids: readonly string[]
}

/**
 * Past usage of a document (Best Match F2–F3): how often it was opened from search results.
 * Counts come from a search log (see `src/clicks`); a document never seen counts 0.
 */
export interface DocumentUsage {
  /** Abstract views (clicks on the result). */
  abstractClicks(id: string): number
  /** Full-text requests (clicks through to the publisher or PMC). */
  fullTextRequests(id: string): number
}

/** Computes the feature matrix of a first-stage result. */
export interface FeatureExtractor {
  readonly schema: FeatureSchema
  /**
   * @param query - the query text as the user typed it (the Q features read it)
   * @param result - the first-stage answer (its hits, scores and `total`)
   */
  extract(query: string, result: SearchResult): FeatureMatrix
}

/**
 * One training query with graded judgements: from TREC qrels, or derived from a search log.
 * Grades are non-negative integers; documents not listed count as grade 0.
 */
export interface LabelledQuery {
  readonly id: string
  readonly text: string
  readonly judgements: ReadonlyMap<string, number>
}
