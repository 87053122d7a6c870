import { PubmatchError } from '@pubmatch/core'
import type { Rng } from './random.ts'

/**
 * A smoothed empirical distribution of a non-negative integer quantity (title length, number of
 * authors, MeSH headings per article …): the real observations, resampled with a log-normal
 * kernel (a smoothed bootstrap in `log(1 + x)` space). It keeps the shape of the real
 * histogram (bimodality, heavy tails) while filling the gaps between the few hundred real
 * values, and it preserves the mean before rounding:
 * `E[(1 + v)·exp(h·Z − h²/2)] − 1 = E[v]`.
 */
export interface CountDistribution {
  /** The real observations, sorted ascending. */
  values: number[]
  /** Kernel width `h` in log(1 + x) space; `0` resamples the values exactly. */
  bandwidth: number
  /** The smallest value drawn. */
  min: number
  /** The largest value drawn. */
  max: number
}

/** Parameters of a log-normal distribution, for reporting fits. */
export interface LogNormalFit {
  /** Mean of the logarithm. */
  mu: number
  /** Standard deviation of the logarithm. */
  sigma: number
}

/**
 * The arithmetic mean.
 * @param values - numbers; the mean of none is `NaN`
 */
export function mean(values: readonly number[]): number {
  let sum = 0
  for (const v of values) {
    sum += v
  }
  return sum / values.length
}

/**
 * The population standard deviation.
 * @param values - numbers
 */
export function standardDeviation(values: readonly number[]): number {
  const m = mean(values)
  let sum = 0
  for (const v of values) {
    sum += (v - m) * (v - m)
  }
  return Math.sqrt(sum / values.length)
}

/**
 * The `p` quantile by linear interpolation between order statistics (type 7, as R's default).
 * @param sorted - numbers sorted ascending, at least one
 * @param p - in [0, 1]
 */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) {
    return Number.NaN
  }
  const h = (sorted.length - 1) * p
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!)
}

/**
 * The maximum-likelihood log-normal fit of positive values (mean and standard deviation of
 * their logarithms).
 * @param values - positive numbers, at least one
 * @throws PubmatchError `INVALID_ARGUMENT` for no values or a value ≤ 0
 */
export function fitLogNormal(values: readonly number[]): LogNormalFit {
  if (values.length === 0 || values.some((v) => !(v > 0))) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      '@pubmatch/synth: a log-normal fit needs at least one value, all of them > 0',
    )
  }
  const logs = values.map((v) => Math.log(v))
  return { mu: mean(logs), sigma: standardDeviation(logs) }
}

/**
 * Builds a {@link CountDistribution} from observations. The default bandwidth is Silverman's
 * rule of thumb on `log(1 + x)`, `0.9·min(sd, IQR/1.34)·n^(−1/5)`, floored at `0.05`.
 * @param observations - non-negative integers, at least one
 * @param options - `bandwidth` overrides the rule of thumb; `min`/`max` bound the draws.
 *   Defaults: `min` = the smallest observation, `max` = ⌈1.5 × the largest⌉.
 * @throws PubmatchError `INVALID_ARGUMENT` for no observations or a negative/non-integer one
 */
export function fitCountDistribution(
  observations: readonly number[],
  options: { bandwidth?: number; min?: number; max?: number } = {},
): CountDistribution {
  if (observations.length === 0 || observations.some((v) => !Number.isInteger(v) || v < 0)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      '@pubmatch/synth: a count distribution needs at least one observation, all non-negative integers',
    )
  }
  const values = [...observations].sort((a, b) => a - b)
  const logs = values.map((v) => Math.log1p(v))
  const sd = standardDeviation(logs)
  const iqr = quantile(logs, 0.75) - quantile(logs, 0.25)
  const spread = iqr > 0 ? Math.min(sd, iqr / 1.34) : sd
  const rule = 0.9 * spread * values.length ** -0.2
  return {
    values,
    bandwidth: options.bandwidth ?? round6(Math.max(0.05, rule)),
    min: options.min ?? values[0]!,
    max: options.max ?? Math.ceil(values[values.length - 1]! * 1.5),
  }
}

/**
 * Draws one value of a {@link CountDistribution}.
 * @param distribution - the distribution
 * @param rng - the random stream
 */
export function sampleCount(distribution: CountDistribution, rng: Rng): number {
  const { values, bandwidth, min, max } = distribution
  const v = values[Math.floor(rng.float() * values.length)]!
  if (bandwidth === 0) {
    return v
  }
  const x = Math.round(
    (1 + v) * Math.exp(bandwidth * rng.normal() - (bandwidth * bandwidth) / 2) - 1,
  )
  return x < min ? min : x > max ? max : x
}

/**
 * Rounds to 6 significant decimals, to keep the model JSON small and stable.
 * @param value - a number
 */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
