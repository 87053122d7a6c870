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
import { explanation, type Explained, type Explanation } from './explanation.ts'
import { checkBm25Idf } from './bm25f.ts'
import { explainIdf, idfFunction, type Bm25Idf } from './idf.ts'
import {
  averageFieldLengths,
  checkDocument,
  checkNumber,
  checkTerm,
  resolveBagFields,
  termLabel,
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
  return {
    k1: checkNumber(NAME, 'k1', params.k1 ?? 1.2, 0),
    b: checkNumber(NAME, 'b', params.b ?? 0.75, 0, 1),
    fields: params.fields,
    idf: checkBm25Idf(NAME, params.idf),
    k1Plus1: params.k1Plus1 ?? false,
  }
}

/** @internal The explanation nodes of a bag-of-words tf and length. */
export function explainBag(
  collection: CollectionStats,
  bag: Int32Array,
  tfs: ArrayLike<number>,
  lengths: ArrayLike<number>,
  tf: number,
  dl: number,
): [Explanation, Explanation] {
  const tfParts: Explanation[] = []
  const dlParts: Explanation[] = []
  for (const f of bag) {
    const name = collection.fields[f]!.name
    if (tfs[f]! > 0) {
      tfParts.push(explanation(name, tfs[f]!))
    }
    dlParts.push(explanation(name, lengths[f]!))
  }
  return [
    explanation('tf', tf, 'Σ_f occ(t,f)', tfParts),
    explanation('dl', dl, 'Σ_f l(f)', dlParts),
  ]
}

/** @internal The mean bag length: Σ totalLength over the bag / N. */
export function bagAverageLength(collection: CollectionStats, bag: Int32Array): number {
  let total = 0
  for (const f of bag) {
    total += collection.fields[f]!.totalLength
  }
  return total / collection.docCount
}

/** @internal Precomputes the constants of one term. */
export function prepareBm25(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedBm25Params,
): TermScorer {
  averageFieldLengths(collection)
  checkTerm(term, collection)
  const bag = resolveBagFields(NAME, collection, params.fields)
  const bagSize = bag.length
  const { k1, b } = params
  const avgdl = bagAverageLength(collection, bag)
  const N = collection.docCount
  const n = term.docFreq
  const idf = idfFunction(params.idf)(N, n)
  const boost = term.boost ?? 1
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
      const f = bag[i]!
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
      const f = bag[i]!
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

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): Explained => {
    checkDocument(collection, tfs, lengths)
    let tf = 0
    let dl = 0
    for (let i = 0; i < bagSize; i++) {
      const f = bag[i]!
      tf += tfs[f]!
      dl += lengths[f]!
    }
    const norm = constant + slope * dl
    const value = tf === 0 ? 0 : (tf / (tf + norm)) * weight
    const [tfNode, dlNode] = explainBag(collection, bag, tfs, lengths, tf, dl)
    const details: Explanation[] = [
      tfNode,
      explanation('norm', norm, 'k1·(1 − b + b·dl/avgdl)', [
        explanation('k1', k1),
        explanation('b', b),
        dlNode,
        explanation('avgdl', avgdl, 'Σ_f totalLength(f) / N'),
      ]),
      explainIdf(params.idf, N, n, idf),
    ]
    let formula = 'idf · tf / (tf + k1·(1 − b + b·dl/avgdl))'
    if (params.k1Plus1) {
      details.push(explanation('k1 + 1', scale))
      formula += ' · (k1 + 1)'
    }
    if (boost !== 1) {
      details.push(explanation('boost', boost))
      formula += ' · boost'
    }
    return { value, explain: explanation(termLabel(term), value, formula, details) }
  }

  return { term, score, upperBound, explain }
}

/**
 * The Lucene BM25 score of one term in one document (fields summed into one bag), with its
 * explanation.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - k1, b, the bag's fields, idf variant, (k1 + 1) factor. Defaults to k1 `1.2`,
 *   b `0.75`, all fields, Lucene idf, no (k1 + 1).
 */
export function bm25(input: TermScoringInput, params?: Bm25Params): Explained {
  return prepareBm25(input.collection, input.term, resolveBm25Params(params)).explain(
    input.tfs,
    input.lengths,
  )
}
