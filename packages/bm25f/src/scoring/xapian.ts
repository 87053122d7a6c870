/**
 * Xapian 1.4's `BM25Weight` (xapian-core weight/bm25weight.cc) without a relevance set, over one
 * bag of words made of the chosen fields, for one query term t and one document:
 *
 *   tw         = (N − n + 0.5) / (n + 0.5);  if tw < 2 then tw = tw / 2 + 1
 *   termweight = ln(tw) · (k1 + 1)
 *   normlen    = max(dl / avgdl, min_normlen)
 *   score      = termweight · tf / (k1 · (normlen · b + (1 − b)) + tf)
 *
 * k1 1.2, b 0.75 and min_normlen 0.5 here (Xapian's own defaults are k1 1, b 0.5). k2 = 0, so the
 * document-length extra (`get_sumextra`) is 0; each distinct query term has wqf 1, so the k3 factor
 * (k3 + 1)·wqf/(k3 + wqf) is 1. dl is the document's bag length (Xapian's document length, the sum
 * of its wdf) and avgdl = Σ_f totalLength(f) / N.
 */
import { explanation, type Explained } from './explanation.ts'
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
  checkNumber,
  checkSaturation,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, type TermScorer } from './term-scorer.ts'

/** Parameters of {@link xapianBm25}. */
export interface XapianBm25Params {
  /** k1, the tf saturation parameter. Defaults to `1.2`. */
  readonly k1?: number
  /** b, the length normalisation parameter, in [0, 1]. Defaults to `0.75`. */
  readonly b?: number
  /** The smallest normalised length dl/avgdl used. Defaults to `0.5`. */
  readonly minNormLength?: number
  /** The fields that make up the bag of words. Defaults to all fields of the collection. */
  readonly fields?: readonly string[]
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedXapianBm25Params {
  readonly k1: number
  readonly b: number
  readonly minNormLength: number
  readonly fields: readonly string[] | undefined
}

const NAME = 'xapian'

/** @internal Fills in and checks the parameters. */
export function resolveXapianBm25Params(params: XapianBm25Params = {}): ResolvedXapianBm25Params {
  const { k1, b } = checkSaturation(NAME, params)
  return {
    k1,
    b,
    minNormLength: checkNumber(NAME, 'minNormLength', params.minNormLength ?? 0.5, 0),
    fields: params.fields,
  }
}

/** @internal Precomputes the constants of one term. */
export function prepareXapianBm25(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedXapianBm25Params,
): TermScorer {
  const { N, n, boost } = termBasics(collection, term)
  const bag = resolveBag(NAME, collection, params.fields)
  const { fields, avgdl } = bag
  const bagSize = fields.length
  const { k1, b, minNormLength } = params
  const lengthFactor = avgdl > 0 ? 1 / avgdl : 0
  // the upper bound's saturation at wdf = ∞
  const limit = 1 / (1 + k1 * b * lengthFactor)
  const rawTw = (N - n + 0.5) / (n + 0.5)
  const tw = rawTw < 2 ? rawTw * 0.5 + 1 : rawTw
  const termWeight = Math.log(tw) * (k1 + 1)
  const weight = termWeight * boost

  const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
    let tf = 0
    let dl = 0
    for (let i = 0; i < bagSize; i++) {
      const f = fields[i]!
      tf += tfs[f]!
      dl += lengths[f]!
    }
    if (tf === 0) {
      return 0
    }
    const scaled = dl * lengthFactor
    const normlen = scaled > minNormLength ? scaled : minNormLength
    return weight * (tf / (k1 * (normlen * b + (1 - b)) + tf))
  }

  const upperBound = (maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number => {
    let t = 0
    let m = 0
    for (let i = 0; i < bagSize; i++) {
      const f = fields[i]!
      t += maxTfs[f]!
      m += minLengths[f]!
    }
    if (t <= 0 || weight <= 0) {
      return 0
    }
    // tf / (k1·(b·tf/avgdl + 1 − b) + tf) → 1 / (1 + k1·b/avgdl) at ∞, which also caps the
    // finite value (so that rounding never puts a block's bound above the list's).
    if (t === Number.POSITIVE_INFINITY) {
      return weight * limit * BOUND_SLACK
    }
    // As Xapian's get_maxpart: evaluate at wdf = max wdf, length = max(max wdf, min length).
    const scaled = (t > m ? t : m) * lengthFactor
    const normlen = scaled > minNormLength ? scaled : minNormLength
    return weight * Math.min(limit, t / (k1 * (normlen * b + (1 - b)) + t)) * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    const { tf, dl, tfNode, dlNode } = explainBag(collection, bag, tfs, lengths)
    const scaled = dl * lengthFactor
    const normlen = scaled > minNormLength ? scaled : minNormLength
    return {
      value: tf === 0 ? 0 : weight * (tf / (k1 * (normlen * b + (1 - b)) + tf)),
      formula: 'termweight · tf / (k1·(normlen·b + (1 − b)) + tf)',
      details: [
        explanation('termweight', termWeight, 'ln(tw) · (k1 + 1)', [
          explanation('tw', tw, '(N − n + 0.5) / (n + 0.5), then tw / 2 + 1 if below 2', [
            explanation('N', N),
            explanation('n', n),
          ]),
          explanation('k1', k1),
        ]),
        tfNode,
        explanation('normlen', normlen, 'max(dl / avgdl, min_normlen)', [
          dlNode,
          explanation('avgdl', avgdl, 'Σ_f totalLength(f) / N'),
          explanation('min_normlen', minNormLength),
        ]),
        explanation('b', b),
      ],
      boost,
    }
  }

  return termScorer(collection, term, score, upperBound, explain)
}

/** @internal The scorer's definition. */
export const XAPIAN: PerTermDefinition<XapianBm25Params, ResolvedXapianBm25Params> = {
  name: NAME,
  resolve: resolveXapianBm25Params,
  prepare: prepareXapianBm25,
}

/**
 * Xapian's BM25Weight score of one term in one document (fields summed into one bag), with its
 * explanation.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - k1, b, min_normlen, the bag's fields. Defaults to k1 `1.2`, b `0.75`,
 *   min_normlen `0.5`, all fields.
 */
export function xapianBm25(input: TermScoringInput, params?: XapianBm25Params): Explained {
  return explainOneTerm(XAPIAN, input, params)
}
