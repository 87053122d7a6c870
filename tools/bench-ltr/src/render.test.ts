import { describe, expect, it } from 'vitest'
import { fmt, latencyRow, ratio } from './render.ts'

describe('fmt', () => {
  it('rounds to fixed decimals with thousands separators', () => {
    expect(fmt(12345.678, 1)).toBe('12,345.7')
    expect(fmt(0.0004, 3)).toBe('0.000')
    expect(fmt(2)).toBe('2.00')
    expect(fmt(Number.NaN)).toBe('NaN')
  })
})

describe('latencyRow', () => {
  it('lists p50, p95, p99 and mean with 3 decimals, then the count', () => {
    expect(latencyRow('x', { count: 3, mean: 2, p50: 1.5, p95: 3.25, p99: 3.25, min: 1, max: 3.25 })).toEqual([
      'x',
      '1.500',
      '3.250',
      '3.250',
      '2.000',
      '3',
    ])
  })
})

describe('ratio', () => {
  it('divides with two decimals, and gives a dash for a zero denominator', () => {
    expect(ratio(7, 2)).toBe('3.50×')
    expect(ratio(1, 0)).toBe('–')
  })
})
