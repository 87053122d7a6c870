/**
 * The second stage: first-stage candidates → features → LambdaMART scores (the pure TypeScript
 * scorer of `@pubmatch/lightgbm-wasm`, no WebAssembly) → the reordered list.
 */
import type { Candidate, SearchResult } from '@pubmatch/bm25f'
import { explainRow, prepareModel, scoreRows } from '@pubmatch/lightgbm-wasm'
import { checkSchema, type QueryRange, type RankerModel } from './model.ts'
import type { FeatureExtractor } from './types.ts'

/** One feature's share of a reranked document's score. */
export interface FeatureContribution {
  /** The feature id (`F143`). */
  readonly feature: string
  /** Its value for the document. */
  readonly value: number
  /** What the splits on it added along the document's paths through the trees. */
  readonly contribution: number
}

/** Why a document got its model score: `bias` + Σ contributions = `score`. */
export interface RerankExplanation {
  /** The trees' expected output before any split (sum of the roots' values). */
  readonly bias: number
  /** Features with a non-zero contribution, largest magnitude first. */
  readonly contributions: readonly FeatureContribution[]
}

/** A reranked document. */
export interface RerankedHit {
  readonly id: string
  readonly docNumber: number
  /**
   * The model's score (higher is better); a hit past `depth` gets a score below every reranked
   * hit and below the hit before it, and a query left in first-stage order keeps its first-stage scores.
   */
  readonly score: number
  /** 1-based rank after reranking. */
  readonly rank: number
  readonly firstStageScore: number
  readonly firstStageRank: number
  /** With `explain`: the per-feature attribution of `score`. */
  readonly explain?: RerankExplanation
}

/** Why a query was left in first-stage order. */
export interface RerankFallback {
  /** The query-level feature outside the range the model accepts. */
  readonly feature: string
  readonly value: number
  /** The range accepted (see `acceptedRange`). */
  readonly range: QueryRange
}

/** What {@link Reranker.rerank} returns. */
export interface RerankResult {
  /**
   * Every hit of the first-stage result: the first `depth` in model order (or in first-stage order
   * with `fallback`), then the rest in first-stage order.
   */
  readonly hits: RerankedHit[]
  /** Set when the query was left in first-stage order, and why (a Best Match model outside its training range). */
  readonly fallback?: RerankFallback
}

/** Options of {@link Reranker.rerank}. */
export interface RerankOptions {
  /** Attach a {@link RerankExplanation} to each hit (costs one tree walk per hit). Defaults to `false`. */
  readonly explain?: boolean
  /**
   * Candidates reranked: the first `depth` hits are reordered and the rest follow in first-stage
   * order, each scored below every reranked hit and below the one before (so the whole list is
   * one ranking, e.g. a TREC run). Defaults to every hit.
   */
  readonly depth?: number
}

/** Reorders first-stage results with a model. */
export interface Reranker {
  /**
   * @param query - the query text (the query features read it)
   * @param result - the first-stage answer, usually its top 500
   * @param options - see {@link RerankOptions}
   * @returns every hit of `result`, the first `depth` reordered by model score (ties: first-stage rank)
   */
  rerank(query: string, result: SearchResult, options?: RerankOptions): RerankResult
}

/**
 * A reranker from a feature extractor and a model trained on the extractor's schema.
 * @param extractor - computes the features
 * @param model - a model from `loadModel`
 * @throws PubmatchError `SCHEMA_MISMATCH` when the model was trained on other features
 */
export function createReranker(extractor: FeatureExtractor, model: RankerModel): Reranker {
  checkSchema(model.manifest, extractor.schema)
  prepareModel(model.model) // compile the trees now, not during the first query
  const ids = model.manifest.schema.features
  return {
    rerank(query, result, options = {}) {
      const head = headOf(result, options.depth)
      if (head.hits.length === 0) {
        return { hits: withTail([], result.hits, 0) }
      }
      const matrix = extractor.extract(query, head)
      const scores = scoreRows(model.model, matrix, { raw: true })
      const order = head.hits.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b)
      const hits = order.map((i, r): RerankedHit => {
        const hit = head.hits[i]!
        return {
          id: hit.id,
          docNumber: hit.docNumber,
          score: scores[i]!,
          rank: r + 1,
          firstStageScore: hit.score,
          firstStageRank: hit.rank,
          ...(options.explain === true
            ? { explain: explainScore(model, matrix.data.subarray(i * matrix.numFeatures, (i + 1) * matrix.numFeatures), ids) }
            : {}),
        }
      })
      return { hits: withTail(hits, result.hits, hits.length) }
    },
  }
}

/**
 * The candidates a reranker reorders: the first `depth` hits of a result (the result itself when
 * it holds no more).
 * @param result - the first-stage result
 * @param depth - candidates reranked; `undefined`: all
 */
export function headOf(result: SearchResult, depth: number | undefined): SearchResult {
  return depth === undefined || depth >= result.hits.length ? result : { ...result, hits: result.hits.slice(0, Math.max(0, depth)) }
}

/**
 * Appends the hits past the reranked head in first-stage order, with scores that keep that order:
 * strictly decreasing, all below the head's lowest score (0 without a head).
 * @param hits - the reranked head (appended to)
 * @param all - every first-stage hit
 * @param from - where the tail starts in `all` (the head's length)
 */
export function withTail(hits: RerankedHit[], all: readonly Candidate[], from: number): RerankedHit[] {
  const n = all.length - from
  if (n <= 0) {
    return hits
  }
  let floor = hits.length > 0 ? Infinity : 0
  for (const hit of hits) {
    floor = Math.min(floor, hit.score)
  }
  for (let i = 0; i < n; i++) {
    const hit = all[from + i]!
    hits.push({ id: hit.id, docNumber: hit.docNumber, score: floor - 1 - (i + 1) / (n + 1), rank: from + i + 1, firstStageScore: hit.score, firstStageRank: hit.rank })
  }
  return hits
}

/**
 * Attributes a row's raw score to features along its paths (Saabas' method): at every split the
 * change of the expected output from the node to the child the row takes is credited to the
 * split's feature; the roots' expected outputs make the bias. Needs the `internal_value`s that
 * LightGBM writes in its text models.
 * @param model - the model
 * @param row - the row's feature values
 * @param ids - feature ids by column
 */
export function explainScore(model: RankerModel, row: Float64Array, ids: readonly string[]): RerankExplanation {
  const explanation = explainRow(model.model, row)
  const byFeature = new Float64Array(row.length)
  let bias = 0
  for (const contribution of explanation.trees) {
    const tree = model.model.trees[contribution.tree]!
    const internal = tree.internalValue
    if (contribution.path.length === 0 || internal === undefined) {
      bias += contribution.value
      continue
    }
    bias += internal[contribution.path[0]!]!
    for (const [j, node] of contribution.path.entries()) {
      const next = contribution.path[j + 1]
      const childValue = next === undefined ? contribution.value : internal[next]!
      byFeature[tree.splitFeature[node]!]! += childValue - internal[node]!
    }
  }
  const contributions: FeatureContribution[] = []
  for (let c = 0; c < byFeature.length; c++) {
    if (byFeature[c] !== 0) {
      contributions.push({ feature: ids[c] ?? `column ${c}`, value: row[c]!, contribution: byFeature[c]! })
    }
  }
  contributions.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
  return { bias, contributions }
}
