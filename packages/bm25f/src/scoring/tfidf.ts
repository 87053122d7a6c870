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
import { bagAverageLength, explainBag } from './bm25.ts'
import { explainIdf, idfFunction, type TfIdfIdf } from './idf.ts'
import { byte315ToFloat, byte4ToInt, floatToByte315, intToByte4 } from './small-float.ts'
import {
  averageFieldLengths,
  checkDocument,
  checkTerm,
  invalidArgument,
  resolveBagFields,
  termLabel,
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

/** @internal Fills in and checks the parameters. */
export function resolveTfIdfParams(params: TfIdfParams = {}): ResolvedTfIdfParams {
  const idf = params.idf ?? 'classic'
  if (idf !== 'classic' && idf !== 'smooth') {
    throw invalidArgument(
      `${NAME} parameter idf must be "classic" or "smooth", got ${JSON.stringify(idf)}`,
    )
  }
  const norms = params.norms ?? 'exact'
  if (norms !== 'exact' && norms !== 'byte315' && norms !== 'byte4') {
    throw invalidArgument(
      `${NAME} parameter norms must be "exact", "byte315" or "byte4", got ${JSON.stringify(norms)}`,
    )
  }
  return {
    idf,
    norms,
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

/** @internal Prepares a whole TF-IDF query. */
export function prepareTfIdfQuery(
  collection: CollectionStats,
  terms: readonly TermStats[],
  params: ResolvedTfIdfParams,
): PreparedQuery {
  averageFieldLengths(collection)
  const bag = resolveBagFields(NAME, collection, params.fields)
  const bagSize = bag.length
  const avgdl = bagAverageLength(collection, bag)
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
  const norm = NORMS[params.norms]
  const excess = NORM_EXCESS[params.norms]
  const total = terms.length

  const prepareTerm = (term: TermStats, idf: number): TermScorer => {
    const boost = term.boost ?? 1
    const weight = idf * idf * boost * queryNorm

    const score = (tfs: ArrayLike<number>, lengths: ArrayLike<number>): number => {
      let tf = 0
      let dl = 0
      for (let i = 0; i < bagSize; i++) {
        const f = bag[i]!
        tf += tfs[f]!
        dl += lengths[f]!
      }
      return tf === 0 ? 0 : Math.sqrt(tf) * norm(dl) * weight
    }

    const upperBound = (maxTfs: ArrayLike<number>, minLengths: ArrayLike<number>): number => {
      let t = 0
      let m = 0
      for (let i = 0; i < bagSize; i++) {
        const f = bag[i]!
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
      if (params.norms !== 'exact') {
        bound = Math.min(bound, Math.sqrt(t) * norm(m > 1 ? m : 1))
      }
      return bound * weight * BOUND_SLACK
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
      const lengthNorm = tf === 0 ? 0 : norm(dl)
      const value = tf === 0 ? 0 : Math.sqrt(tf) * lengthNorm * weight
      const [tfNode, dlNode] = explainBag(collection, bag, tfs, lengths, tf, dl)
      const details: Explanation[] = [
        explanation('sqrt(tf)', Math.sqrt(tf), 'sqrt(Σ_f occ(t,f))', [tfNode]),
        explainIdf(params.idf, N, term.docFreq, idf),
      ]
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
      return { value, explain: explanation(termLabel(term), value, formula, details) }
    }

    return { term, score, upperBound, explain }
  }

  const scorers = terms.map((term, i) => prepareTerm(term, idfs[i]!))
  /** Whether the term occurs in the bag (what coord counts). */
  const inBag = (tfs: ArrayLike<number>): boolean => {
    for (let i = 0; i < bagSize; i++) {
      if (tfs[bag[i]!]! > 0) {
        return true
      }
    }
    return false
  }
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
        if (inBag(tfs[i]!)) {
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
        if (inBag(tfs[i]!)) {
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
