import { PubmatchError } from '@pubmatch/core'

/*
 * Special functions for Student's t distribution, written from their textbook
 * definitions: the Lanczos approximation of ln Γ (g = 7, 9 terms) and the continued
 * fraction of the regularised incomplete beta function evaluated with the modified Lentz
 * method. Both are accurate to ~1e-14 relative over the ranges used here; the tests pin
 * them to values from SciPy 1.17 (scipy.special.gammaln / betainc / stats.t).
 */

const LANCZOS_G = 7
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
]

/**
 * Natural logarithm of the gamma function, ln Γ(x), for x > 0.
 * @param x - the argument (> 0)
 */
export function logGamma(x: number): number {
  if (!(x > 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `logGamma needs x > 0, got ${x}`)
  }
  if (x < 0.5) {
    // reflection: Γ(x)Γ(1−x) = π / sin(πx)
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  }
  const z = x - 1
  let sum = LANCZOS[0] ?? 1
  for (let i = 1; i < LANCZOS.length; i++) {
    sum += (LANCZOS[i] ?? 0) / (z + i)
  }
  const t = z + LANCZOS_G + 0.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

/**
 * Natural logarithm of the beta function, ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
 * @param a - first shape (> 0)
 * @param b - second shape (> 0)
 */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b)
}

const TINY = 1e-300
const EPSILON = 1e-15
const MAX_ITERATIONS = 10_000

/** Continued fraction of I_x(a, b) (converges fast for x < (a + 1)/(a + b + 2)), modified Lentz. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < TINY) {
    d = TINY
  }
  d = 1 / d
  let f = d
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m
    // even step: d_{2m} = m (b − m) x / ((a + 2m − 1)(a + 2m))
    let numerator = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + numerator * d
    c = 1 + numerator / c
    d = Math.abs(d) < TINY ? 1 / TINY : 1 / d
    c = Math.abs(c) < TINY ? TINY : c
    f *= d * c
    // odd step: d_{2m+1} = −(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
    numerator = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + numerator * d
    c = 1 + numerator / c
    d = Math.abs(d) < TINY ? 1 / TINY : 1 / d
    c = Math.abs(c) < TINY ? TINY : c
    const delta = d * c
    f *= delta
    if (Math.abs(delta - 1) < EPSILON) {
      return f
    }
  }
  throw new PubmatchError(
    'INTERNAL',
    `incomplete beta continued fraction did not converge for x=${x}, a=${a}, b=${b}`,
  )
}

/**
 * The regularised incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b).
 * @param x - in [0, 1]
 * @param a - first shape (> 0)
 * @param b - second shape (> 0)
 * @throws PubmatchError `INVALID_ARGUMENT` outside the domain
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `regularizedIncompleteBeta needs 0 ≤ x ≤ 1, a > 0, b > 0; got x=${x}, a=${a}, b=${b}`,
    )
  }
  if (x === 0 || x === 1) {
    return x
  }
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b)
  if (x < (a + 1) / (a + b + 2)) {
    return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a
  }
  // symmetry I_x(a, b) = 1 − I_{1−x}(b, a), where the fraction converges
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b
}

/**
 * Two-sided tail probability of Student's t distribution, P(|T| ≥ |t|) with `df`
 * degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
 * @param t - the statistic
 * @param df - degrees of freedom (> 0)
 */
export function studentTTwoSided(t: number, df: number): number {
  if (Number.isNaN(t)) {
    return Number.NaN
  }
  if (!Number.isFinite(t)) {
    return 0
  }
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5)
}

/**
 * Cumulative distribution function of Student's t distribution, P(T ≤ t).
 * @param t - the statistic
 * @param df - degrees of freedom (> 0)
 */
export function studentTCdf(t: number, df: number): number {
  const tail = studentTTwoSided(t, df) / 2
  return t >= 0 ? 1 - tail : tail
}
