/**
 * Training data from judgements: labelled queries → first-stage candidates → features → graded
 * rows grouped by query, ready for LambdaMART (`trainRanker`) or feature logging (`formatLetor`).
 */
import { PubmatchError } from '@pubmatch/core'
import type { FirstStageRanker, SearchOptions } from '@pubmatch/bm25f'
import type { FeatureExtractor, LabelledQuery } from './types.ts'

/** Rows of (query, candidate) pairs with features and graded labels. */
export interface TrainingSet {
  /** Row-major features, `numRows × numFeatures` (the shape `@pubmatch/lightgbm-wasm` takes). */
  readonly features: { readonly data: Float64Array; readonly numRows: number; readonly numFeatures: number }
  /** One grade per row (documents not judged: 0). */
  readonly labels: Int32Array
  /** Rows per query, in order; they sum to `numRows`. */
  readonly groups: Int32Array
  /** The id of each group's query. */
  readonly queryIds: readonly string[]
  /** The document of each row. */
  readonly docIds: readonly string[]
  /** Each row's 1-based rank in the first stage. */
  readonly firstStageRanks: Int32Array
  readonly stats: TrainingSetStats
}

/** Why a query contributed no rows. */
export type SkipReason =
  /** The first stage found nothing. */
  | 'no-candidates'
  /** No judged-relevant document among the candidates: LambdaMART learns nothing from it. */
  | 'no-relevant-candidates'
  /** Fewer relevant candidates than `minRelevantCandidates` (NCBI's eligibility rule). */
  | 'too-few-relevant-candidates'

/** What went into a {@link TrainingSet}. */
export interface TrainingSetStats {
  /** Queries with rows. */
  readonly queries: number
  /** Queries left out, with the reason. */
  readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: SkipReason }>
}

/** Options of {@link buildTrainingSet}. */
export interface BuildTrainingSetOptions {
  /** The first stage. */
  readonly searcher: FirstStageRanker
  /**
   * Computes the features; a function gives each query its own extractor (e.g. past-usage counts
   * that leave the query's own clicks out, so the model does not learn from its own labels).
   */
  readonly extractor: FeatureExtractor | ((query: LabelledQuery) => FeatureExtractor)
  readonly queries: readonly LabelledQuery[]
  /** Candidates per query. Defaults to `500` (Best Match's reranking depth). */
  readonly depth?: number
  /** First-stage options (match mode, syntax, ranker, …). Defaults to the searcher's. */
  readonly search?: SearchOptions
  /**
   * Keep a query only when at least this many candidates have grade > 0. NCBI required 5 of the
   * top-10 gold documents; `1` keeps every query LambdaMART can learn from; `0` keeps every query
   * with candidates (feature logging). Defaults to `1`.
   */
  readonly minRelevantCandidates?: number
  /** Called after each query. */
  readonly onProgress?: (done: number, total: number) => void
}

/**
 * Runs the first stage for every labelled query and computes the features of its candidates.
 * @param options - see {@link BuildTrainingSetOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad depth, a negative or fractional grade
 */
