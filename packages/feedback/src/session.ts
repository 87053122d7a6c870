/**
 * A feedback session over a candidate set: a query vector, the documents shown so far and the
 * grades given in rounds of ten. Each round of grades updates the query vector by Rocchio and
 * re-ranks the candidates; documents already shown are never shown again. A session is a pure
 * function of its creation record and its rounds, so it can be rebuilt from a log.
 */
import type { Analyzer } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import type { CandidateSet } from './candidates.ts'
import {
  bordaFuse,
  explainBm25,
  explainTfidf,
  maxNormalisedSum,
  rankOrder,
  rerankScores,
  type FeedbackExplanation,
  type IdfMode,
  type QueryVector,
} from './rerank.ts'
import {
  ERF_DEFAULTS,
  explicitFeedback,
  initialQueryVector,
  PRF_DEFAULTS,
  pseudoFeedback,
  type FeedbackGrade,
} from './rocchio.ts'

/** How a session ranks its candidates. */
export type Ranking =
  /** Lucene TF-IDF under the query vector. */
  | 'tfidf'
  /** Lucene BM25 under the query vector. */
  | 'bm25'
  /** Weighted Borda count of TF-IDF and BM25 (and the first stage, when its order is known). */
  | 'borda'
  /** Max-normalised sum of TF-IDF and BM25 scores (and the first stage's). */
  | 'maxnorm'

/** The settings of a session (all recorded, so that a session can be rebuilt). */
export interface FeedbackSettings {
  /** Defaults to `borda`. */
  readonly ranking?: Ranking
  /** Defaults to `global`. */
  readonly idf?: IdfMode
  /** Pseudo relevance feedback on the query vector before the first round. Defaults to `true`. */
  readonly prf?: boolean
  /** Documents a round shows. Defaults to `10`. */
  readonly roundSize?: number
  /**
   * Weights of the fused rankings: TF-IDF, BM25, and the first stage (the candidates' given order).
   * Defaults to `{ tfidf: 1, bm25: 1, firstStage: 1 }`.
   */
  readonly weights?: { readonly tfidf?: number; readonly bm25?: number; readonly firstStage?: number }
  /** Explicit-feedback weights. Defaults to the thesis's: a 1.0, b 0.3, c 0.1, f 5.0, 30 terms. */
  readonly erf?: { readonly a?: number; readonly b?: number; readonly c?: number; readonly f?: number; readonly maxTerms?: number }
  /** Pseudo-feedback settings. Defaults to the thesis's: 10 documents, α 1.0, β 0.3, 20 terms. */
  readonly prfSettings?: { readonly documents?: number; readonly alpha?: number; readonly beta?: number; readonly maxTerms?: number }
}

/** One round: what was shown and how it was graded. */
export interface FeedbackRound {
  /** Candidate ids shown, best first. */
  readonly shown: readonly string[]
  /** Grades given (ids not graded count as not judged and change nothing). */
  readonly grades: ReadonlyMap<string, FeedbackGrade>
}

/** A document proposed to the user. */
export interface ProposedDocument {
  readonly id: string
  /** 1-based rank among the candidates not shown before. */
  readonly rank: number
  readonly score: number
}

/** The state of a session. */
export interface FeedbackSession {
  readonly query: string
  readonly settings: Required<Pick<FeedbackSettings, 'ranking' | 'idf' | 'prf' | 'roundSize'>>
  readonly candidates: CandidateSet
  /** The current query vector. */
  readonly vector: QueryVector
  /** Rounds completed (graded). */
  readonly rounds: readonly FeedbackRound[]
  /** Every id shown so far. */
  readonly shown: ReadonlySet<string>
  /**
   * The current ranking of every candidate (best first) with its score.
   */
  ranking(): ReadonlyArray<{ readonly id: string; readonly score: number }>
  /**
   * The next documents to show: the best-ranked candidates not shown before.
   * @param size - how many. Defaults to the round size.
   */
  next(size?: number): ProposedDocument[]
  /**
   * Applies a round of grades: the shown documents become shown, the grades update the vector.
   * @param round - the documents shown and their grades
   * @returns the session after the round
   * @throws PubmatchError `INVALID_ARGUMENT` for a graded id that was not shown in the round,
   *   or a shown id that is not a candidate
   */
  grade(round: FeedbackRound): FeedbackSession
  /**
   * Why a candidate scores what it does under the current vector (the re-rankers' trees).
   * @param id - a candidate id
   */
  explain(id: string): { readonly tfidf: FeedbackExplanation; readonly bm25: FeedbackExplanation }
}

/** Options of {@link startSession}. */
export interface StartSessionOptions extends FeedbackSettings {
  /** The query text. */
  readonly query: string
  /** The candidates, in first-stage order (their order is the first-stage ranking for fusion). */
  readonly candidates: CandidateSet
  /** The index's analyzer (query terms are analysed as the documents were). */
  readonly analyzer: Analyzer
}

/**
 * Starts a feedback session: the query vector from the query text (with pseudo feedback from the
 * top documents when `prf` is on), and the first ranking.
 * @param options - see {@link StartSessionOptions}
 */
