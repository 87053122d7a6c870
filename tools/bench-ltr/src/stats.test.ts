import { describe, expect, it } from 'vitest'
import { countDistribution, cpuSeconds, perSecond, splitRanges, summarize } from './stats.ts'

describe('summarize', () => {
  it('gives mean, p50/p95/p99, min and max of unsorted samples, in the fields of the results', () => {
    // 1 … 200 shuffled: mean 100.5; p50 = 100th, p95 = 190th, p99 = 198th value
    const samples = Array.from({ length: 200 }, (_, i) => ((i * 37) % 200) + 1)
    expect(summarize(samples)).toEqual({ count: 200, mean: 100.5, p50: 100, p95: 190, p99: 198, min: 1, max: 200 })
    expect(Object.keys(summarize(samples))).toEqual(['count', 'mean', 'p50', 'p95', 'p99', 'min', 'max'])
  })

  it('summarises one sample as itself', () => {
    expect(summarize([2.5])).toEqual({ count: 1, mean: 2.5, p50: 2.5, p95: 2.5, p99: 2.5, min: 2.5, max: 2.5 })
  })

  it('rejects no samples', () => {
    expect(() => summarize([])).toThrowError(/a summary needs at least one sample/)
  })
})

describe('countDistribution', () => {
  it('counts values per inclusive range and labels single-value ranges by the value', () => {
    const buckets = countDistribution([500, 500, 499, 250, 17, 0, 1], [
      [500, 500],
      [250, 499],
      [1, 249],
      [0, 0],
    ])
    expect(buckets.map((b) => [b.label, b.count])).toEqual([
      ['500', 2],
      ['250–499', 2],
      ['1–249', 2],
      ['0', 1],
    ])
  })

  it('rejects a value in no range', () => {
    expect(() => countDistribution([501], [[0, 500]])).toThrowError(/501 is in no bucket/)
  })
})

describe('cpuSeconds', () => {
  it('adds user and system microseconds between two readings', () => {
    expect(cpuSeconds({ user: 1_000_000, system: 250_000 }, { user: 3_500_000, system: 500_000 })).toBeCloseTo(2.75, 12)
  })
})

describe('perSecond', () => {
  it('turns items and milliseconds into items per second', () => {
    expect(perSecond(325, 1300)).toBe(250)
  })

  it('rejects a zero time', () => {
    expect(() => perSecond(1, 0)).toThrowError(/positive time, got 0 ms/)
  })
})

describe('splitRanges', () => {
  it('splits into contiguous ranges, larger first', () => {
    expect(splitRanges(500, 2)).toEqual([
      [0, 250],
      [250, 500],
    ])
    expect(splitRanges(5, 2)).toEqual([
      [0, 3],
      [3, 5],
    ])
    expect(splitRanges(7, 3)).toEqual([
      [0, 3],
      [3, 5],
      [5, 7],
    ])
  })

  it('drops empty ranges', () => {
    expect(splitRanges(1, 2)).toEqual([[0, 1]])
    expect(splitRanges(0, 2)).toEqual([])
  })

  it('rejects a non-positive part count', () => {
    expect(() => splitRanges(10, 0)).toThrowError(/parts must be a positive integer, got 0/)
  })
})
