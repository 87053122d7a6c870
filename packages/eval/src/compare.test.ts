import { describe, expect, it } from 'vitest'
import { compareRuns } from './compare.ts'
import { fakeResult } from '../test/fake-result.ts'

describe('compareRuns', () => {
  const runs = {
    base: fakeResult('map', [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]),
    better: fakeResult('map', [0.3, 0.6, 0.2, 0.8, 0.3, 0.9]),
    same: fakeResult('map', [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]),
  }

  it('tests every run against the baseline with an exact randomisation test for small samples', () => {
    const c = compareRuns(runs, { baseline: 'base' })
    expect(c.rows.map((r) => r.run)).toEqual(['base', 'better', 'same'])
    const better = c.rows[1]?.cells[0]
    // differences .1 .2 .1 .3 0 .3 (sum 1.0): only the all-positive and all-negative sign
    // patterns reach |1.0|, and the zero difference doubles them → 4 of 64
    expect(better).toMatchObject({
      measure: 'map',
      wins: 5,
      ties: 1,
      losses: 0,
      pValue: 4 / 64,
      significant: false,
    })
    expect(better?.difference).toBeCloseTo(1 / 6, 12)
    expect(c.rows[0]?.cells[0]?.pValue).toBeUndefined()
    expect(c.rows[2]?.cells[0]).toMatchObject({ pValue: 1, significant: false, difference: 0 })
  })

  it('uses the paired t-test when asked and marks p ≤ alpha as significant', () => {
    const c = compareRuns(runs, { baseline: 'base', test: 't-test' })
    // scipy.stats.ttest_rel: t = 3.3709993123162096, p = 0.019868051523379452
    expect(c.rows[1]?.cells[0]?.pValue).toBeCloseTo(0.019868051523379452, 12)
    expect(c.rows[1]?.cells[0]?.significant).toBe(true)
  })

  it('applies Bonferroni and Holm corrections over all tests', () => {
    const t = compareRuns(runs, { baseline: 'base', test: 't-test' })
    const p = t.rows[1]?.cells[0]?.pValue ?? Number.NaN
    const bonferroni = compareRuns(runs, {
      baseline: 'base',
      test: 't-test',
      correction: 'bonferroni',
    })
    expect(bonferroni.rows[1]?.cells[0]?.pValue).toBeCloseTo(2 * p, 12)
    const holm = compareRuns(runs, { baseline: 'base', test: 't-test', correction: 'holm' })
    // the smaller p is multiplied by 2, the larger (1) by 1, monotone
    expect(holm.rows[1]?.cells[0]?.pValue).toBeCloseTo(2 * p, 12)
    expect(holm.rows[2]?.cells[0]?.pValue).toBe(1)
  })

  it('rejects an unknown baseline', () => {
    expect(() => compareRuns(runs, { baseline: 'nope' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: baseline "nope" is not one of the runs (base, better, same)]`,
    )
  })
})
