/**
 * Plain BM25 as Lucene ≥ 8 computes it (`BM25Similarity`), over one bag of words made of the
 * chosen fields (their tfs and lengths are summed), for one query term t and one document:
 *
 *   score = idf · tf / (tf + k1 · (1 − b + b · dl / avgdl))     (× (k1 + 1) with `k1Plus1`)
 *   idf   = ln(1 + (N − n + 0.5) / (n + 0.5))                   (or RSJ, see {@link Bm25Params})
 *
 * dl = Σ_f l(f) over the bag, avgdl = Σ_f totalLength(f) / N. Lucene < 8 multiplied by (k1 + 1);
 * Lucene 8 dropped the factor because it changes no ranking (LUCENE-8563). pubmatch follows
 * Lucene ≥ 8 by default and offers the factor as `k1Plus1`. Lengths are exact: Lucene ≥ 7 stores
 * them in one byte (`SmallFloat.intToByte4`, exact below 24 and within 1/9 above), pubmatch does not.
 */
import { explanation, type Explained } from './explanation.ts'
import { BM25_IDFS, explainIdf, idfFunction, type Bm25Idf } from './idf.ts'
import {
  explainBag,
  explainOneTerm,
  resolveBag,
  termBasics,
  termScorer,
  type PerTermDefinition,
  type TermExplanation,
} from './prepare.ts'
import {
  checkChoice,
  checkSaturation,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, type TermScorer } from './term-scorer.ts'

/** Parameters of {@link bm25}. */
export interface Bm25Params {
  /** k1, the tf saturation parameter. Defaults to `1.2`. */
  readonly k1?: number
  /** b, the length normalisation parameter, in [0, 1]. Defaults to `0.75`. */
  readonly b?: number
  /** The fields that make up the bag of words. Defaults to all fields of the collection. */
  readonly fields?: readonly string[]
  /**
   * `'lucene'`: `ln(1 + (N − n + 0.5) / (n + 0.5))`; `'rsj'`: `ln((N − n + 0.5) / (n + 0.5))`.
   * Defaults to `'lucene'`.
   */
  readonly idf?: Bm25Idf
  /** Multiply by (k1 + 1), as Lucene < 8 did. Defaults to `false` (Lucene ≥ 8). */
  readonly k1Plus1?: boolean
}

/**
 * BM25's length normalisation of a document, `k1 · (1 − b + b · dl / avgdl)`, from its scaled
 * length `b · dl / avgdl` (a caller scoring many documents against one mean may precompute
 * `b / avgdl`).
 * @param k1 - the tf saturation parameter
 * @param b - the length normalisation parameter
 * @param scaledLength - `b · dl / avgdl`
 */
export function bm25LengthNorm(k1: number, b: number, scaledLength: number): number {
  return k1 * (1 - b + scaledLength)
}

/**
 * The BM25 of one term in one document as Lucene < 8 computes it, with the (k1 + 1) factor:
 * `weight · tf · (k1 + 1) / (tf + norm)`. The `bm25` scorer with `k1Plus1` gives the same value
 * with its per-term constants folded first (so the last bits may differ).
 * @param weight - the term's idf (e.g. `luceneIdf`), times its boost if any
 * @param tf - the term's occurrences in the document
 * @param k1 - the tf saturation parameter
 * @param norm - the document's {@link bm25LengthNorm}
 */
export function lucene6Bm25(weight: number, tf: number, k1: number, norm: number): number {
  return (weight * tf * (k1 + 1)) / (tf + norm)
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedBm25Params {
  readonly k1: number
  readonly b: number
  readonly fields: readonly string[] | undefined
  readonly idf: Bm25Idf
  readonly k1Plus1: boolean
}

const NAME = 'bm25'

/** @internal Fills in and checks the parameters. */
export function resolveBm25Params(params: Bm25Params = {}): ResolvedBm25Params {
  const { k1, b } = checkSaturation(NAME, params)
  return {
    k1,
    b,
    fields: params.fields,
    idf: checkChoice(NAME, 'idf', params.idf, BM25_IDFS),
    k1Plus1: params.k1Plus1 ?? false,
  }
}

/** @internal Precomputes the constants of one term. */
export function prepareBm25(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedBm25Params,
): TermScorer {
  const { N, n, boost } = termBasics(collection, term)
  const bag = resolveBag(NAME, collection, params.fields)
  const { fields, avgdl } = bag
  const bagSize = fields.length
  const { k1, b } = params
  const idf = idfFunction(params.idf)(N, n)
  const scale = params.k1Plus1 ? k1 + 1 : 1
  const weight = idf * scale * boost
  // k1·(1 − b + b·dl/avgdl) = constant + slope·dl
  const constant = k1 * (1 - b)
  const slope = avgdl > 0 ? (k1 * b) / avgdl : 0
  // the upper bound's saturation at tf = ∞
  const limit = 1 / (1 + slope)

  const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
    let tf = 0
    let dl = 0
    for (let i = 0; i < bagSize; i++) {
      const f = fields[i]!
      tf += tfs[f]!
      dl += lengths[f]!
    }
    return tf === 0 ? 0 : (tf / (tf + (constant + slope * dl))) * weight
  }

  const upperBound = (maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number => {
    if (weight <= 0) {
      return 0
    }
    let t = 0
    let m = 0
    for (let i = 0; i < bagSize; i++) {
      const f = fields[i]!
      t += maxTfs[f]!
      m += minLengths[f]!
    }
    if (t <= 0) {
      return 0
    }
    // tf / (tf + constant + slope·max(m, tf)) rises with tf; its limit at ∞ is 1 / (1 + slope),
    // which also caps the finite value, so that rounding never puts a block's bound above the
    // list's.
    const saturation =
      t === Number.POSITIVE_INFINITY
        ? limit
        : Math.min(limit, t / (t + constant + slope * (t > m ? t : m)))
    return saturation * weight * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    const { tf, dl, tfNode, dlNode } = explainBag(collection, bag, tfs, lengths)
    const norm = constant + slope * dl
    return {
      value: tf === 0 ? 0 : (tf / (tf + norm)) * weight,
      formula: 'idf · tf / (tf + k1·(1 − b + b·dl/avgdl))',
      details: [
        tfNode,
        explanation('norm', norm, 'k1·(1 − b + b·dl/avgdl)', [
          explanation('k1', k1),
          explanation('b', b),
          dlNode,
          explanation('avgdl', avgdl, 'Σ_f totalLength(f) / N'),
        ]),
        explainIdf(params.idf, N, n, idf),
      ],
      k1Plus1: params.k1Plus1 ? scale : undefined,
      boost,
    }
  }

  return termScorer(collection, term, score, upperBound, explain)
}

/** @internal The scorer's definition. */
export const BM25: PerTermDefinition<Bm25Params, ResolvedBm25Params> = {
  name: NAME,
  resolve: resolveBm25Params,
  prepare: prepareBm25,
}

/**
 * The Lucene BM25 score of one term in one document (fields summed into one bag), with its
 * explanation.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - k1, b, the bag's fields, idf variant, (k1 + 1) factor. Defaults to k1 `1.2`,
 *   b `0.75`, all fields, Lucene idf, no (k1 + 1).
 */
export function bm25(input: TermScoringInput, params?: Bm25Params): Explained {
  return explainOneTerm(BM25, input, params)
}
