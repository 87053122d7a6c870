/**
 * Pool Adjacent Violators: the maximum-likelihood monotone (non-decreasing) estimate of
 * P(relevant | score) from labelled points (Yeganova et al. 2021 calibrate each section's BM25
 * this way). Points with the same score are pooled first (weighted mean, summed weights); then
 * neighbouring blocks that violate the order are merged until the means increase. The fitted
 * function interpolates linearly between the pooled scores and is constant outside the seen
 * range, as scikit-learn's `IsotonicRegression(out_of_bounds='clip')` predicts.
 */
import { PubmatchError } from '@pubmatch/core'

/** A labelled observation. */
export interface PavPoint {
  /** The score (e.g. a section's BM25 for a query token). */
  readonly x: number
  /** The label in [0, 1] (1 relevant, 0 not), or a mean of labels. */
  readonly y: number
  /** Its weight. Defaults to `1`. */
  readonly w?: number
}

/** A fitted monotone function, as saved to JSON. */
export interface PavFunction {
  /** Distinct scores, increasing. */
  readonly xs: readonly number[]
  /** The fitted value at each, non-decreasing. */
  readonly ys: readonly number[]
  /** Points fitted and their total weight. */
  readonly points: number
  readonly weight: number
  /** The weighted mean label (the prior). */
  readonly prior: number
}

/**
 * Fits the isotonic (non-decreasing) regression of `y` on `x` with weights.
 * @param points - the labelled points (any order)
 * @throws PubmatchError `INVALID_ARGUMENT` for no points, a non-finite value or a weight ≤ 0
 */
export function fitPav(points: readonly PavPoint[]): PavFunction {
  if (points.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'PAV needs at least one point')
  }
  // pool equal scores: sum of weights, weighted sum of labels
  const byX = new Map<number, [number, number]>()
  let total = 0
  let weighted = 0
  for (const point of points) {
    const w = point.w ?? 1
    if (!Number.isFinite(point.x) || !Number.isFinite(point.y) || !(w > 0)) {
      throw new PubmatchError('INVALID_ARGUMENT', `PAV points need finite x and y and a weight > 0, got x ${point.x}, y ${point.y}, w ${w}`)
    }
    const entry = byX.get(point.x)
    if (entry === undefined) {
      byX.set(point.x, [w, w * point.y])
    } else {
      entry[0] += w
      entry[1] += w * point.y
    }
    total += w
    weighted += w * point.y
  }
  const xs = [...byX.keys()].sort((a, b) => a - b)
  // blocks on a stack: [first index, last index, weight, weighted label sum]
  const starts: number[] = []
  const ends: number[] = []
  const weights: number[] = []
  const sums: number[] = []
  for (let i = 0; i < xs.length; i++) {
    const [w, s] = byX.get(xs[i]!)!
    starts.push(i)
    ends.push(i)
    weights.push(w)
    sums.push(s)
    // merge while the last block's mean is below the one before (a violation)
    while (weights.length > 1) {
      const last = weights.length - 1
      if (sums[last - 1]! / weights[last - 1]! <= sums[last]! / weights[last]!) {
        break
      }
      weights[last - 1]! += weights[last]!
      sums[last - 1]! += sums[last]!
      ends[last - 1] = ends[last]!
      starts.pop()
      ends.pop()
      weights.pop()
      sums.pop()
    }
  }
  const ys = new Array<number>(xs.length)
  for (let b = 0; b < weights.length; b++) {
    const mean = sums[b]! / weights[b]!
    for (let i = starts[b]!; i <= ends[b]!; i++) {
      ys[i] = mean
    }
  }
  return { xs, ys, points: points.length, weight: total, prior: weighted / total }
}

/**
 * The fitted value at a score: linear between the pooled scores, constant beyond them.
 * @param f - a fitted function
 * @param x - a score
 */
export function evaluatePav(f: PavFunction, x: number): number {
  const { xs, ys } = f
  if (xs.length === 0) {
    return f.prior
  }
  if (x <= xs[0]!) {
    return ys[0]!
  }
  const last = xs.length - 1
  if (x >= xs[last]!) {
    return ys[last]!
  }
  // the last pooled score ≤ x
  let lo = 0
  let hi = last
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (xs[mid]! <= x) {
      lo = mid
    } else {
      hi = mid
    }
  }
  const x0 = xs[lo]!
  const x1 = xs[hi]!
  const t = (x - x0) / (x1 - x0)
  return ys[lo]! + t * (ys[hi]! - ys[lo]!)
}

/**
 * The log-odds ratio of a probability against the prior: `ln[(p/(1 − p)) / (prior/(1 − prior))]`,
 * with `p` kept within `[epsilon, 1 − epsilon]` so that a block of all-negative or all-positive
 * points gives a large finite value, not ±∞.
 * @param p - a probability
 * @param prior - the prior probability
 * @param epsilon - the bound of p. Defaults to `1e-6`.
 */
export function logOdds(p: number, prior: number, epsilon = 1e-6): number {
  const q = Math.min(1 - epsilon, Math.max(epsilon, p))
  const r = Math.min(1 - epsilon, Math.max(epsilon, prior))
  return Math.log(q / (1 - q)) - Math.log(r / (1 - r))
}

/**
 * Checks a function read from JSON.
 * @param value - the parsed JSON
 * @param where - for messages
 * @throws PubmatchError `SCHEMA_MISMATCH` when it is not a monotone function
 */
export function checkPavFunction(value: unknown, where: string): PavFunction {
  const f = value as PavFunction
  const ok =
    typeof f === 'object' &&
    f !== null &&
    Array.isArray(f.xs) &&
    Array.isArray(f.ys) &&
    f.xs.length === f.ys.length &&
    f.xs.every((x, i) => Number.isFinite(x) && (i === 0 || x > f.xs[i - 1]!)) &&
    f.ys.every((y, i) => Number.isFinite(y) && (i === 0 || y >= f.ys[i - 1]!)) &&
    Number.isFinite(f.prior)
  if (!ok) {
    throw new PubmatchError('SCHEMA_MISMATCH', `${where} is not a monotone PAV function ({xs increasing, ys non-decreasing, prior})`)
  }
  return f
}
