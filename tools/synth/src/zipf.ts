import { PubmatchError } from '@pubmatch/core'
import type { Rng } from './random.ts'

/** A Zipf–Mandelbrot fit `f(r) ∝ (r + q)^−s` over ranks `1 … ranks`. */
export interface ZipfMandelbrotFit {
  /** The exponent `s`. */
  s: number
  /** The Mandelbrot shift `q` (≥ 0). */
  q: number
  /** How many top ranks were fitted. */
  ranks: number
  /** The log-likelihood at the optimum (natural log). */
  logLikelihood: number
}

/** Options of {@link fitZipfMandelbrot}. */
export interface ZipfFitOptions {
  /**
   * Fit ranks `1 … ranks` only (conditional likelihood of a token given that its rank is in
   * that range). Defaults to the number of types seen at least `minCount` times.
   */
  ranks?: number
  /** Used when `ranks` is not given. Defaults to `5`. */
  minCount?: number
  /** Largest `q` searched. Defaults to `50`. */
  maxQ?: number
}

/** The profile log-likelihood's best `s` for a fixed `q`, by Newton's method on a concave function. */
function bestExponent(
  counts: readonly number[],
  ranks: number,
  q: number,
): { s: number; logLikelihood: number } {
  const logs = new Float64Array(ranks)
  let total = 0
  let weightedLog = 0
  for (let r = 1; r <= ranks; r++) {
    const l = Math.log(r + q)
    logs[r - 1] = l
    total += counts[r - 1]!
    weightedLog += counts[r - 1]! * l
  }
  const meanLog = weightedLog / total
  const moments = (s: number): { z: number; m1: number; m2: number } => {
    let z = 0
    let m1 = 0
    let m2 = 0
    for (let i = 0; i < ranks; i++) {
      const l = logs[i]!
      const w = Math.exp(-s * l)
      z += w
      m1 += w * l
      m2 += w * l * l
    }
    return { z, m1: m1 / z, m2: m2 / z }
  }
  // d/ds LL / total = E_p[log(r+q)] − meanLog; d²/ds² LL / total = −Var_p[log(r+q)].
  let lo = 0
  let hi = 8
  let s = 1
  for (let iter = 0; iter < 100; iter++) {
    const { m1, m2 } = moments(s)
    const gradient = m1 - meanLog
    if (gradient > 0) {
      lo = s
    } else {
      hi = s
    }
    const variance = m2 - m1 * m1
    let next = variance > 0 ? s + gradient / variance : Number.NaN
    if (!(next > lo && next < hi)) {
      next = (lo + hi) / 2
    }
    if (Math.abs(next - s) < 1e-10) {
      s = next
      break
    }
    s = next
  }
  const { z } = moments(s)
  return { s, logLikelihood: -s * weightedLog - total * Math.log(z) }
}

/**
 * Fits a Zipf–Mandelbrot law to a rank-frequency list by maximum likelihood (the exponent by
 * Newton's method on the concave profile likelihood, the shift by golden-section search after a
 * coarse grid). Maximum likelihood weighs ranks by their token counts, unlike a least-squares
 * line through log–log points, which the many noisy low-count ranks dominate.
 * @param countsDescending - token counts of the types, sorted descending
 * @param options - see {@link ZipfFitOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` when fewer than 3 ranks can be fitted
 */
