import { describe, expect, it } from 'vitest'
import { fixtureText } from '../../test/helpers.ts'
import { parseTrecEvalOutput } from '../io/trec-eval-output.ts'
import { createRandom, shuffle } from './prng.ts'
import { pairedTTest, randomisationTest } from './significance.ts'
import { logGamma, regularizedIncompleteBeta, studentTCdf, studentTTwoSided } from './special.ts'

// Reference values: SciPy 1.17.1 (scipy.special.gammaln, scipy.special.betainc,
// scipy.stats.t.sf / t.cdf, scipy.stats.ttest_rel), printed with repr().

/** |actual − expected| ≤ rel·|expected| (+ a tiny absolute floor). */
function expectRelative(actual: number, expected: number, rel = 1e-12): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected) + 1e-300)
}

describe('logGamma', () => {
  it.each([
    [0.1, 2.252712651734206],
    [0.5, 0.5723649429247],
    [1.5, -0.12078223763524526],
    [2.5, 0.2846828704729192],
    [10, 12.801827480081469],
    [100.5, 361.43554046777757],
    [1000, 5905.220423209181],
  ])('ln Γ(%d) matches SciPy', (x, expected) => {
    expectRelative(logGamma(x), expected, 1e-13)
  })

  it('is exactly 0 at 1 and 2 up to rounding', () => {
    expect(Math.abs(logGamma(1))).toBeLessThan(1e-15)
    expect(Math.abs(logGamma(2))).toBeLessThan(1e-15)
  })
})

describe('regularizedIncompleteBeta', () => {
  it.each([
    [0.5, 2, 3, 0.6875],
    [0.1, 0.5, 0.5, 0.20483276469913345],
    [0.9, 0.5, 0.5, 0.7951672353008665],
    [0.3, 10, 0.5, 1.2205229279531696e-6],
    [0.999, 50, 0.5, 0.7523690199653766],
    [0.2, 1, 1, 0.2],
    [0.7, 3.5, 7.25, 0.9945107112274094],
    [1e-6, 0.5, 0.5, 0.0006366198784709245],
    [0.95, 161.5, 0.5, 4.7578867550307774e-5],
  ])('I_%d(%d, %d) matches SciPy', (x, a, b, expected) => {
    expectRelative(regularizedIncompleteBeta(x, a, b), expected, 1e-11)
  })

  it('is 0 and 1 at the ends and rejects arguments outside the domain', () => {
    expect([regularizedIncompleteBeta(0, 2, 3), regularizedIncompleteBeta(1, 2, 3)]).toEqual([0, 1])
    expect(() => regularizedIncompleteBeta(1.5, 1, 1)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: regularizedIncompleteBeta needs 0 ≤ x ≤ 1, a > 0, b > 0; got x=1.5, a=1, b=1]`,
    )
  })
})

describe("Student's t distribution", () => {
  it.each([
    [2.0, 10, 0.07338803477074037, 0.9633059826146299],
    [1.96, 1000, 0.050273184955748736, 0.9748634075221256],
    [-3.5, 5, 0.017284431785293358, 0.008642215892646679],
    [0, 7, 1, 0.5],
    [2.228138851986, 10, 0.050000000000023255, 0.9749999999999883],
    [0.001, 2, 0.9992928933955901, 0.500353553302205],
    [40, 3, 3.4380680789158506e-5, 0.9999828096596054],
  ])('t = %d with %d df: two-sided p and CDF match SciPy', (t, df, twoSided, cdf) => {
    expectRelative(studentTTwoSided(t, df), twoSided, 1e-11)
    expectRelative(studentTCdf(t, df), cdf, 1e-12)
  })

  it('keeps tiny tail probabilities accurate', () => {
    expectRelative(studentTTwoSided(12.3, 323), 8.859683279674293e-29, 1e-9)
  })
})

describe('pairedTTest', () => {
  it('matches scipy.stats.ttest_rel on a small sample', () => {
    const r = pairedTTest([0.5, 0.7, 0.2, 0.9, 0.4, 0.6], [0.4, 0.5, 0.3, 0.6, 0.4, 0.2])
    expectRelative(r.t, 1.9639610121239315, 1e-12)
    expectRelative(r.pValue, 0.10674552235509224, 1e-11)
    expect(r.df).toBe(5)
  })

  it('matches scipy.stats.ttest_rel on trec_eval per-query values of two NFCorpus runs (324 queries)', () => {
    const bm25 = parseTrecEvalOutput(
      fixtureText('reference/nfcorpus-dev.bm25.s-3.all_trec.hp.txt.gz'),
    )
    const lm = parseTrecEvalOutput(fixtureText('reference/nfcorpus-dev.lm.s-3.all_trec.hp.txt.gz'))
    const ids = [...bm25.perQuery.keys()]
    const values = (o: typeof bm25, m: string): number[] =>
      ids.map((q) => o.perQuery.get(q)?.[m] ?? Number.NaN)
    const expected: [string, number, number][] = [
      ['ndcg_cut_10', 1.5649695160595696, 0.11856922308361273],
      ['map', 1.594797857517714, 0.11173542088075553],
      ['P_10', 1.0893307257321623, 0.2768201234429191],
      ['recip_rank', 2.3418798495796147, 0.01979413135687497],
    ]
    for (const [measure, t, p] of expected) {
      const r = pairedTTest(values(bm25, measure), values(lm, measure))
      expectRelative(r.t, t, 1e-9)
      expectRelative(r.pValue, p, 1e-9)
    }
  })

  it('reports p = 1 for identical systems and p = 0 for a constant non-zero difference', () => {
    expect(pairedTTest([1, 2, 3], [1, 2, 3])).toEqual({ meanDifference: 0, t: 0, df: 2, pValue: 1 })
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toMatchObject({ t: Infinity, pValue: 0 })
  })

  it('rejects unpaired input', () => {
    expect(() => pairedTTest([1, 2], [1])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: pairedTTest needs paired samples of equal length, got 2 and 1]`,
    )
  })
})