export function startSession(options: StartSessionOptions): FeedbackSession {
  const settings = {
    ranking: options.ranking ?? 'borda',
    idf: options.idf ?? 'global',
    prf: options.prf ?? true,
    roundSize: options.roundSize ?? 10,
  } as const
  if (!Number.isInteger(settings.roundSize) || settings.roundSize < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `roundSize must be a positive integer, got ${settings.roundSize}`)
  }
  const set = options.candidates
  let vector: QueryVector = initialQueryVector(options.query, options.analyzer, set, settings.idf)
  if (settings.prf && set.size > 0) {
    const top = [...rankBy(set, vector, settings.ranking, settings.idf, options.weights)].slice(0, options.prfSettings?.documents ?? PRF_DEFAULTS.documents)
    vector = pseudoFeedback(vector, set, top, {
      idf: settings.idf,
      scoring: settings.ranking === 'bm25' ? 'bm25' : 'tfidf',
      ...(options.prfSettings?.alpha === undefined ? {} : { alpha: options.prfSettings.alpha }),
      ...(options.prfSettings?.beta === undefined ? {} : { beta: options.prfSettings.beta }),
      ...(options.prfSettings?.maxTerms === undefined ? {} : { maxTerms: options.prfSettings.maxTerms }),
    })
  }
  return makeSession(options, settings, vector, [], new Set())
}

function makeSession(
  options: StartSessionOptions,
  settings: FeedbackSession['settings'],
  vector: QueryVector,
  rounds: readonly FeedbackRound[],
  shown: ReadonlySet<string>,
): FeedbackSession {
  const set = options.candidates
  let cached: Array<{ id: string; score: number }> | undefined
  const ranking = (): Array<{ id: string; score: number }> => {
    if (cached === undefined) {
      const scores = fusedScores(set, vector, settings.ranking, settings.idf, options.weights)
      cached = [...rankOrder(scores)].map((i) => ({ id: set.ids[i]!, score: scores[i]! }))
    }
    return cached
  }
  return {
    query: options.query,
    settings,
    candidates: set,
    vector,
    rounds,
    shown,
    ranking,
    next(size = settings.roundSize) {
      const out: ProposedDocument[] = []
      let rank = 0
      for (const entry of ranking()) {
        if (shown.has(entry.id)) {
          continue
        }
        rank += 1
        out.push({ id: entry.id, rank, score: entry.score })
        if (out.length >= size) {
          break
        }
      }
      return out
    },
    grade(round) {
      const inRound = new Set(round.shown)
      for (const id of round.shown) {
        if (set.indexOf(id) < 0) {
          throw new PubmatchError('INVALID_ARGUMENT', `${id} is not one of the session's candidates`)
        }
      }
      const grades = new Map<number, FeedbackGrade>()
      for (const [id, grade] of round.grades) {
        if (!inRound.has(id)) {
          throw new PubmatchError('INVALID_ARGUMENT', `${id} was graded but not shown in this round`)
        }
        grades.set(set.indexOf(id), grade)
      }
      const erf = options.erf ?? {}
      const next =
        grades.size === 0
          ? vector
          : explicitFeedback(vector, set, grades, {
              idf: settings.idf,
              scoring: settings.ranking === 'bm25' ? 'bm25' : 'tfidf',
              a: erf.a ?? ERF_DEFAULTS.a,
              b: erf.b ?? ERF_DEFAULTS.b,
              c: erf.c ?? ERF_DEFAULTS.c,
              f: erf.f ?? ERF_DEFAULTS.f,
              maxTerms: erf.maxTerms ?? ERF_DEFAULTS.maxTerms,
            })
      return makeSession(options, settings, next, [...rounds, round], new Set([...shown, ...round.shown]))
    },
    explain(id) {
      const i = set.indexOf(id)
      if (i < 0) {
        throw new PubmatchError('NOT_FOUND', `${id} is not one of the session's candidates`)
      }
      return { tfidf: explainTfidf(set, vector, i, settings.idf), bm25: explainBm25(set, vector, i, settings.idf) }
    },
  }
}

function rankBy(set: CandidateSet, vector: QueryVector, ranking: Ranking, idf: IdfMode, weights: FeedbackSettings['weights']): Int32Array {
  return rankOrder(fusedScores(set, vector, ranking, idf, weights))
}

/**
 * The session's ranking scores: one re-ranker's, or the fusion of TF-IDF, BM25 and the first
 * stage (the candidates' given order, scored `n − position` for Borda and `1 − position/n` for
 * max-normalised sums).
 */
function fusedScores(set: CandidateSet, vector: QueryVector, ranking: Ranking, idf: IdfMode, weights: FeedbackSettings['weights']): Float64Array {
  if (ranking === 'tfidf' || ranking === 'bm25') {
    return rerankScores(ranking, set, vector, idf)
  }
  const n = set.size
  const first = Float64Array.from({ length: n }, (_, i) => (n - i) / n)
  const parts = [
    { scores: rerankScores('tfidf', set, vector, idf), weight: weights?.tfidf ?? 1 },
    { scores: rerankScores('bm25', set, vector, idf), weight: weights?.bm25 ?? 1 },
    { scores: first, weight: weights?.firstStage ?? 1 },
  ].filter((part) => part.weight !== 0)
  return ranking === 'borda' ? bordaFuse(parts) : maxNormalisedSum(parts)
}
