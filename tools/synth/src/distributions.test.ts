import { describe, expect, it } from 'vitest'
import {
  fitCountDistribution,
  fitLogNormal,
  mean,
  quantile,
  sampleCount,
  standardDeviation,
} from './distributions.ts'
import { createRng } from './random.ts'

describe('quantile', () => {
  it('interpolates between order statistics like R type 7', () => {
    // h = (n − 1)p: [1,2,3,4] at 0.25 → 1 + 0.75·1; [10 … 50] at 0.9 → 40 + 0.6·10.
    expect(quantile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12)
    expect(quantile([10, 20, 30, 40, 50], 0.9)).toBeCloseTo(46, 12)
    expect(quantile([5], 0.5)).toBe(5)
  })
})

describe('fitLogNormal', () => {
  it('is the mean and population standard deviation of the logarithms', () => {
    // logs 1, 2, 3 → μ = 2, σ = √(2/3)
    const fit = fitLogNormal([Math.E, Math.E ** 2, Math.E ** 3])
    expect(fit.mu).toBeCloseTo(2, 12)
    expect(fit.sigma).toBeCloseTo(Math.sqrt(2 / 3), 12)
  })

  it('rejects non-positive values', () => {
    expect(() => fitLogNormal([1, 0])).toThrow(/all of them > 0/)
  })
})

describe('fitCountDistribution', () => {
  it("uses Silverman's rule on log(1 + x) for the bandwidth", () => {
    // logs of 1,2,4,8: sd = 0.774962, IQR/1.34 = 0.775911 → 0.9 · 0.774962 · 4^(−1/5) = 0.528580
    const fit = fitCountDistribution([7, 0, 3, 1])
    expect(fit.values).toEqual([0, 1, 3, 7])
    expect(fit.bandwidth).toBeCloseTo(0.52858, 5)
    expect(fit.min).toBe(0)
    expect(fit.max).toBe(11)
  })

  it('rejects negative or fractional observations', () => {
    expect(() => fitCountDistribution([1, -1])).toThrow(/non-negative integers/)
    expect(() => fitCountDistribution([1.5])).toThrow(/non-negative integers/)
    expect(() => fitCountDistribution([])).toThrow(/at least one observation/)
  })
})

describe('sampleCount', () => {
  it('keeps the mean of the observations (the kernel is mean-corrected)', () => {
    const distribution = fitCountDistribution([2, 10, 50], { bandwidth: 0.3, min: 0, max: 100_000 })
    const rng = createRng(5)
    const draws = Array.from({ length: 200_000 }, () => sampleCount(distribution, rng))
    // E = 62/3 = 20.667; the standard error of the mean is about 0.05.
    expect(mean(draws)).toBeGreaterThan(20.667 - 0.25)
    expect(mean(draws)).toBeLessThan(20.667 + 0.25)
    expect(standardDeviation(draws)).toBeGreaterThan(standardDeviation([2, 10, 50]))
  })

  it('resamples the observations exactly when the bandwidth is 0, and clamps to [min, max]', () => {
    const rng = createRng(6)
    const exact = fitCountDistribution([3, 4], { bandwidth: 0 })
    expect(new Set(Array.from({ length: 1000 }, () => sampleCount(exact, rng)))).toEqual(
      new Set([3, 4]),
    )
    const clamped = { values: [100], bandwidth: 2, min: 90, max: 110 }
    const draws = Array.from({ length: 1000 }, () => sampleCount(clamped, rng))
    expect(Math.min(...draws)).toBe(90)
    expect(Math.max(...draws)).toBe(110)
  })
})