describe('randomisationTest', () => {
  it('enumerates all sign flips exactly for small samples', () => {
    // differences 1, 2, 3: of the 8 sign assignments only ±(1+2+3) reach |6| → p = 2/8
    expect(randomisationTest([2, 4, 6], [1, 2, 3])).toEqual({
      meanDifference: 2,
      pValue: 0.25,
      trials: 8,
      exact: true,
    })
    // differences .5, −.2, .1, .3 (sum .7): 6 of 16 assignments reach |.7| (ties count)
    expect(randomisationTest([0.5, 0, 0.1, 0.3], [0, 0.2, 0, 0]).pValue).toBe(6 / 16)
  })

  it('is reproducible from its seed and close to a 200,000-draw NumPy estimate on real data', () => {
    const bm25 = parseTrecEvalOutput(
      fixtureText('reference/nfcorpus-dev.bm25.s-3.all_trec.hp.txt.gz'),
    )
    const lm = parseTrecEvalOutput(fixtureText('reference/nfcorpus-dev.lm.s-3.all_trec.hp.txt.gz'))
    const ids = [...bm25.perQuery.keys()]
    const a = ids.map((q) => bm25.perQuery.get(q)?.ndcg_cut_10 ?? 0)
    const b = ids.map((q) => lm.perQuery.get(q)?.ndcg_cut_10 ?? 0)
    const r = randomisationTest(a, b, { trials: 100_000, seed: 7 })
    expect(r.exact).toBe(false)
    expect(randomisationTest(a, b, { trials: 100_000, seed: 7 }).pValue).toBe(r.pValue)
    // NumPy (default_rng(0), 200,000 sign vectors): 0.118409; the Monte Carlo SE at 100k is ~0.001
    expect(Math.abs(r.pValue - 0.11840940795296023)).toBeLessThan(0.004)
    expect(randomisationTest(a, b, { trials: 2_000, seed: 8 }).pValue).not.toBe(r.pValue)
  })

  it('never reports p = 0 when sampling', () => {
    const r = randomisationTest(
      Array.from({ length: 40 }, () => 1),
      Array.from({ length: 40 }, () => 0),
      { trials: 999, mode: 'sampled' },
    )
    expect(r.pValue).toBe(1 / 1000)
  })

  it('refuses an exact test over too many pairs', () => {
    expect(() =>
      randomisationTest(new Array(30).fill(1), new Array(30).fill(0), { mode: 'exact' }),
    ).toThrow(/2\^30/)
  })
})

describe('createRandom / shuffle', () => {
  it('gives the same sequence for the same seed', () => {
    const a = createRandom(42)
    const b = createRandom(42)
    const xs = [a(), a(), a()]
    expect([b(), b(), b()]).toEqual(xs)
    expect(xs.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32)).toBe(true)
  })

  it('permutes without losing items', () => {
    const items = Array.from({ length: 50 }, (_, i) => i)
    const shuffled = shuffle(items, 3)
    expect(shuffled).not.toEqual(items)
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items)
  })
})
