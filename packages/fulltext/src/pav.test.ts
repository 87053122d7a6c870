import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkPavFunction, evaluatePav, fitPav, logOdds } from './pav.ts'

describe('fitPav', () => {
  it('merges a violating neighbour into one block with the weighted mean', () => {
    // (1,1) (2,0) violate the order: pooled to 0.5 over x 1..2; (3,1) stays
    const f = fitPav([
      { x: 1, y: 1 },
      { x: 2, y: 0 },
      { x: 3, y: 1 },
    ])
    expect(f.xs).toEqual([1, 2, 3])
    expect(f.ys).toEqual([0.5, 0.5, 1])
    expect(f.prior).toBeCloseTo(2 / 3, 12)
    // linear between pooled scores, constant outside the seen range
    expect(evaluatePav(f, 2.5)).toBeCloseTo(0.75, 12)
    expect(evaluatePav(f, 1.5)).toBe(0.5)
    expect(evaluatePav(f, -4)).toBe(0.5)
    expect(evaluatePav(f, 40)).toBe(1)
  })

  it('pools tied scores by weight before it fits', () => {
    // x = 1: weights 3 (y 0) and 1 (y 1) → mean 0.25, weight 4; then (2, 0, w 1) violates → (0.25·4 + 0)/5 = 0.2
    const f = fitPav([
      { x: 1, y: 0, w: 3 },
      { x: 1, y: 1, w: 1 },
      { x: 2, y: 0, w: 1 },
    ])
    expect(f.xs).toEqual([1, 2])
    expect(f.ys).toEqual([0.2, 0.2])
    expect(f.weight).toBe(5)
    expect(f.prior).toBeCloseTo(0.2, 12)
  })

  it('cascades merges back through earlier blocks', () => {
    // 0.9, 0.8, 0.1 at x 1, 2, 3: (0.9,0.8) → 0.85; then 0.1 → (0.9+0.8+0.1)/3 = 0.6
    const f = fitPav([
      { x: 1, y: 0.9 },
      { x: 2, y: 0.8 },
      { x: 3, y: 0.1 },
      { x: 4, y: 1 },
    ])
    expect(f.ys.map((y) => Number(y.toFixed(12)))).toEqual([0.6, 0.6, 0.6, 1])
  })

  it('refuses empty input and bad values', () => {
    expect(() => fitPav([])).toThrowError(/at least one point/)
    expect(() => fitPav([{ x: Number.NaN, y: 1 }])).toThrowError(/finite x and y/)
    expect(() => fitPav([{ x: 1, y: 1, w: 0 }])).toThrowError(/weight > 0/)
  })

  it('agrees with scikit-learn IsotonicRegression on 300 weighted points with ties', () => {
    const fixture = JSON.parse(readFileSync(new URL('../test/fixtures/isotonic-sklearn.json', import.meta.url), 'utf8')) as {
      cases: Array<{ name: string; x: number[]; y: number[]; w: number[]; at: number[]; expected: number[] }>
    }
    for (const c of fixture.cases) {
      const f = fitPav(c.x.map((x, i) => ({ x, y: c.y[i]!, w: c.w[i]! })))
      const got = c.at.map((x) => evaluatePav(f, x))
      for (let i = 0; i < got.length; i++) {
        expect([c.name, c.at[i], got[i]]).toEqual([c.name, c.at[i], expect.closeTo(c.expected[i]!, 10)])
      }
      // monotone by construction
      expect(f.ys.every((y, i) => i === 0 || y >= f.ys[i - 1]!)).toBe(true)
    }
  })
})

describe('logOdds', () => {
  it('is the log of the odds ratio against the prior, bounded away from 0 and 1', () => {
    // p 0.5 against prior 0.2: ln(1) − ln(0.25) = ln 4
    expect(logOdds(0.5, 0.2)).toBeCloseTo(Math.log(4), 12)
    expect(logOdds(0.2, 0.2)).toBe(0)
    expect(Number.isFinite(logOdds(1, 0.2))).toBe(true)
    expect(logOdds(0, 0.2)).toBeLessThan(-10)
  })
})

describe('checkPavFunction', () => {
  it('accepts a saved function and refuses one that is not monotone', () => {
    const f = fitPav([
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ])
    expect(checkPavFunction(JSON.parse(JSON.stringify(f)), 'f')).toEqual(f)
    expect(() => checkPavFunction({ xs: [0, 1], ys: [1, 0], prior: 0.5 }, 'bad.json')).toThrowError(/bad\.json is not a monotone PAV function/)
  })
})
