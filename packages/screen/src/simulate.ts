/**
 * Replays a labelled review as ASReview's simulation mode does: the prior knowledge is one
 * included and one excluded record drawn with a seeded generator (ASReview's default
 * `--n-prior-included 1 --n-prior-excluded 1`), or given; then, one decision at a time, the
 * ranker learns from every decision so far and the highest-scored unscreened record is screened
 * next (its true label is the decision; ties go to the earlier record). It stops once every
 * relevant record is found (ASReview's default stop), so the metrics pad the rest with zeros.
 */
import { performance } from 'node:perf_hooks'
import { PubmatchError } from '@pubmatch/core'
import { createRandom } from '@pubmatch/eval/internal'
import type { FeedbackGrade } from '@pubmatch/feedback'
import { screeningMetrics, type ScreeningMetrics } from './metrics.ts'
import { createRanker, type RankerOptions } from './ranker.ts'
import type { ScreeningDataset } from './records.ts'

/** Options of {@link simulateScreening}. */
export interface SimulationOptions extends RankerOptions {
  /** The seed of the prior draw. Defaults to `0`. */
  readonly seed?: number
  /** Positions of the prior records (overrides the seeded draw). */
  readonly priors?: readonly number[]
  /** Retrain after this many decisions. Defaults to `1`. */
  readonly batch?: number
  /** Stop after this many decisions (after the priors). Defaults to: when every relevant record is found. */
  readonly maxDecisions?: number
}

/** One simulation's result. */
export interface SimulationResult {
  readonly review: string
  readonly ranker: string
  readonly seed: number
  /** Positions (in the dataset's records) of the priors. */
  readonly priors: number[]
  /** Positions in screening order after the priors. */
  readonly order: number[]
  /** Their labels. */
  readonly labels: number[]
  readonly metrics: ScreeningMetrics
  /** Milliseconds of each retrain-and-score, in order. */
  readonly retrainMs: number[]
}

/**
 * Draws the priors as the benchmark gives them to both tools: one included and one excluded
 * record, uniformly from a seeded generator.
 * @param labels - the records' labels
 * @param seed - the seed
 */
export function drawPriors(labels: readonly number[], seed: number): [number, number] {
  const random = createRandom(seed)
  const included = labels.flatMap((l, i) => (l === 1 ? [i] : []))
  const excluded = labels.flatMap((l, i) => (l === 0 ? [i] : []))
  if (included.length === 0 || excluded.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `a simulation needs an included and an excluded record (got ${included.length} and ${excluded.length})`)
  }
  return [included[random() % included.length]!, excluded[random() % excluded.length]!]
}

/**
 * Replays a labelled review.
 * @param dataset - the review
 * @param options - see {@link SimulationOptions}
 */
export function simulateScreening(dataset: ScreeningDataset, options: SimulationOptions = {}): SimulationResult {
  const seed = options.seed ?? 0
  const truth = dataset.records.map((r) => r.label)
  const priors = options.priors ? [...options.priors] : drawPriors(truth, seed)
  for (const p of priors) {
    if (!Number.isInteger(p) || p < 0 || p >= truth.length) {
      throw new PubmatchError('INVALID_ARGUMENT', `prior ${p} is not a record position (0–${truth.length - 1})`)
    }
  }
  const batch = options.batch ?? 1
  const ranker = createRanker(
    dataset.records.map((r) => r.article),
    options,
  )
  const decisions = new Map<number, FeedbackGrade>()
  const grade = (i: number): FeedbackGrade => (truth[i] === 1 ? 'relevant' : 'non-relevant')
  for (const p of priors) {
    decisions.set(p, grade(p))
  }
  const relevant = truth.reduce<number>((a, b) => a + b, 0)
  let found = priors.filter((p) => truth[p] === 1).length
  const order: number[] = []
  const labels: number[] = []
  const retrainMs: number[] = []
  const max = options.maxDecisions ?? Infinity
  while (found < relevant && decisions.size < truth.length && order.length < max) {
    const t0 = performance.now()
    const scores = ranker.score(decisions)
    retrainMs.push(performance.now() - t0)
    const ranked: number[] = []
    for (let i = 0; i < scores.length; i++) {
      if (!decisions.has(i)) {
        ranked.push(i)
      }
    }
    ranked.sort((a, b) => scores[b]! - scores[a]! || a - b)
    for (const i of ranked.slice(0, batch)) {
      decisions.set(i, grade(i))
      order.push(i)
      labels.push(truth[i]!)
      found += truth[i]!
      if (found === relevant || order.length >= max) {
        break
      }
    }
  }
  return {
    review: dataset.name,
    ranker: ranker.name,
    seed,
    priors,
    order,
    labels,
    metrics: screeningMetrics(labels, truth.length - priors.length),
    retrainMs,
  }
}
