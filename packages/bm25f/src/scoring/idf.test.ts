import { describe, expect, it } from 'vitest'
import { classicIdf, luceneIdf, rsjIdf, smoothIdf } from './idf.ts'

describe('idf', () => {
  it('matches hand-computed values for N = 10, n = 2', () => {
    // rsj: ln(8.5 / 2.5) = ln 3.4; lucene: ln(1 + 3.4) = ln 4.4
    expect(rsjIdf(10, 2)).toBeCloseTo(1.2237754316221157, 14)
    expect(luceneIdf(10, 2)).toBeCloseTo(1.4816045409242156, 14)
  })

  it('matches hand-computed values for N = 9, n = 2', () => {
    // classic: 1 + ln(9 / 3) = 1 + ln 3; smooth: 1 + ln(10 / 3)
    expect(classicIdf(9, 2)).toBeCloseTo(2.09861228866811, 13)
    expect(smoothIdf(9, 2)).toBeCloseTo(2.203972804325936, 13)
  })

  it('makes RSJ negative above half the collection and Lucene never negative', () => {
    expect(rsjIdf(10, 5)).toBe(0)
    expect(rsjIdf(10, 8)).toBeLessThan(0)
    expect(luceneIdf(10, 10)).toBeGreaterThan(0)
    expect(classicIdf(10, 10)).toBeGreaterThan(0)
  })
})
