/**
 * The standard BM25F of Robertson & Zaragoza ("The Probabilistic Relevance Framework: BM25 and
 * Beyond", FnTIR 2009, §3.5; Zaragoza et al., TREC 2004): per-field length normalisation inside
 * one saturation, for one query term t and one document:
 *
 *   tf~   = Σ_f w(f) · occ(t, f) / (1 − b(f) + b(f) · l(f) / avgl(f))
 *   score = idf · tf~ / (k1 + tf~)                       (× (k1 + 1) with `k1Plus1`)
 *
 * avgl(f) = totalLength(f) / N (documents without the field count as length 0). idf is
 * Robertson–Spärck Jones `ln((N − n + 0.5) / (n + 0.5))` or Lucene's `ln(1 + (N − n + 0.5) / (n + 0.5))`
 * with n = documents containing t in any field. A field that is empty in the whole collection
 * (avgl = 0) cannot contain t and adds nothing.
 */
import { explanation, type Explained, type Explanation } from './explanation.ts'
import { BEST_MATCH_FIELD_WEIGHTS } from './bestmatch-s1.ts'
import { BM25_IDFS, explainIdf, idfFunction, type Bm25Idf } from './idf.ts'
import {
  explainOneTerm,
  termBasics,
  termScorer,
  type PerTermDefinition,
  type TermExplanation,
} from './prepare.ts'
import {
  checkChoice,
  checkNumber,
  checkSaturation,
  isFrozenCollection,
  resolveFieldValues,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, type TermScorer } from './term-scorer.ts'

/** Parameters of {@link bm25f}. */
export interface Bm25fParams {
  /** k1, the tf saturation parameter. Defaults to `1.2`. */
  readonly k1?: number
  /** b, the length normalisation of every field `fieldB` does not name, in [0, 1]. Defaults to `0.75`. */
  readonly b?: number
  /** b(f) by field name, in [0, 1]; names that are not fields are ignored. Defaults to `{}` (all `b`). */
  readonly fieldB?: Readonly<Record<string, number>>
  /**
   * w(f) by field name; names that are not fields are ignored. Defaults to `{ title: 5, mesh: 5 }`
   * (the Best Match weights).
   */
  readonly fieldWeights?: Readonly<Record<string, number>>
  /** w(f) of the fields `fieldWeights` does not name. Defaults to `1`. */
  readonly defaultFieldWeight?: number
  /**
   * `'lucene'`: `ln(1 + (N − n + 0.5) / (n + 0.5))`, never negative; `'rsj'`: `ln((N − n + 0.5) /
   * (n + 0.5))`, negative for terms in more than half the documents. Defaults to `'lucene'`.
   */
  readonly idf?: Bm25Idf
  /**
   * Multiply by (k1 + 1), as the classic formula and Lucene < 8 do (it changes no ranking).
   * Defaults to `false`.
   */
  readonly k1Plus1?: boolean
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedBm25fParams {
  readonly k1: number
  readonly b: number
  readonly fieldB: Readonly<Record<string, number>>
  readonly fieldWeights: Readonly<Record<string, number>>
  readonly defaultFieldWeight: number
  readonly idf: Bm25Idf
  readonly k1Plus1: boolean
}

const NAME = 'bm25f'

/** @internal Fills in and checks the parameters. */
export function resolveBm25fParams(params: Bm25fParams = {}): ResolvedBm25fParams {
  const { k1, b } = checkSaturation(NAME, params)
  return {
    k1,
    b,
    fieldB: params.fieldB ?? {},
    fieldWeights: params.fieldWeights ?? BEST_MATCH_FIELD_WEIGHTS,
    defaultFieldWeight: checkNumber(NAME, 'defaultFieldWeight', params.defaultFieldWeight ?? 1, 0),
    idf: checkChoice(NAME, 'idf', params.idf, BM25_IDFS),
    k1Plus1: params.k1Plus1 ?? false,
  }
}

/** The per-field constants of BM25F, in `collection.fields` order. */
interface FieldNormalisation {
  /** w(f); 0 for a field empty in the whole collection. */
  readonly weights: Float64Array
  /** b(f). */
  readonly bs: Float64Array
  /** 1 − b(f) + b(f)·l/avgl(f) = offset[f] + slope[f]·l. */
  readonly offset: Float64Array
  readonly slope: Float64Array
  /** The upper bound's limit of w·occ/(offset + slope·occ) at occ = ∞: w/slope (∞ without length normalisation). */
  readonly limit: Float64Array
}

/** Resolves the field weights and b(f) and precomputes each field's length normalisation. */
function fieldNormalisation(
  collection: CollectionStats,
  avgl: Float64Array,
  params: ResolvedBm25fParams,
): FieldNormalisation {
  const weights = resolveFieldValues(
    NAME,
    'fieldWeights',
    collection,
    params.fieldWeights,
    params.defaultFieldWeight,
    0,
  )
  const bs = resolveFieldValues(NAME, 'fieldB', collection, params.fieldB, params.b, 0, 1)
  const fieldCount = weights.length
  const offset = new Float64Array(fieldCount)
  const slope = new Float64Array(fieldCount)
  const limit = new Float64Array(fieldCount)
  for (let f = 0; f < fieldCount; f++) {
    // A field empty in the whole collection (avgl = 0) cannot hold the term: weight 0, and a
    // denominator of 1 so that nothing is 0/0.
    if (avgl[f]! > 0) {
      offset[f] = 1 - bs[f]!
      slope[f] = bs[f]! / avgl[f]!
    } else {
      weights[f] = 0
      offset[f] = 1
    }
    limit[f] = slope[f]! > 0 ? weights[f]! / slope[f]! : Number.POSITIVE_INFINITY
  }
  return { weights, bs, offset, slope, limit }
}

/** @internal Precomputes the constants of one term. */
/** Field normalisations per resolved parameters and frozen collection (they cannot change). */
const normalisations = new WeakMap<ResolvedBm25fParams, WeakMap<CollectionStats, FieldNormalisation>>()

/** The field normalisation, made once per parameters for a frozen collection (read only). */
function normalisationOf(
  collection: CollectionStats,
  avgl: Float64Array,
  params: ResolvedBm25fParams,
): FieldNormalisation {
  if (!isFrozenCollection(collection)) {
    return fieldNormalisation(collection, avgl, params)
  }
  let byCollection = normalisations.get(params)
  if (byCollection === undefined) {
    byCollection = new WeakMap()
    normalisations.set(params, byCollection)
  }
  let normalisation = byCollection.get(collection)
  if (normalisation === undefined) {
    normalisation = fieldNormalisation(collection, avgl, params)
    byCollection.set(collection, normalisation)
  }
  return normalisation
}

export function prepareBm25f(
  collection: CollectionStats,
  term: TermStats,
  params: ResolvedBm25fParams,
): TermScorer {
  const { N, n, boost, avgl } = termBasics(collection, term)
  const { k1 } = params
  const { weights, bs, offset, slope, limit } = normalisationOf(collection, avgl, params)
  const fieldCount = weights.length
  const idf = idfFunction(params.idf)(N, n)
  const scale = params.k1Plus1 ? k1 + 1 : 1
  const weight = idf * scale * boost

  const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
    let tf = 0
    for (let f = 0; f < fieldCount; f++) {
      const occ = tfs[f]!
      if (occ > 0) {
        tf += (weights[f]! * occ) / (offset[f]! + slope[f]! * lengths[f]!)
      }
    }
    return tf === 0 ? 0 : (tf / (k1 + tf)) * weight
  }