export function fitZipfMandelbrot(
  countsDescending: readonly number[],
  options: ZipfFitOptions = {},
): ZipfMandelbrotFit {
  const minCount = options.minCount ?? 5
  let ranks = options.ranks
  if (ranks === undefined) {
    ranks = 0
    while (ranks < countsDescending.length && countsDescending[ranks]! >= minCount) {
      ranks++
    }
  }
  ranks = Math.min(ranks, countsDescending.length)
  if (ranks < 3) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: a Zipf–Mandelbrot fit needs at least 3 ranks, got ${ranks}`,
    )
  }
  const maxQ = options.maxQ ?? 50
  const profile = (q: number): number => bestExponent(countsDescending, ranks, q).logLikelihood
  // Coarse grid (log-spaced), then golden-section search around the best grid point.
  const grid = [0]
  for (let q = 0.05; q <= maxQ; q *= 1.3) {
    grid.push(q)
  }
  let best = 0
  let bestValue = -Infinity
  for (let i = 0; i < grid.length; i++) {
    const value = profile(grid[i]!)
    if (value > bestValue) {
      bestValue = value
      best = i
    }
  }
  let a = grid[Math.max(0, best - 1)]!
  let b = grid[Math.min(grid.length - 1, best + 1)]!
  const ratio = (Math.sqrt(5) - 1) / 2
  let c = b - ratio * (b - a)
  let d = a + ratio * (b - a)
  let fc = profile(c)
  let fd = profile(d)
  for (let iter = 0; iter < 60 && b - a > 1e-6; iter++) {
    if (fc > fd) {
      b = d
      d = c
      fd = fc
      c = b - ratio * (b - a)
      fc = profile(c)
    } else {
      a = c
      c = d
      fc = fd
      d = a + ratio * (b - a)
      fd = profile(d)
    }
  }
  const q = (a + b) / 2
  const candidates = [
    { q, ...bestExponent(countsDescending, ranks, q) },
    { q: grid[best]!, ...bestExponent(countsDescending, ranks, grid[best]!) },
  ]
  const winner =
    candidates[0]!.logLikelihood >= candidates[1]!.logLikelihood ? candidates[0]! : candidates[1]!
  return { s: winner.s, q: winner.q, ranks, logLikelihood: winner.logLikelihood }
}

/** A Heaps' law fit `V(n) = k·n^β` (distinct types after `n` tokens). */
export interface HeapsFit {
  /** The constant `k`. */
  k: number
  /** The exponent `β`. */
  beta: number
}

/**
 * Least-squares fit of Heaps' law in log–log space.
 * @param points - `[tokens, types]` pairs with both > 0, at least two distinct token counts
 * @throws PubmatchError `INVALID_ARGUMENT` for fewer than two usable points
 */
export function fitHeaps(points: readonly (readonly [number, number])[]): HeapsFit {
  const usable = points.filter(([n, v]) => n > 0 && v > 0)
  if (new Set(usable.map(([n]) => n)).size < 2) {
    throw new PubmatchError('INVALID_ARGUMENT', '@pubmatch/synth: a Heaps fit needs two points')
  }
  let sx = 0
  let sy = 0
  let sxx = 0
  let sxy = 0
  for (const [n, v] of usable) {
    const x = Math.log(n)
    const y = Math.log(v)
    sx += x
    sy += y
    sxx += x * x
    sxy += x * y
  }
  const m = usable.length
  const beta = (m * sxy - sx * sy) / (m * sxx - sx * sx)
  return { k: Math.exp((sy - beta * sx) / m), beta }
}

/**
 * The rank-frequency law the generator draws words from: Zipf–Mandelbrot `(r + q)^−s` up to
 * `breakRank`, then a steeper power tail `(r + q)^−tailExponent` (continuous at the break) up
 * to `maxRank`. The head is what the real sample shows; the tail is what makes vocabulary keep
 * growing like `n^(1/tailExponent)` (Heaps' law) instead of stopping at the sample's size.
 */
export interface RankLaw {
  /** Head exponent. */
  s: number
  /** Mandelbrot shift. */
  q: number
  /** Last rank of the head. */
  breakRank: number
  /** Tail exponent (> 1). */
  tailExponent: number
  /** Largest rank drawn. */
  maxRank: number
}

/** A {@link RankLaw} with its normalisation, ready to sample. */
export interface RankSampler {
  /** Probability of each head rank: `head[r − 1]` for `r ≤ breakRank`. */
  readonly head: Float64Array
  /** Total probability of the ranks above `breakRank`. */
  readonly tailMass: number
  /**
   * Probability of any rank (the tail's is the density at the rank, which is the probability
   * to within O(1/r²)).
   * @param rank - 1-based
   */
  probability(rank: number): number
  /**
   * A tail rank (> breakRank) by inverse transform of the continuous tail.
   * @param u - a float in [0, 1)
   */
  tailRank(u: number): number
}

/**
 * Normalises a {@link RankLaw}.
 * @param law - the law
 * @throws PubmatchError `INVALID_ARGUMENT` for a tail exponent ≤ 1 or ranks out of order
 */
export function createRankSampler(law: RankLaw): RankSampler {
  const { s, q, breakRank, tailExponent: t, maxRank } = law
  if (!(t > 1) || !(breakRank >= 1) || !(maxRank > breakRank) || !(q >= 0)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: invalid rank law ${JSON.stringify(law)} (need tailExponent > 1, 1 ≤ breakRank < maxRank, q ≥ 0)`,
    )
  }
  const head = new Float64Array(breakRank)
  let headSum = 0
  for (let r = 1; r <= breakRank; r++) {
    const w = (r + q) ** -s
    head[r - 1] = w
    headSum += w
  }
  const join = (breakRank + q) ** (t - s)
  const e = 1 - t
  const a = (breakRank + 0.5 + q) ** e
  const b = (maxRank + 0.5 + q) ** e
  const tailIntegral = (join * (a - b)) / (t - 1)
  const norm = headSum + tailIntegral
  for (let i = 0; i < breakRank; i++) {
    head[i] = head[i]! / norm
  }
  return new Law(head, tailIntegral / norm, join / norm, law, a, b)
}

