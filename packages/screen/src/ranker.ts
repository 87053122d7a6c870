/**
 * Rankers of a review's candidates that learn from the reviewer's decisions. Three models, chosen
 * by measurement (`tools/bench-screen`, README):
 *
 * - `rocchio`: Niesink's graded explicit relevance feedback (`@pubmatch/feedback`'s
 *   `explicitFeedback`: `a·q + b·C(relevant) + f·b·C(highly relevant) − c·C(non-relevant)`, 30
 *   terms) over the candidates' title, abstract and MeSH words, ranked by Lucene TF-IDF;
 * - `logistic`: logistic regression (class-balanced, L2) over TF-IDF vectors of the candidates'
 *   words, optional bigrams and MeSH headings ({@link buildFeatures}, {@link fitLogistic});
 * - `hybrid`: the sum of both, each first turned into ranks (reciprocal-rank fusion, k = 60).
 *
 * Before there is a decision of both kinds the learned model cannot be fitted: the ranking is then
 * the question's BM25 over title and abstract (`@pubmatch/feedback`'s re-ranker), moved by the
 * Rocchio feedback of whatever decisions there are.
 */
import { biomedicalAnalyzer, type Analyzer } from '@pubmatch/analysis'
import { abstractText, PubmatchError, type Article } from '@pubmatch/core'
import { explicitFeedback, initialQueryVector, rerankScores, textCandidates, type CandidateSet, type FeedbackGrade, type QueryVector } from '@pubmatch/feedback'
import { buildFeatures, foldSingletons, type FeatureMatrix, type FeatureOptions, type FoldedRows } from './features.ts'
import { decision, fitLogistic, type LogisticModel } from './logistic.ts'

/** The rankers. */
export const RANKERS = ['logistic', 'rocchio', 'hybrid'] as const
/** A ranker's name. */
export type RankerName = (typeof RANKERS)[number]

/** Options of {@link createRanker}. */
export interface RankerOptions {
  /** Defaults to `logistic`. */
  readonly ranker?: RankerName
  /** The review's question or Boolean query text, the ranking before any decision. */
  readonly question?: string
  /** Feature options of the logistic model (word bigrams are on unless `bigrams: false`). */
  readonly features?: FeatureOptions
  /** L2 strength of the logistic model. Defaults to `0.01`. */
  readonly lambda?: number
  /**
   * When set, the L2 strength is `lambdaPerDecision / n` after `n` decisions (a fixed C of an SVM
   * over summed, rather than averaged, sample losses), but at least `lambda`.
   */
  readonly lambdaPerDecision?: number
  /** The relevant class's share of the sample weight (see `fitLogistic`). Defaults to `0.5`. */
  readonly positiveShare?: number
  /** The learned model's loss. Defaults to `logistic`. */
  readonly loss?: 'logistic' | 'squared-hinge'
  /** The candidates' features when already built ({@link screeningFeatures} with the same options). */
  readonly matrix?: FeatureMatrix
  /** The analyzer. Defaults to `biomedicalAnalyzer()`. */
  readonly analyzer?: Analyzer
}

/** A ranker over one review's candidates. */
export interface ScreeningRanker {
  readonly size: number
  readonly name: RankerName
  /** The learned model's share of sample weight for the relevant class (see `fitLogistic`). */
  readonly positiveShare: number
  /**
   * Scores every candidate given the decisions so far (candidate position → grade); higher is
   * more likely relevant. Learns from the decisions each call (warm-starting the logistic model).
   */
  score(decisions: ReadonlyMap<number, FeedbackGrade>): Float64Array
}

/**
 * The feature options the learned models use: word bigrams unless `bigrams: false`, then
 * `options.features`; the analyzer is left out (it is `options.analyzer`).
 */
export function screeningFeatureOptions(options: RankerOptions = {}): Omit<FeatureOptions, 'analyzer'> {
  const { analyzer: _analyzer, ...rest } = options.features ?? {}
  return { bigrams: true, ...rest }
}

/**
 * The candidates' feature matrix as the learned models build it.
 * @param articles - the candidates
 * @param options - see {@link RankerOptions}
 */
export function screeningFeatures(articles: readonly Article[], options: RankerOptions = {}): FeatureMatrix {
  const analyzer = options.features?.analyzer ?? options.analyzer
  return buildFeatures(articles, { ...(analyzer ? { analyzer } : {}), ...screeningFeatureOptions(options) })
}