  const upperBound = (maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number => {
    if (weight <= 0) {
      return 0 // a negative RSJ idf: every score of the term is ≤ 0
    }
    // Each field's w·occ/(1 − b + b·l/avgl) rises with occ once l = max(minLength, occ).
    let tf = 0
    for (let f = 0; f < fieldCount; f++) {
      const t = maxTfs[f]!
      if (t > 0 && weights[f]! > 0) {
        const m = minLengths[f]!
        // The limit at occ = ∞ also caps the finite value, and the saturation is written as
        // 1/(1 + k1/tf), whose every operation is monotone under rounding: a block's bound never
        // exceeds the list's by an ulp.
        tf +=
          t === Number.POSITIVE_INFINITY
            ? limit[f]!
            : Math.min(limit[f]!, (weights[f]! * t) / (offset[f]! + slope[f]! * (t > m ? t : m)))
      }
    }
    return tf === 0 ? 0 : (1 / (1 + k1 / tf)) * weight * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    let tf = 0
    const parts: Explanation[] = []
    for (let f = 0; f < fieldCount; f++) {
      const occ = tfs[f]!
      if (occ > 0) {
        const part = (weights[f]! * occ) / (offset[f]! + slope[f]! * lengths[f]!)
        tf += part
        parts.push(
          explanation(
            collection.fields[f]!.name,
            part,
            'w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))',
            [
              explanation('occ(t,f)', occ),
              explanation('w(f)', weights[f]!),
              explanation('b(f)', bs[f]!),
              explanation('l(f)', lengths[f]!),
              explanation('avgl(f)', avgl[f]!, 'totalLength(f) / N'),
            ],
          ),
        )
      }
    }
    return {
      value: tf === 0 ? 0 : (tf / (k1 + tf)) * weight,
      formula: 'idf · tf~ / (k1 + tf~)',
      details: [
        explanation('tf~', tf, 'Σ_f w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))', parts),
        explanation('k1', k1),
        explainIdf(params.idf, N, n, idf),
      ],
      k1Plus1: params.k1Plus1 ? scale : undefined,
      boost,
    }
  }

  return {
    ...termScorer(collection, term, score, upperBound, explain),
    fieldwise: { k1, weight, weights, offset, slope },
  }
}

/** @internal The scorer's definition. */
export const BM25F: PerTermDefinition<Bm25fParams, ResolvedBm25fParams> = {
  name: NAME,
  resolve: resolveBm25fParams,
  prepare: prepareBm25f,
}

/**
 * The Robertson–Zaragoza BM25F score of one term in one document, with its explanation.
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - k1, b, per-field b and weights, idf variant. Defaults to k1 `1.2`, b `0.75`,
 *   title and mesh weight `5`, Lucene idf.
 */
export function bm25f(input: TermScoringInput, params?: Bm25fParams): Explained {
  return explainOneTerm(BM25F, input, params)
}
