/**
 * TF-IDF as Lucene's practical scoring function (`TFIDFSimilarity` / `ClassicSimilarity`, the
 * default before Lucene 6), over one bag of words made of the chosen fields:
 *
 *   score(q, d) = coord(q, d) · Σ_t sqrt(tf) · idf(t)² · boost(t) · queryNorm(q) · lengthNorm(d)
 *   idf(t)      = 1 + ln(N / (n + 1))                 (Lucene ≥ 7: 1 + ln((N + 1) / (n + 1)))
 *   queryNorm   = 1 / sqrt(Σ_t (idf(t) · boost(t))²)  over every query term, matched or not
 *   coord       = (query terms in d) / (query terms)
 *   lengthNorm  = 1 / sqrt(dl)                        dl: the document's bag length
 *
 * Lucene stores the norm in one byte. Lucene ≤ 6 quantised the value 1/sqrt(dl) to 3 significant
 * bits (`SmallFloat.floatToByte315`, truncating: dl = 2 → 0.625, dl = 3 → 0.5, dl = 5 → 0.4375,
 * the familiar `fieldNorm` values of Lucene's explain output); Lucene ≥ 7 quantises
 * the length itself (`SmallFloat.intToByte4`, exact below 24) and takes 1/sqrt of the decoded length.
 * `norms` picks exact (the default), `'byte315'` or `'byte4'`. Lucene 7 also removed `coord` and
 * `queryNorm` and switched to the `'smooth'` idf; each is an option. Index-time (document and
 * field) boosts, which Lucene ≤ 6 folded into the norm, are not supported. Everything is computed
 * in doubles (Lucene: float32).
 */
import { explanation, type Explained, type Explanation } from './explanation.ts'
import { explainIdf, idfFunction, TFIDF_IDFS, type TfIdfIdf } from './idf.ts'
import { explainBag, resolveBag, termScorer, type Bag, type TermExplanation } from './prepare.ts'
import { byte315ToFloat, byte4ToInt, floatToByte315, intToByte4 } from './small-float.ts'
import {
  averageFieldLengths,
  checkChoice,
  checkTerm,
  type CollectionStats,
  type TermStats,
} from './stats.ts'
import { BOUND_SLACK, checkTermCount, type PreparedQuery, type TermScorer } from './term-scorer.ts'

/** How TF-IDF's length norm 1/sqrt(dl) is stored: exactly, or in Lucene's one-byte encodings. */
export type LengthNormEncoding = 'exact' | 'byte315' | 'byte4'

/** Parameters of {@link tfIdf}. */
export interface TfIdfParams {
  /**
   * `'classic'`: 1 + ln(N / (n + 1)) (Lucene ≤ 6, the Best Match text's idf); `'smooth'`:
   * 1 + ln((N + 1) / (n + 1)) (Lucene ≥ 7). Defaults to `'classic'`.
   */
  readonly idf?: TfIdfIdf
  /**
   * `'exact'`: 1/sqrt(dl); `'byte315'`: Lucene ≤ 6, 1/sqrt(dl) truncated to 3 significant bits;
   * `'byte4'`: Lucene ≥ 7, 1/sqrt of dl truncated to 4 significant bits above 24. Defaults to `'exact'`.
   */
  readonly norms?: LengthNormEncoding
  /** Multiply by coord = matched terms / query terms (Lucene ≤ 6). Defaults to `true`. */
  readonly coord?: boolean
  /** Multiply by queryNorm = 1 / sqrt(Σ_t (idf·boost)²) (Lucene ≤ 6). Defaults to `true`. */
  readonly queryNorm?: boolean
  /** The fields that make up the bag of words. Defaults to all fields of the collection. */
  readonly fields?: readonly string[]
}

/** @internal Parameters with their defaults filled in and checked. */
export interface ResolvedTfIdfParams {
  readonly idf: TfIdfIdf
  readonly norms: LengthNormEncoding
  readonly coord: boolean
  readonly queryNorm: boolean
  readonly fields: readonly string[] | undefined
}

/** Everything {@link tfIdf} reads: TF-IDF is defined over the whole query (coord, queryNorm). */
export interface TfIdfInput {
  /** Collection statistics. */
  readonly collection: CollectionStats
  /** The query terms' statistics. */
  readonly terms: readonly TermStats[]
  /** Per query term, the term's occurrences in each field of the document. */
  readonly tfs: readonly ArrayLike<number>[]
  /** The document's length in each field. */
  readonly lengths: ArrayLike<number>
}

const NAME = 'tfidf'
const NORM_ENCODINGS: readonly [LengthNormEncoding, ...LengthNormEncoding[]] = [
  'exact',
  'byte315',
  'byte4',
]