/** Ranks with ties broken by candidate position: the reciprocal-rank weights `1/(k + rank)`. */
function reciprocalRanks(scores: Float64Array, k = 60): Float64Array {
  const order = Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b)
  const out = new Float64Array(scores.length)
  for (const [rank, i] of order.entries()) {
    out[i] = 1 / (k + rank + 1)
  }
  return out
}

/**
 * A ranker over a review's candidates.
 * @param articles - the candidates
 * @param options - see {@link RankerOptions}
 */
export function createRanker(articles: readonly Article[], options: RankerOptions = {}): ScreeningRanker {
  const name = options.ranker ?? 'logistic'
  if (!RANKERS.includes(name)) {
    throw new PubmatchError('INVALID_ARGUMENT', `unknown ranker "${String(name)}"; expected ${RANKERS.join(', ')}`)
  }
  const analyzer = options.analyzer ?? biomedicalAnalyzer()
  let set: CandidateSet | undefined
  const candidateSet = (): CandidateSet =>
    (set ??= textCandidates(
      articles.map((a, i) => ({ id: String(i), title: a.title, abstract: `${abstractText(a)} ${a.mesh.map((m) => m.descriptorName).join(' ')}` })),
      { analyzer },
    ))
  // the learned models' features are built up front: creating the ranker is the one slow step
  const matrix: FeatureMatrix | undefined = name === 'rocchio' ? undefined : (options.matrix ?? screeningFeatures(articles, options))
  if (matrix !== undefined && matrix.rows.length !== articles.length) {
    throw new PubmatchError('INVALID_ARGUMENT', `a feature matrix of ${matrix.rows.length} rows for ${articles.length} candidates`)
  }
  // the model is fitted on the rows with each record's own features folded into one: the same
  // scores, fewer entries and features to go through (`foldSingletons`)
  let folded: FoldedRows | undefined
  const features = (): FoldedRows => (folded ??= foldSingletons(matrix!))
  // the question's vector needs the candidates' term statistics: built when first needed
  let questionVector: QueryVector | undefined
  const questionOf = (): QueryVector | undefined =>
    options.question?.trim() ? (questionVector ??= initialQueryVector(options.question, analyzer, candidateSet(), 'local')) : undefined
  let model: LogisticModel | undefined

  const rocchioScores = (decisions: ReadonlyMap<number, FeedbackGrade>): Float64Array => {
    const question = questionOf()
    const start = question ?? new Map<string, number>()
    if (decisions.size === 0 && question === undefined) {
      return new Float64Array(articles.length)
    }
    const vector = decisions.size === 0 ? start : explicitFeedback(start, candidateSet(), decisions, { idf: 'local' })
    return rerankScores(decisions.size === 0 ? 'bm25' : 'tfidf', candidateSet(), vector, 'local')
  }
  const logisticScores = (decisions: ReadonlyMap<number, FeedbackGrade>): Float64Array | undefined => {
    const rows = []
    const labels: number[] = []
    for (const [i, grade] of decisions) {
      rows.push(features().rows[i]!)
      labels.push(grade === 'non-relevant' ? 0 : 1)
    }
    if (!labels.includes(0) || !labels.includes(1)) {
      return undefined
    }
    const base = options.lambda ?? 0.01
    const lambda = options.lambdaPerDecision === undefined ? base : Math.max(base, options.lambdaPerDecision / labels.length)
    model = fitLogistic(rows, labels, features().features, {
      lambda,
      ...(options.positiveShare === undefined ? {} : { positiveShare: options.positiveShare }),
      ...(options.loss === undefined ? {} : { loss: options.loss }),
      ...(model ? { start: model, iterations: 60 } : {}),
    })
    const m = model
    return Float64Array.from(features().rows, (row) => decision(m, row))
  }
  return {
    size: articles.length,
    name,
    positiveShare: options.positiveShare ?? 0.5,
    score(decisions) {
      for (const i of decisions.keys()) {
        if (!Number.isInteger(i) || i < 0 || i >= articles.length) {
          throw new PubmatchError('INVALID_ARGUMENT', `decision on candidate ${i}, but there are ${articles.length} candidates`)
        }
      }
      if (name === 'rocchio') {
        return rocchioScores(decisions)
      }
      const learned = logisticScores(decisions)
      if (learned === undefined) {
        return rocchioScores(decisions)
      }
      if (name === 'logistic') {
        return learned
      }
      const a = reciprocalRanks(learned)
      const b = reciprocalRanks(rocchioScores(decisions))
      return a.map((x, i) => x + b[i]!)
    },
  }
}