export function buildTrainingSet(options: BuildTrainingSetOptions): TrainingSet {
  const depth = options.depth ?? 500
  const minRelevant = options.minRelevantCandidates ?? 1
  if (!Number.isInteger(depth) || depth < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `depth must be a positive integer, got ${depth}`)
  }
  const chunks: Float64Array[] = []
  const labels: number[] = []
  const groups: number[] = []
  const queryIds: string[] = []
  const docIds: string[] = []
  const ranks: number[] = []
  const skipped: Array<{ id: string; reason: SkipReason }> = []
  let numFeatures = -1
  for (const [i, query] of options.queries.entries()) {
    for (const [doc, grade] of query.judgements) {
      if (!Number.isInteger(grade) || grade < 0) {
        throw new PubmatchError('INVALID_ARGUMENT', `query ${query.id}: grade of ${doc} must be a non-negative integer, got ${grade}`)
      }
    }
    const result = options.searcher.search(query.text, { ...options.search, limit: depth, explain: false })
    const relevant = result.hits.reduce((n, hit) => n + ((query.judgements.get(hit.id) ?? 0) > 0 ? 1 : 0), 0)
    let reason: SkipReason | undefined
    if (result.hits.length === 0) {
      reason = 'no-candidates'
    } else if (relevant < minRelevant) {
      reason = relevant === 0 ? 'no-relevant-candidates' : 'too-few-relevant-candidates'
    }
    if (reason !== undefined) {
      skipped.push({ id: query.id, reason })
    } else {
      const extractor = typeof options.extractor === 'function' ? options.extractor(query) : options.extractor
      const matrix = extractor.extract(query.text, result)
      if (numFeatures < 0) {
        numFeatures = matrix.numFeatures
      } else if (matrix.numFeatures !== numFeatures) {
        throw new PubmatchError('FEATURE_COUNT_MISMATCH', `query ${query.id} has ${matrix.numFeatures} features, earlier queries ${numFeatures}`)
      }
      chunks.push(matrix.data)
      groups.push(matrix.numRows)
      queryIds.push(query.id)
      for (const [r, hit] of result.hits.entries()) {
        labels.push(query.judgements.get(hit.id) ?? 0)
        docIds.push(hit.id)
        ranks.push(r + 1)
      }
    }
    options.onProgress?.(i + 1, options.queries.length)
  }
  const numRows = labels.length
  const cols = Math.max(numFeatures, 0)
  const data = new Float64Array(numRows * cols)
  let offset = 0
  for (const chunk of chunks) {
    data.set(chunk, offset)
    offset += chunk.length
  }
  return {
    features: { data, numRows, numFeatures: cols },
    labels: Int32Array.from(labels),
    groups: Int32Array.from(groups),
    queryIds,
    docIds,
    firstStageRanks: Int32Array.from(ranks),
    stats: { queries: groups.length, skipped },
  }
}

/**
 * The rows of some of a set's queries (for k-fold splits and train/valid/test splits).
 * @param set - the training set
 * @param keep - whether to keep the query with this id
 */
export function selectQueries(set: TrainingSet, keep: (queryId: string, group: number) => boolean): TrainingSet {
  const { numFeatures, data } = set.features
  const rows: number[] = []
  const groups: number[] = []
  const queryIds: string[] = []
  let start = 0
  for (const [g, size] of set.groups.entries()) {
    const id = set.queryIds[g]!
    if (keep(id, g)) {
      for (let r = start; r < start + size; r++) {
        rows.push(r)
      }
      groups.push(size)
      queryIds.push(id)
    }
    start += size
  }
  const out = new Float64Array(rows.length * numFeatures)
  for (const [i, r] of rows.entries()) {
    out.set(data.subarray(r * numFeatures, (r + 1) * numFeatures), i * numFeatures)
  }
  return {
    features: { data: out, numRows: rows.length, numFeatures },
    labels: Int32Array.from(rows, (r) => set.labels[r]!),
    groups: Int32Array.from(groups),
    queryIds,
    docIds: rows.map((r) => set.docIds[r]!),
    firstStageRanks: Int32Array.from(rows, (r) => set.firstStageRanks[r]!),
    stats: { queries: queryIds.length, skipped: set.stats.skipped.filter((s) => keep(s.id, -1)) },
  }
}

/**
 * Keeps only the given feature columns (for ablations), in the given order.
 * @param set - the training set
 * @param columns - 0-based columns to keep
 */
export function selectFeatures(set: TrainingSet, columns: readonly number[]): TrainingSet {
  const { numFeatures, numRows, data } = set.features
  for (const c of columns) {
    if (!Number.isInteger(c) || c < 0 || c >= numFeatures) {
      throw new PubmatchError('INVALID_ARGUMENT', `feature column ${c} is outside 0 … ${numFeatures - 1}`)
    }
  }
  const out = new Float64Array(numRows * columns.length)
  for (let r = 0; r < numRows; r++) {
    for (const [j, c] of columns.entries()) {
      out[r * columns.length + j] = data[r * numFeatures + c]!
    }
  }
  return { ...set, features: { data: out, numRows, numFeatures: columns.length } }
}
