/**
 * The re-rankers of a candidate set under a weighted query vector (Niesink 2017, as Lucene 6
 * scores): Lucene's practical TF-IDF scoring function and Lucene's BM25, each with the query
 * vector's weights as term boosts, with IDF from the whole collection or from the candidates
 * alone; and the two fusions of their rankings (weighted Borda count, max-normalised score sum).
 * Pure functions of the candidate set and the query; `explain*` give the tree of one score.
 */
import { bm25LengthNorm, classicIdf, lucene6Bm25, luceneIdf } from '@pubmatch/bm25f/internal'
import { PubmatchError } from '@pubmatch/core'
import type { CandidateSet } from './candidates.ts'

/** Analysed term → weight (a Lucene term boost). */
export type QueryVector = ReadonlyMap<string, number>

/** Where IDF comes from: the whole collection (`global`) or the candidate set alone (`local`). */
export type IdfMode = 'global' | 'local'

/** The re-rankers. */
export type RerankerName = 'tfidf' | 'bm25'

/** A score's explanation: `value`, computed from `details` as `formula` says. */
export interface FeedbackExplanation {
  readonly label: string
  readonly value: number
  readonly formula?: string
  readonly details: readonly FeedbackExplanation[]
}

/** BM25's parameters. */
export interface Bm25Params {
  /** Defaults to `1.2`. */
  readonly k1?: number
  /** Defaults to `0.75`. */
  readonly b?: number
}

function stats(set: CandidateSet, term: string, idf: IdfMode): { n: number; df: number } {
  return idf === 'local' ? { n: set.size, df: set.localDocFreq(term) } : { n: set.collectionSize, df: set.globalDocFreq(term) }
}

/**
 * Lucene's practical scoring function (ClassicSimilarity) for every candidate:
 * `coord(q,d) · queryNorm(q) · Σ_t √tf(t,d) · idf(t)² · boost(t) · 1/√|d|`, with
 * `idf = 1 + ln(N/(df+1))`, `coord` the share of query terms the document holds, and
 * `queryNorm = 1/√(Σ_t (idf(t)·boost(t))²)`. Lengths are exact (Lucene rounds them to a byte).
 * @param set - the candidates
 * @param query - term weights (boosts)
 * @param idf - IDF source. Defaults to `global`.
 */
export function tfidfScores(set: CandidateSet, query: QueryVector, idf: IdfMode = 'global'): Float64Array {
  const scores = new Float64Array(set.size)
  const overlap = new Float64Array(set.size)
  let sumOfSquares = 0
  for (const [term, boost] of query) {
    const { n, df } = stats(set, term, idf)
    const w = classicIdf(n, df)
    sumOfSquares += (w * boost) ** 2
    const tfs = set.tf(term)
    const termWeight = w * w * boost
    for (let i = 0; i < set.size; i++) {
      const f = tfs[i]!
      if (f > 0) {
        scores[i]! += Math.sqrt(f) * termWeight / Math.sqrt(set.lengths[i]!)
        overlap[i]! += 1
      }
    }
  }
  const queryNorm = sumOfSquares > 0 ? 1 / Math.sqrt(sumOfSquares) : 0
  const terms = query.size
  for (let i = 0; i < set.size; i++) {
    scores[i] = scores[i]! * queryNorm * (terms === 0 ? 0 : overlap[i]! / terms)
  }
  return scores
}

/**
 * Lucene 6's BM25 for every candidate: `Σ_t boost(t) · idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))`
 * with `idf = ln(1 + (N − df + 0.5)/(df + 0.5))`. `avgdl` is the candidates' mean length.
 * @param set - the candidates
 * @param query - term weights (boosts)
 * @param idf - IDF source. Defaults to `global`.
 * @param params - k1 and b
 */
export function bm25Scores(set: CandidateSet, query: QueryVector, idf: IdfMode = 'global', params: Bm25Params = {}): Float64Array {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  const scores = new Float64Array(set.size)
  const norms = new Float64Array(set.size)
  for (let i = 0; i < set.size; i++) {
    norms[i] = bm25LengthNorm(k1, b, (b * set.lengths[i]!) / (set.avgLength || 1))
  }
  for (const [term, boost] of query) {
    const { n, df } = stats(set, term, idf)
    const w = luceneIdf(n, df) * boost
    const tfs = set.tf(term)
    for (let i = 0; i < set.size; i++) {
      const f = tfs[i]!
      if (f > 0) {
        scores[i]! += lucene6Bm25(w, f, k1, norms[i]!)
      }
    }
  }
  return scores
}

/**
 * The scores of a re-ranker.
 * @param name - `tfidf` or `bm25`
 * @param set - the candidates
 * @param query - term weights
 * @param idf - IDF source
 */
export function rerankScores(name: RerankerName, set: CandidateSet, query: QueryVector, idf: IdfMode = 'global'): Float64Array {
  return name === 'tfidf' ? tfidfScores(set, query, idf) : bm25Scores(set, query, idf)
}

/**
 * The tree of one candidate's TF-IDF score.
 * @param set - the candidates
 * @param query - term weights
 * @param i - the candidate
 * @param idf - IDF source
 */