/** @internal Fills in and checks the parameters. */
export function resolveTfIdfParams(params: TfIdfParams = {}): ResolvedTfIdfParams {
  return {
    idf: checkChoice(NAME, 'idf', params.idf, TFIDF_IDFS),
    norms: checkChoice(NAME, 'norms', params.norms, NORM_ENCODINGS),
    coord: params.coord ?? true,
    queryNorm: params.queryNorm ?? true,
    fields: params.fields,
  }
}

/** Lucene ≥ 7's norm table: 1/sqrt of each decoded byte4 length, as float32. */
let byte4Norms: Float64Array | undefined
function byte4Norm(length: number): number {
  if (byte4Norms === undefined) {
    byte4Norms = new Float64Array(256)
    for (let i = 1; i < 256; i++) {
      byte4Norms[i] = Math.fround(1 / Math.sqrt(byte4ToInt(i)))
    }
  }
  return byte4Norms[intToByte4(length)]!
}

const byte315Norm = (length: number): number =>
  byte315ToFloat(floatToByte315(Math.fround(1 / Math.sqrt(length))))
const exactNorm = (length: number): number => 1 / Math.sqrt(length)

const NORMS = { exact: exactNorm, byte315: byte315Norm, byte4: byte4Norm } as const
const NORM_FORMULAS = {
  exact: '1 / sqrt(dl)',
  byte315: 'byte315ToFloat(floatToByte315(1 / sqrt(dl)))',
  byte4: '1 / sqrt(byte4ToInt(intToByte4(dl)))',
} as const
/**
 * How far a quantised norm can exceed 1/sqrt(dl) for dl ≥ 1: byte315 truncates (≤, up to float32
 * rounding); byte4 decodes a length above 8/9 of the true one, so its norm is below sqrt(9/8)·1/sqrt(dl).
 */
const NORM_EXCESS = {
  exact: 1,
  byte315: 1 + 2 ** -23,
  byte4: Math.sqrt(9 / 8) * (1 + 2 ** -23),
} as const

/** What every term of one TF-IDF query shares. */
interface TfIdfQueryContext {
  readonly collection: CollectionStats
  readonly params: ResolvedTfIdfParams
  readonly bag: Bag
  /** Σ_t (idf(t)·boost(t))² over every query term. */
  readonly squares: number
  /** 1 / sqrt(squares), or 1 (without queryNorm, or when every weight is 0). */
  readonly queryNorm: number
}

/** The idf of each term (checking its statistics) and the query's queryNorm. */
function queryWeights(
  collection: CollectionStats,
  terms: readonly TermStats[],
  params: ResolvedTfIdfParams,
): { readonly idfs: number[]; readonly squares: number; readonly queryNorm: number } {
  const N = collection.docCount
  const idfOf = idfFunction(params.idf)
  const idfs = terms.map((term) => {
    checkTerm(term, collection)
    return idfOf(N, term.docFreq)
  })
  let squares = 0
  terms.forEach((term, i) => {
    const weighted = idfs[i]! * (term.boost ?? 1)
    squares += weighted * weighted
  })
  // As Lucene: a query whose weights are all 0 gets queryNorm 1 instead of ∞.
  const rawQueryNorm = 1 / Math.sqrt(squares)
  const queryNorm = !params.queryNorm || !Number.isFinite(rawQueryNorm) ? 1 : rawQueryNorm
  return { idfs, squares, queryNorm }
}

