/**
 * The per-term scoring contract shared by every scorer, and helpers for upper bounds.
 */
import { explanation, type Explained, type Explanation } from './explanation.ts'
import { invalidArgument, type TermStats } from './stats.ts'

/**
 * Scores one query term in documents. Made once per query term by a scorer's `prepareQuery`, with
 * every constant that depends only on the collection and the term already computed, so that
 * `score` allocates nothing and does a handful of flops per field.
 *
 * `tfs` and `lengths` are indexed by field in `CollectionStats.fields` order. They may be plain
 * arrays or typed arrays; for speed, reuse one `Float64Array` (or `Uint32Array`) per query.
 */
export interface TermScorer {
  /** The term's statistics, as given. */
  readonly term: TermStats
  /**
   * The term's contribution to a document's score; `0` when every tf is 0.
   * @param tfs - occurrences of the term in each field of the document
   * @param lengths - the document's length in each field
   */
  score(tfs: ArrayLike<number>, lengths: ArrayLike<number>): number
  /**
   * A true upper bound of `score` over every document whose tf in field f is at most
   * `maxTfs[f]` and whose length in field f is at least `minLengths[f]` (e.g. the maxima and minima
   * over one block of a posting list, or over the whole list). `maxTfs[f]` may be `Infinity` when
   * unknown; `minLengths[f]` may be `0`. The bound is inflated by a relative 1e-12 so that rounding
   * never puts it below a score it bounds.
   * @param maxTfs - per field, the largest tf of the term in the documents covered
   * @param minLengths - per field, the smallest length of the documents covered
   */
  upperBound(maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number
  /**
   * The same score with its explanation tree; `explain(...).value === score(...)` exactly. Checks
   * that the arrays have one value per field (`INVALID_ARGUMENT`).
   * @param tfs - occurrences of the term in each field of the document
   * @param lengths - the document's length in each field
   */
  explain(tfs: ArrayLike<number>, lengths: ArrayLike<number>): Explained
  /**
   * The constants of `score` when it is one saturation of a sum of per-field parts (BM25F), for
   * loops that accumulate the parts field by field (term at a time). `score` is then exactly
   *
   *   tf = 0; for each field f in order with occ(f) > 0:
   *     tf += (weights[f] · occ(f)) / (offset[f] + slope[f] · length(f))
   *   score = tf === 0 ? 0 : (tf / (k1 + tf)) · weight
   *
   * with these operations in this order, so a loop doing the same gets the same bits. Absent for
   * scorers of another shape.
   */
  readonly fieldwise?: FieldwiseTerm
}

/** The constants of a per-field saturated score (see `TermScorer.fieldwise`). */
export interface FieldwiseTerm {
  readonly k1: number
  /** idf × (k1 + 1 when asked) × boost. */
  readonly weight: number
  /** Per field: w(f), offset 1 − b(f) and slope b(f) / avgl(f) of the length normalisation. */
  readonly weights: Float64Array
  readonly offset: Float64Array
  readonly slope: Float64Array
}

/** @internal Relative slack added to upper bounds so that rounding never undercuts a real score. */
export const BOUND_SLACK: number = 1 + 1e-12

/**
 * @internal The bound of `occ / len` over documents with occ ≤ maxTf and len ≥ max(minLength, occ):
 * `maxTf / max(minLength, maxTf)`, i.e. 1 once maxTf reaches minLength (also for maxTf = ∞).
 */
export function occupancyBound(maxTf: number, minLength: number): number {
  return maxTf <= 0 ? 0 : maxTf >= minLength ? 1 : maxTf / minLength
}

/**
 * One query, prepared: a {@link TermScorer} per query term, and how per-term scores combine into
 * a document's score. Made by `Scorer.prepareQuery` once per query.
 */
export interface PreparedQuery {
  /** The scorer's name. */
  readonly name: string
  /** One scorer per query term, in the order of the terms given to `prepareQuery`. */
  readonly terms: readonly TermScorer[]
  /**
   * Whether a document's score is just the sum of its per-term scores (`combine` is the identity).
   * False only for TF-IDF with `coord`.
   */
  readonly additive: boolean
  /**
   * A document's score from the sum of its per-term scores and the number of query terms it
   * contains: `sum` itself, or `coord · sum` for TF-IDF with `coord`.
   * @param sum - Σ over the query terms of `terms[i].score(...)`
   * @param matched - how many query terms occur in the document (for TF-IDF: in the bag fields)
   */
  combine(sum: number, matched: number): number
  /**
   * A document's score: Σ_i `terms[i].score(tfs[i], lengths)`, combined. Allocates nothing.
   * @param tfs - per query term, the term's per-field tfs in the document
   * @param lengths - the document's per-field lengths
   */
  score(tfs: readonly ArrayLike<number>[], lengths: ArrayLike<number>): number
  /**
   * A document's score with its explanation: one child per query term the document contains
   * (and `coord` for TF-IDF); `explain(...).value === score(...)` exactly.
   * @param tfs - per query term, the term's per-field tfs in the document
   * @param lengths - the document's per-field lengths
   */
  explain(tfs: readonly ArrayLike<number>[], lengths: ArrayLike<number>): Explained
}

/** @internal Whether any per-field tf is positive. */
export function occurs(tfs: ArrayLike<number>): boolean {
  for (let f = 0; f < tfs.length; f++) {
    if (tfs[f]! > 0) {
      return true
    }
  }
  return false
}

/** @internal Checks that there is one tf array per query term. */
export function checkTermCount(
  name: string,
  terms: readonly TermScorer[],
  tfs: readonly ArrayLike<number>[],
): void {
  if (tfs.length !== terms.length) {
    throw invalidArgument(`${name} query has ${terms.length} terms, got tfs for ${tfs.length}`)
  }
}

/** @internal A query whose score is the sum of its per-term scores. */
export function additiveQuery(name: string, terms: readonly TermScorer[]): PreparedQuery {
  const count = terms.length
  return {
    name,
    terms,
    additive: true,
    combine: (sum) => sum,
    score: (tfs, lengths) => {
      let sum = 0
      for (let i = 0; i < count; i++) {
        sum += terms[i]!.score(tfs[i]!, lengths)
      }
      return sum
    },
    explain: (tfs, lengths) => {
      checkTermCount(name, terms, tfs)
      let sum = 0
      const details: Explanation[] = []
      for (let i = 0; i < count; i++) {
        const part = terms[i]!.explain(tfs[i]!, lengths)
        sum += part.value
        if (occurs(tfs[i]!)) {
          details.push(part.explain)
        }
      }
      return { value: sum, explain: explanation(name, sum, 'Σ_t score(t)', details) }
    },
  }
}