export function explainTfidf(set: CandidateSet, query: QueryVector, i: number, idf: IdfMode = 'global'): FeedbackExplanation {
  let sumOfSquares = 0
  let overlap = 0
  const details: FeedbackExplanation[] = []
  let sum = 0
  for (const [term, boost] of query) {
    const { n, df } = stats(set, term, idf)
    const w = classicIdf(n, df)
    sumOfSquares += (w * boost) ** 2
    const f = set.tf(term)[i]!
    if (f === 0) {
      continue
    }
    overlap += 1
    const value = (Math.sqrt(f) * w * w * boost) / Math.sqrt(set.lengths[i]!)
    sum += value
    details.push({
      label: term,
      value,
      formula: '√tf · idf² · boost / √|d|',
      details: [
        { label: 'tf', value: f, details: [] },
        { label: 'idf', value: w, formula: '1 + ln(N / (df + 1))', details: [{ label: 'N', value: n, details: [] }, { label: 'df', value: df, details: [] }] },
        { label: 'boost', value: boost, details: [] },
        { label: '|d|', value: set.lengths[i]!, details: [] },
      ],
    })
  }
  const queryNorm = sumOfSquares > 0 ? 1 / Math.sqrt(sumOfSquares) : 0
  const coord = query.size === 0 ? 0 : overlap / query.size
  return {
    label: 'tfidf',
    value: sum * queryNorm * coord,
    formula: 'coord · queryNorm · Σ_t …',
    details: [{ label: 'coord', value: coord, details: [] }, { label: 'queryNorm', value: queryNorm, details: [] }, ...details],
  }
}

/**
 * The tree of one candidate's BM25 score.
 * @param set - the candidates
 * @param query - term weights
 * @param i - the candidate
 * @param idf - IDF source
 * @param params - k1 and b
 */
export function explainBm25(set: CandidateSet, query: QueryVector, i: number, idf: IdfMode = 'global', params: Bm25Params = {}): FeedbackExplanation {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  const details: FeedbackExplanation[] = []
  let sum = 0
  const norm = bm25LengthNorm(k1, b, (b * set.lengths[i]!) / (set.avgLength || 1))
  for (const [term, boost] of query) {
    const f = set.tf(term)[i]!
    if (f === 0) {
      continue
    }
    const { n, df } = stats(set, term, idf)
    const w = luceneIdf(n, df)
    const value = lucene6Bm25(boost * w, f, k1, norm)
    sum += value
    details.push({
      label: term,
      value,
      formula: 'boost · idf · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))',
      details: [
        { label: 'boost', value: boost, details: [] },
        { label: 'idf', value: w, formula: 'ln(1 + (N − df + 0.5)/(df + 0.5))', details: [{ label: 'N', value: n, details: [] }, { label: 'df', value: df, details: [] }] },
        { label: 'tf', value: f, details: [] },
        { label: '|d|', value: set.lengths[i]!, details: [] },
        { label: 'avgdl', value: set.avgLength, details: [] },
      ],
    })
  }
  return { label: 'bm25', value: sum, formula: 'Σ_t …', details }
}

/** One ranking to fuse: candidate scores (higher is better) and its weight. */
export interface WeightedScores {
  readonly scores: Float64Array
  /** Defaults to `1`. */
  readonly weight?: number
}

/**
 * Weighted Borda count: in each ranking (by score, ties by candidate order), the candidate at rank
 * `r` (1-based) of `n` gets `weight · (n − r + 1)` points; candidates are ordered by their total.
 * @param rankings - the rankings to fuse, all over the same candidates
 * @returns each candidate's points
 */
export function bordaFuse(rankings: readonly WeightedScores[]): Float64Array {
  const n = checkSameLength(rankings)
  const points = new Float64Array(n)
  for (const ranking of rankings) {
    const weight = ranking.weight ?? 1
    const order = rankOrder(ranking.scores)
    for (let r = 0; r < n; r++) {
      points[order[r]!]! += weight * (n - r)
    }
  }
  return points
}

/**
 * Max-normalised score addition: each ranking's scores divided by its largest score (a ranking
 * whose largest score is not positive adds nothing), weighted and summed.
 * @param rankings - the rankings to fuse, all over the same candidates
 */
export function maxNormalisedSum(rankings: readonly WeightedScores[]): Float64Array {
  const n = checkSameLength(rankings)
  const out = new Float64Array(n)
  for (const ranking of rankings) {
    let max = 0
    for (const s of ranking.scores) {
      max = Math.max(max, s)
    }
    if (max <= 0) {
      continue
    }
    const factor = (ranking.weight ?? 1) / max
    for (let i = 0; i < n; i++) {
      out[i]! += ranking.scores[i]! * factor
    }
  }
  return out
}

/**
 * Candidate positions by score, best first (ties: earlier candidate first).
 * @param scores - a score per candidate
 */
export function rankOrder(scores: Float64Array): Int32Array {
  const order = Int32Array.from({ length: scores.length }, (_, i) => i)
  order.sort((a, b) => scores[b]! - scores[a]! || a - b)
  return order
}

function checkSameLength(rankings: readonly WeightedScores[]): number {
  if (rankings.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'nothing to fuse')
  }
  const n = rankings[0]!.scores.length
  if (rankings.some((r) => r.scores.length !== n)) {
    throw new PubmatchError('INVALID_ARGUMENT', 'the rankings to fuse cover different numbers of candidates')
  }
  return n
}