/** One term of a TF-IDF query: sqrt(tf) · idf² · boost · queryNorm · lengthNorm. */
function prepareTfIdfTerm(context: TfIdfQueryContext, term: TermStats, idf: number): TermScorer {
  const { collection, params, bag, squares, queryNorm } = context
  const { fields, avgdl } = bag
  const bagSize = fields.length
  const norm = NORMS[params.norms]
  const excess = NORM_EXCESS[params.norms]
  const exact = params.norms === 'exact'
  const boost = term.boost ?? 1
  const weight = idf * idf * boost * queryNorm

  const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
    let tf = 0
    let dl = 0
    for (let i = 0; i < bagSize; i++) {
      const f = fields[i]!
      tf += tfs[f]!
      dl += lengths[f]!
    }
    return tf === 0 ? 0 : Math.sqrt(tf) * norm(dl) * weight
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
    // sqrt(tf)/sqrt(max(m, tf)) rises with tf (to 1); quantised norms are at most `excess`
    // times the exact one, and never above the norm of the shortest length.
    const ratio = t === Number.POSITIVE_INFINITY ? 1 : Math.sqrt(t / (t > m ? t : m))
    let bound = ratio * excess
    if (!exact) {
      bound = Math.min(bound, Math.sqrt(t) * norm(m > 1 ? m : 1))
    }
    return bound * weight * BOUND_SLACK
  }

  const explain = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): TermExplanation => {
    const { tf, dl, tfNode, dlNode } = explainBag(collection, bag, tfs, lengths)
    const lengthNorm = tf === 0 ? 0 : norm(dl)
    const details: Explanation[] = [
      explanation('sqrt(tf)', Math.sqrt(tf), 'sqrt(Σ_f occ(t,f))', [tfNode]),
      explainIdf(params.idf, collection.docCount, term.docFreq, idf),
    ]
    // boost and queryNorm come before lengthNorm, so they are not trailing factors
    let formula = 'sqrt(tf) · idf²'
    if (boost !== 1) {
      details.push(explanation('boost', boost))
      formula += ' · boost'
    }
    if (params.queryNorm) {
      details.push(
        explanation('queryNorm', queryNorm, '1 / sqrt(Σ_t (idf(t)·boost(t))²)', [
          explanation('Σ_t (idf(t)·boost(t))²', squares),
        ]),
      )
      formula += ' · queryNorm'
    }
    details.push(
      explanation('lengthNorm', lengthNorm, NORM_FORMULAS[params.norms], [
        dlNode,
        explanation('avgdl', avgdl, 'Σ_f totalLength(f) / N'),
      ]),
    )
    formula += ' · lengthNorm'
    return { value: tf === 0 ? 0 : Math.sqrt(tf) * lengthNorm * weight, formula, details }
  }

  return termScorer(collection, term, score, upperBound, explain)
}

/** Whether the term occurs in the bag (what coord counts). */
function inBag(fields: Int32Array, tfs: ArrayLike<number>): boolean {
  for (let i = 0; i < fields.length; i++) {
    if (tfs[fields[i]!]! > 0) {
      return true
    }
  }
  return false
}

/** The query over its term scorers: their sum, times coord when `params.coord`. */
function tfIdfQuery(
  scorers: readonly TermScorer[],
  bag: Bag,
  params: ResolvedTfIdfParams,
): PreparedQuery {
  const { fields } = bag
  const total = scorers.length
  const combine = params.coord
    ? (sum: number, matched: number): number => sum * (matched / total)
    : (sum: number): number => sum

  return {
    name: NAME,
    terms: scorers,
    additive: !params.coord,
    combine,
    score: (tfs, lengths) => {
      let sum = 0
      let matched = 0
      for (let i = 0; i < total; i++) {
        sum += scorers[i]!.score(tfs[i]!, lengths)
        if (inBag(fields, tfs[i]!)) {
          matched++
        }
      }
      return combine(sum, matched)
    },
    explain: (tfs, lengths) => {
      checkTermCount(NAME, scorers, tfs)
      let sum = 0
      let matched = 0
      const details: Explanation[] = []
      for (let i = 0; i < total; i++) {
        const part = scorers[i]!.explain(tfs[i]!, lengths)
        sum += part.value
        if (inBag(fields, tfs[i]!)) {
          matched++
          details.push(part.explain)
        }
      }
      const value = combine(sum, matched)
      if (!params.coord) {
        return { value, explain: explanation(NAME, value, 'Σ_t score(t)', details) }
      }
      details.push(
        explanation('coord', matched / total, 'matched / terms', [
          explanation('matched', matched),
          explanation('terms', total),
        ]),
      )
      return { value, explain: explanation(NAME, value, 'coord · Σ_t score(t)', details) }
    },
  }
}

/** @internal Prepares a whole TF-IDF query. */
export function prepareTfIdfQuery(
  collection: CollectionStats,
  terms: readonly TermStats[],
  params: ResolvedTfIdfParams,
): PreparedQuery {
  averageFieldLengths(collection)
  const bag = resolveBag(NAME, collection, params.fields)
  const { idfs, squares, queryNorm } = queryWeights(collection, terms, params)
  const context: TfIdfQueryContext = { collection, params, bag, squares, queryNorm }
  return tfIdfQuery(
    terms.map((term, i) => prepareTfIdfTerm(context, term, idfs[i]!)),
    bag,
    params,
  )
}

/**
 * The TF-IDF score of a document for a whole query (Lucene's practical scoring function), with
 * its explanation.
 * @param input - collection statistics, the query terms' statistics, the document's per-term
 *   per-field tfs and its per-field lengths
 * @param params - idf variant, norm encoding, coord, queryNorm, the bag's fields. Defaults to the
 *   classic idf, exact norms, coord and queryNorm on, all fields.
 */
export function tfIdf(input: TfIdfInput, params?: TfIdfParams): Explained {
  return prepareTfIdfQuery(input.collection, input.terms, resolveTfIdfParams(params)).explain(
    input.tfs,
    input.lengths,
  )
}
