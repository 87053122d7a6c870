import { describe, expect, it } from 'vitest'
import { createAliasTable } from './alias.ts'
import { createRng } from './random.ts'
import {
  createRankSampler,
  expectedVocabulary,
  fitHeaps,
  fitZipfMandelbrot,
  sampleRank,
  type RankLaw,
} from './zipf.ts'

/** Counts proportional to (r + q)^−s over `ranks` ranks, `total` tokens, rounded. */
function idealCounts(s: number, q: number, ranks: number, total: number): number[] {
  const weights = Array.from({ length: ranks }, (_, i) => (i + 1 + q) ** -s)
  const sum = weights.reduce((a, b) => a + b, 0)
  return weights.map((w) => Math.round((total * w) / sum))
}

describe('fitZipfMandelbrot', () => {
  it('gives s = 1 for counts exactly proportional to 1/r with q fixed at 0', () => {
    const fit = fitZipfMandelbrot([1200, 600, 400, 300, 240, 200], { maxQ: 0, minCount: 1 })
    expect(fit.q).toBe(0)
    expect(fit.s).toBeCloseTo(1, 6)
    expect(fit.ranks).toBe(6)
  })

  it('recovers s and q from ideal Zipf–Mandelbrot counts', () => {
    const fit = fitZipfMandelbrot(idealCounts(1.1, 2.5, 2000, 1e8), { ranks: 2000 })
    expect(fit.s).toBeCloseTo(1.1, 3)
    expect(fit.q).toBeCloseTo(2.5, 1)
  })

  it('fits the types seen at least minCount times by default', () => {
    expect(fitZipfMandelbrot([50, 20, 9, 5, 5, 4, 1]).ranks).toBe(5)
    expect(() => fitZipfMandelbrot([9, 1, 1])).toThrow(/at least 3 ranks/)
  })
})

describe('fitHeaps', () => {
  it('recovers k and β of an exact power law', () => {
    const points: [number, number][] = [1e3, 1e4, 1e5, 1e6].map((n) => [n, 3 * n ** 0.6])
    const fit = fitHeaps(points)
    expect(fit.k).toBeCloseTo(3, 9)
    expect(fit.beta).toBeCloseTo(0.6, 12)
  })
})

describe('createRankSampler', () => {
  const law: RankLaw = { s: 0.9, q: 0.5, breakRank: 100, tailExponent: 2, maxRank: 1_000_000 }
  const sampler = createRankSampler(law)

  it('is normalised and continuous at the break', () => {
    const head = sampler.head.reduce((a, b) => a + b, 0)
    expect(head + sampler.tailMass).toBeCloseTo(1, 12)
    // Both pieces give the same density at the break rank: (100.5)^−0.9 ∝ join·(100.5)^−2.
    const tailAtBreak = sampler.probability(101) * (101.5 / 100.5) ** 2
    expect(tailAtBreak).toBeCloseTo(sampler.probability(100), 12)
    expect(sampler.probability(1) / sampler.probability(2)).toBeCloseTo((2.5 / 1.5) ** 0.9, 12)
  })

  it('draws tail ranks with the Pareto tail probabilities', () => {
    expect(sampler.tailRank(0)).toBe(101)
    expect(sampler.tailRank(1 - 1e-15)).toBeLessThanOrEqual(1_000_000)
    const rng = createRng(9)
    const n = 100_000
    let above1000 = 0
    for (let i = 0; i < n; i++) {
      if (sampler.tailRank(rng.float()) > 1000) {
        above1000++
      }
    }
    // Ranks round x, x continuous on [100.5, 1e6 + 0.5] with density ∝ (x + q)^−t, t = 2, q = 0.5:
    // P(rank > 1000) = P(x ≥ 1000.5) = (1001^−1 − 1000001^−1) / (101^−1 − 1000001^−1) = 0.100808
    const expected = 0.100808
    expect(Math.abs(above1000 / n - expected)).toBeLessThan(
      5 * Math.sqrt((expected * (1 - expected)) / n),
    )
  })

  it('expects as many distinct ranks as simulation finds', () => {
    const alias = createAliasTable(sampler.head)
    const draws = 5000
    let total = 0
    const runs = 20
    for (let run = 0; run < runs; run++) {
      const rng = createRng(100 + run)
      const seen = new Set<number>()
      for (let i = 0; i < draws; i++) {
        seen.add(sampleRank(sampler, (u) => alias.pick(u), rng))
      }
      total += seen.size
    }
    const expected = expectedVocabulary(sampler, law, draws)
    expect(Math.abs(total / runs - expected) / expected).toBeLessThan(0.02)
  })

  it('rejects a tail exponent ≤ 1', () => {
    expect(() => createRankSampler({ ...law, tailExponent: 1 })).toThrow(/tailExponent > 1/)
  })
})
