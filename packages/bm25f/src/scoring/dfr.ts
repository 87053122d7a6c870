/**
 * DFR I(ne)L2 (Amati & van Rijsbergen, "Probabilistic models of information retrieval based on
 * measuring the divergence from randomness", ACM TOIS 20(4), 2002): basic model I(ne), after-effect
 * L (Laplace) and length normalisation H2, over one bag of words made of the chosen fields, for one
 * query term t and one document:
 *
 *   tfn   = tf · log2(1 + c · avgdl / dl)                        (H2)
 *   ne    = N · (1 − ((N − 1) / N)^F)                            F: occurrences of t in the collection
 *   A     = log2((N + 1) / (ne + 0.5))                           (I(ne): information per occurrence)
 *   score = A · tfn / (tfn + 1)                                  (= A·tfn · L2, L2 = 1 / (tfn + 1))
 *
 * This is Lucene's `DFRSimilarity(BasicModelIne, AfterEffectL, NormalizationH2(c))` and the
 * binomial ne of the paper. Lucene ≥ 8 writes the product as A · (1 − 1/(1 + tfn)) (equal in real
 * arithmetic; it keeps float32 scores from falling as tfn rises) and quantises lengths to one byte;
 * pubmatch computes A · tfn / (tfn + 1) in doubles with exact lengths. The "+1"s of Lucene's other
 * DFR models (`BasicModelG`: F + 1 and N + F; `AfterEffectB`: (F + 1) / (n · (tfn + 1))) do not
 * occur in I(ne)L2; the (N + 1) and (ne + 0.5) above are in the paper, Lucene and Terrier alike.
 * Terrier's `In_exp` basic model (in `In_expB2`, `In_expC2` and DFRWeightingModel) uses the
 * Poisson approximation ne = N · (1 − e^(−F/N)) instead: `ne: 'poisson'`.
 */
import { truncateForMessage } from '@pubmatch/core'
import { explanation, type Explained, type Explanation } from './explanation.ts'
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
  checkNumber,
  invalidArgument,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, type TermScorer } from './term-scorer.ts'

/** Parameters of {@link dfrIneL2}. */
export interface DfrParams {
  /**
   * How ne, the expected number of documents containing the term, is estimated: `'binomial'`,
   * N · (1 − ((N − 1)/N)^F) (the paper, Lucene), or `'poisson'`, N · (1 − e^(−F/N)) (Terrier).
   * Defaults to `'binomial'`.
   */
  readonly ne?: 'binomial' | 'poisson'
  /** c, the H2 length normalisation parameter (> 0). Defaults to `1` (Terrier's and Lucene's default). */
  readonly c?: number
  /** The fields that make up the bag of words. Defaults to all fields of the collection. */
  readonly fields?: readonly string[]
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedDfrParams {
  readonly ne: 'binomial' | 'poisson'
  readonly c: number
  readonly fields: readonly string[] | undefined
}

const NAME = 'dfr'
const LN2 = Math.LN2
const NE_ESTIMATES: readonly ['binomial', 'poisson'] = ['binomial', 'poisson']

/** @internal Fills in and checks the parameters. */
export function resolveDfrParams(params: DfrParams = {}): ResolvedDfrParams {
  const c = checkNumber(NAME, 'c', params.c ?? 1, 0)
  if (c === 0) {
    throw invalidArgument(`${NAME} parameter c must be > 0, got 0`)
  }
  return { ne: checkChoice(NAME, 'ne', params.ne, NE_ESTIMATES), c, fields: params.fields }
}

/** F, the term's occurrences in the collection, which DFR needs (`INVALID_ARGUMENT` without it). */
function totalTermFreq(term: TermStats): number {
  const F = term.totalTermFreq
  if (F === undefined || !Number.isFinite(F) || F < term.docFreq) {
    throw invalidArgument(
      `${NAME} needs the term's totalTermFreq (a finite number ≥ docFreq = ${term.docFreq}), got ${String(F)}` +
        (term.text === undefined ? '' : ` for "${truncateForMessage(term.text)}"`),
    )
  }
  return F
}

/** @internal Precomputes the constants of one term. */
export function prepareDfrIneL2(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedDfrParams,
): TermScorer {
  const { N, boost } = termBasics(collection, term)
  const F = totalTermFreq(term)
  const bag = resolveBag(NAME, collection, params.fields)
  const { fields, avgdl } = bag
  const bagSize = fields.length
  const { c } = params
  const cAvgdl = c * avgdl
  // the upper bound's tfn at tf = ∞
  const limit = cAvgdl / LN2
  const ne =
    params.ne === 'binomial' ? N * (1 - Math.pow((N - 1) / N, F)) : N * (1 - Math.exp(-F / N))
  const A = Math.log((N + 1) / (ne + 0.5)) / LN2
  const weight = A * boost

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
    const tfn = (tf * Math.log(1 + cAvgdl / dl)) / LN2
    return (weight * tfn) / (tfn + 1)
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
    // tf·log2(1 + c·avgdl/max(m, tf)) rises with tf; its limit at ∞ is c·avgdl / ln 2, which also
    // caps the finite value; tfn/(tfn + 1) written as 1/(1 + 1/tfn) is monotone under rounding,
    // so a block's bound never exceeds the list's by an ulp.
    const tfn =
      t === Number.POSITIVE_INFINITY
        ? limit
        : Math.min(limit, (t * Math.log(1 + cAvgdl / (t > m ? t : m))) / LN2)
    return (weight / (1 + 1 / tfn)) * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    const { tf, dl, tfNode, dlNode } = explainBag(collection, bag, tfs, lengths)
    const tfn = tf === 0 ? 0 : (tf * Math.log(1 + cAvgdl / dl)) / LN2
    const details: Explanation[] = [
      explanation('tfn', tfn, 'tf · log2(1 + c·avgdl/dl)', [
        tfNode,
        explanation('c', c),
        explanation('avgdl', avgdl, 'Σ_f totalLength(f) / N'),
        dlNode,
      ]),
      explanation('A', A, 'log2((N + 1) / (ne + 0.5))', [
        explanation('N', N),
        explanation(
          'ne',
          ne,
          params.ne === 'binomial' ? 'N · (1 − ((N − 1)/N)^F)' : 'N · (1 − e^(−F/N))',
          [explanation('N', N), explanation('F', F)],
        ),
      ]),
    ]
    // The boost leads DFR's formula, so it is not a trailing factor.
    if (boost !== 1) {
      details.push(explanation('boost', boost))
    }
    return {
      value: tf === 0 ? 0 : (weight * tfn) / (tfn + 1),
      formula: boost === 1 ? 'A · tfn / (tfn + 1)' : 'boost · A · tfn / (tfn + 1)',
      details,
    }
  }

  return termScorer(collection, term, score, upperBound, explain)
}

/** @internal The scorer's definition. */
export const DFR: PerTermDefinition<DfrParams, ResolvedDfrParams> = {
  name: NAME,
  resolve: resolveDfrParams,
  prepare: prepareDfrIneL2,
}

/**
 * The DFR I(ne)L2 score of one term in one document (fields summed into one bag), with its
 * explanation. Needs `term.totalTermFreq`.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - c, the ne estimate and the bag's fields. Defaults to c `1`, binomial ne, all
 *   fields.
 */
export function dfrIneL2(input: TermScoringInput, params?: DfrParams): Explained {
  return explainOneTerm(DFR, input, params)
}