class Law implements RankSampler {
  readonly head: Float64Array
  readonly tailMass: number
  private readonly scale: number
  private readonly q: number
  private readonly t: number
  private readonly breakRank: number
  private readonly maxRank: number
  private readonly a: number
  private readonly span: number
  private readonly inverse: number

  constructor(
    head: Float64Array,
    tailMass: number,
    scale: number,
    law: RankLaw,
    a: number,
    b: number,
  ) {
    this.head = head
    this.tailMass = tailMass
    this.scale = scale
    this.q = law.q
    this.t = law.tailExponent
    this.breakRank = law.breakRank
    this.maxRank = law.maxRank
    this.a = a
    this.span = b - a
    this.inverse = 1 / (1 - law.tailExponent)
  }

  probability(rank: number): number {
    return rank <= this.breakRank
      ? (this.head[rank - 1] ?? 0)
      : rank > this.maxRank
        ? 0
        : this.scale * (rank + this.q) ** -this.t
  }

  tailRank(u: number): number {
    const x = Math.exp(this.inverse * Math.log(this.a + u * this.span)) - this.q
    const r = Math.floor(x + 0.5)
    return r <= this.breakRank ? this.breakRank + 1 : r > this.maxRank ? this.maxRank : r
  }
}

/**
 * The expected number of distinct ranks among `n` independent draws from a law,
 * `Σ_r 1 − exp(−n·p_r)` (Poisson approximation; the tail summed by integration on a log grid).
 * @param sampler - a normalised law
 * @param law - the law the sampler was made from
 * @param n - the number of draws
 * @param counts - which head ranks (1-based) to count. Defaults to all; tail ranks always count.
 */
export function expectedVocabulary(
  sampler: RankSampler,
  law: RankLaw,
  n: number,
  counts?: (rank: number) => boolean,
): number {
  let v = 0
  for (let i = 0; i < sampler.head.length; i++) {
    if (counts === undefined || counts(i + 1)) {
      v += -Math.expm1(-n * sampler.head[i]!)
    }
  }
  // Tail: ∫ (1 − exp(−n p(x))) dx over [breakRank + 0.5, maxRank + 0.5], x = e^y.
  const lo = Math.log(law.breakRank + 0.5)
  const hi = Math.log(law.maxRank + 0.5)
  const steps = 400
  const h = (hi - lo) / steps
  let integral = 0
  for (let i = 0; i <= steps; i++) {
    const x = Math.exp(lo + i * h)
    const f = -Math.expm1(-n * sampler.probability(Math.round(x))) * x
    integral += (i === 0 || i === steps ? 0.5 : 1) * f
  }
  return v + integral * h
}

/**
 * Draws a rank from a sampler whose head is wrapped in an alias table.
 * @param sampler - the normalised law
 * @param pickHead - maps a uniform number to a head rank index (0-based), e.g. an alias table's `pick`
 * @param rng - the random stream
 */
export function sampleRank(
  sampler: RankSampler,
  pickHead: (u: number) => number,
  rng: Rng,
): number {
  const u = rng.float()
  if (u >= sampler.tailMass) {
    return pickHead((u - sampler.tailMass) / (1 - sampler.tailMass)) + 1
  }
  return sampler.tailRank(u / sampler.tailMass)
}
