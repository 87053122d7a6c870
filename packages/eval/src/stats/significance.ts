import { PubmatchError } from '@pubmatch/core'
import { createRandom } from './prng.ts'
import { studentTTwoSided } from './special.ts'

/** Result of {@link pairedTTest}. */
export interface TTestResult {
  /** Mean of a − b. */
  readonly meanDifference: number
  /** The t statistic, mean / (sd / √n); ±Infinity when every difference is the same non-zero value. */
  readonly t: number
  /** Degrees of freedom, n − 1. */
  readonly df: number
  /** Two-sided p-value from Student's t distribution (1 when all differences are 0). */
  readonly pValue: number
}

function differences(a: readonly number[], b: readonly number[], test: string): number[] {
  if (a.length !== b.length) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${test} needs paired samples of equal length, got ${a.length} and ${b.length}`,
    )
  }
  if (a.length < 2) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${test} needs at least 2 pairs, got ${a.length}`,
    )
  }
  return a.map((x, i) => x - (b[i] ?? 0))
}

/**
 * Paired two-sided t-test of H0: mean(a − b) = 0 (e.g. per-query nDCG of two runs).
 * @param a - per-query values of the first system
 * @param b - per-query values of the second system, same query order
 * @throws PubmatchError `INVALID_ARGUMENT` for unequal lengths or fewer than 2 pairs
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): TTestResult {
  const d = differences(a, b, 'pairedTTest')
  const n = d.length
  const mean = d.reduce((s, x) => s + x, 0) / n
  const variance = d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)
  const df = n - 1
  if (variance === 0) {
    return mean === 0
      ? { meanDifference: 0, t: 0, df, pValue: 1 }
      : { meanDifference: mean, t: mean > 0 ? Infinity : -Infinity, df, pValue: 0 }
  }
  const t = mean / Math.sqrt(variance / n)
  return { meanDifference: mean, t, df, pValue: studentTTwoSided(t, df) }
}

/** Options of {@link randomisationTest}. */
export interface RandomisationOptions {
  /** Random sign assignments to draw. Defaults to `10000`. */
  trials?: number
  /** Seed of the generator; the same seed gives the same p-value. Defaults to `20080101`. */
  seed?: number
  /**
   * `'exact'` enumerates all 2^n sign assignments (n ≤ 24); `'sampled'` draws `trials`
   * of them; `'auto'` is exact when 2^n ≤ `trials`. Defaults to `'auto'`.
   */
  mode?: 'auto' | 'exact' | 'sampled'
}

/** Result of {@link randomisationTest}. */
export interface RandomisationResult {
  /** Mean of a − b. */
  readonly meanDifference: number
  /**
   * Two-sided p-value. Exact: the share of all 2^n sign assignments whose |mean| is at
   * least the observed one. Sampled: (1 + hits) / (1 + trials), which never reports 0.
   */
  readonly pValue: number
  /** Sign assignments evaluated (2^n when exact). */
  readonly trials: number
  /** Whether all assignments were enumerated. */
  readonly exact: boolean
}

/**
 * Paired randomisation (permutation) test of H0: the two systems are exchangeable on each
 * query (Fisher; Smucker, Allan & Carterette 2007). Under H0 each per-query difference is
 * equally likely to have either sign; the test statistic is |mean difference|.
 * @param a - per-query values of the first system
 * @param b - per-query values of the second system, same query order
 * @param options - see {@link RandomisationOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for unequal lengths, fewer than 2 pairs, or an
 *   exact test over more than 24 pairs
 */
export function randomisationTest(
  a: readonly number[],
  b: readonly number[],
  options: RandomisationOptions = {},
): RandomisationResult {
  const d = differences(a, b, 'randomisationTest')
  const n = d.length
  const trials = options.trials ?? 10_000
  const mode = options.mode ?? 'auto'
  const observed = Math.abs(d.reduce((s, x) => s + x, 0))
  // a permuted sum counts as extreme when it reaches the observed one up to rounding
  const threshold = observed - 1e-9 * Math.max(1, observed)
  const meanDifference = d.reduce((s, x) => s + x, 0) / n
  const exact = mode === 'exact' || (mode === 'auto' && n <= 30 && 2 ** n <= trials)
  if (exact) {
    if (n > 24) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `an exact randomisation test over ${n} pairs needs 2^${n} assignments; use mode 'sampled'`,
      )
    }
    const total = 2 ** n
    let hits = 0
    for (let mask = 0; mask < total; mask++) {
      let sum = 0
      for (let i = 0; i < n; i++) {
        sum += (mask >>> i) & 1 ? -(d[i] ?? 0) : (d[i] ?? 0)
      }
      if (Math.abs(sum) >= threshold) {
        hits++
      }
    }
    return { meanDifference, pValue: hits / total, trials: total, exact: true }
  }
  const next = createRandom(options.seed ?? 20080101)
  let hits = 0
  for (let t = 0; t < trials; t++) {
    let sum = 0
    let bits = 0
    for (let i = 0; i < n; i++) {
      if (i % 32 === 0) {
        bits = next()
      }
      sum += (bits >>> (i % 32)) & 1 ? -(d[i] ?? 0) : (d[i] ?? 0)
    }
    if (Math.abs(sum) >= threshold) {
      hits++
    }
  }
  return { meanDifference, pValue: (hits + 1) / (trials + 1), trials, exact: false }
}
