/**
 * BM25F exactly as the Best Match S1 text specifies it (Fiorini et al., "Best Match: new relevance
 * search for PubMed", PLoS Biol 2018, S1 Text), for one query term t and one document:
 *
 *   tf    = Σ_f occ(t, f) · w(f) / l(f)        l(f): the field's length in this document
 *   dl    = Σ_f l(f) · w(f)
 *   avgdl = mean of dl over the collection     = Σ_f w(f) · totalLength(f) / N
 *   idf   = 1 + ln(N / (n(t) + 1))
 *   score = tf / (k1 · ((1 − b) + b · dl / avgdl) + tf) · idf
 *
 * k1 = 1.2, b = 0.75, w = 5 for title and MeSH and 1 for any other field. A field of length 0
 * cannot contain the term: it adds 0 to tf (0/0 is taken as 0) and 0 to dl.
 *
 * As written, tf is divided by the field length and the length is then normalised a second time,
 * and tf rarely exceeds w(f), so it hardly saturates with k1 = 1.2 (see the package README).
 */
import { explanation, type Explained, type Explanation } from './explanation.ts'
import { classicIdf, explainIdf } from './idf.ts'
import {
  explainOneTerm,
  termBasics,
  termScorer,
  type PerTermDefinition,
  type TermExplanation,
} from './prepare.ts'
import {
  checkNumber,
  checkSaturation,
  resolveFieldValues,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, occupancyBound, type TermScorer } from './term-scorer.ts'

/** The field weights of the Best Match S1 text: title and MeSH 5, every other field 1. */
export const BEST_MATCH_FIELD_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  title: 5,
  mesh: 5,
})

/** Parameters of {@link bestMatchS1}. */
export interface BestMatchS1Params {
  /** k1, the tf saturation parameter. Defaults to `1.2`. */
  readonly k1?: number
  /** b, the length normalisation parameter, in [0, 1]. Defaults to `0.75`. */
  readonly b?: number
  /**
   * w(f) by field name; names that are not fields of the collection are ignored. Defaults to
   * `{ title: 5, mesh: 5 }` ({@link BEST_MATCH_FIELD_WEIGHTS}).
   */
  readonly fieldWeights?: Readonly<Record<string, number>>
  /** w(f) of the fields `fieldWeights` does not name. Defaults to `1`. */
  readonly defaultFieldWeight?: number
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedBestMatchS1Params {
  readonly k1: number
  readonly b: number
  readonly fieldWeights: Readonly<Record<string, number>>
  readonly defaultFieldWeight: number
}

const NAME = 'bestmatch-s1'
const FORMULA = 'tf / (k1·((1 − b) + b·dl/avgdl) + tf) · idf'

/** @internal Fills in and checks the parameters. */
export function resolveBestMatchS1Params(
  params: BestMatchS1Params = {},
): ResolvedBestMatchS1Params {
  const { k1, b } = checkSaturation(NAME, params)
  return {
    k1,
    b,
    fieldWeights: params.fieldWeights ?? BEST_MATCH_FIELD_WEIGHTS,
    defaultFieldWeight: checkNumber(NAME, 'defaultFieldWeight', params.defaultFieldWeight ?? 1, 0),
  }
}

/** @internal Precomputes the constants of one term. */
export function prepareBestMatchS1(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedBestMatchS1Params,
): TermScorer {
  const { N, n, boost } = termBasics(collection, term)
  const { k1, b } = params
  const weights = resolveFieldValues(
    NAME,
    'fieldWeights',
    collection,
    params.fieldWeights,
    params.defaultFieldWeight,
    0,
  )
  const fieldCount = weights.length
  let weightedTotal = 0
  collection.fields.forEach((field, f) => {
    weightedTotal += weights[f]! * field.totalLength
  })
  const avgdl = weightedTotal / N
  const idf = classicIdf(N, n)
  const weight = idf * boost
  // k1·((1 − b) + b·dl/avgdl) = constant + slope·dl; with avgdl = 0 every dl is 0 as well.
  const constant = k1 * (1 - b)
  const slope = avgdl > 0 ? (k1 * b) / avgdl : 0

  const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
    let tf = 0
    let dl = 0
    for (let f = 0; f < fieldCount; f++) {
      const w = weights[f]!
      const l = lengths[f]!
      const occ = tfs[f]!
      dl += l * w
      if (occ > 0 && l > 0) {
        tf += (occ * w) / l
      }
    }
    return tf === 0 ? 0 : (tf / (constant + slope * dl + tf)) * weight
  }

  const upperBound = (maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number => {
    // score rises with every occ(t,f)/l(f) (at most maxTf/max(minLength, maxTf)) and falls with
    // dl (at least Σ w·minLength), so the two bounds may be combined.
    let tf = 0
    let dl = 0
    for (let f = 0; f < fieldCount; f++) {
      const w = weights[f]!
      dl += minLengths[f]! * w
      tf += w * occupancyBound(maxTfs[f]!, minLengths[f]!)
    }
    // tf/(D + tf) written as 1/(1 + D/tf): every operation is monotone under rounding, so a
    // block's bound never exceeds the list's by an ulp.
    return tf === 0 ? 0 : (1 / (1 + (constant + slope * dl) / tf)) * weight * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    let tf = 0
    let dl = 0
    const tfParts: Explanation[] = []
    const dlParts: Explanation[] = []
    for (let f = 0; f < fieldCount; f++) {
      const name = collection.fields[f]!.name
      const w = weights[f]!
      const l = lengths[f]!
      const occ = tfs[f]!
      dl += l * w
      dlParts.push(
        explanation(name, l * w, 'l(f)·w(f)', [explanation('l(f)', l), explanation('w(f)', w)]),
      )
      if (occ > 0 && l > 0) {
        const part = (occ * w) / l
        tf += part
        tfParts.push(
          explanation(name, part, 'occ(t,f)·w(f)/l(f)', [
            explanation('occ(t,f)', occ),
            explanation('w(f)', w),
            explanation('l(f)', l),
          ]),
        )
      }
    }
    const norm = constant + slope * dl
    return {
      value: tf === 0 ? 0 : (tf / (norm + tf)) * weight,
      formula: FORMULA,
      details: [
        explanation('tf', tf, 'Σ_f occ(t,f)·w(f)/l(f)', tfParts),
        explanation('norm', norm, 'k1·((1 − b) + b·dl/avgdl)', [
          explanation('k1', k1),
          explanation('b', b),
          explanation('dl', dl, 'Σ_f l(f)·w(f)', dlParts),
          explanation('avgdl', avgdl, 'Σ_f w(f)·totalLength(f) / N'),
        ]),
        explainIdf('classic', N, n, idf),
      ],
      boost,
    }
  }

  return termScorer(collection, term, score, upperBound, explain)
}

/** @internal The scorer's definition. */
export const BEST_MATCH_S1: PerTermDefinition<BestMatchS1Params, ResolvedBestMatchS1Params> = {
  name: NAME,
  resolve: resolveBestMatchS1Params,
  prepare: prepareBestMatchS1,
}

/**
 * The Best Match S1 BM25F score of one term in one document, with its explanation.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - k1, b and field weights. Defaults to k1 `1.2`, b `0.75`, title and mesh `5`.
 */
export function bestMatchS1(input: TermScoringInput, params?: BestMatchS1Params): Explained {
  return explainOneTerm(BEST_MATCH_S1, input, params)
}
