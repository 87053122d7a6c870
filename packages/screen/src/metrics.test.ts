import { describe, expect, it } from 'vitest'
import { cohenWss, recallAt, recordsToRecall, roundHalfEven, screeningMetrics, timesToDiscovery, wssAt } from './metrics.ts'

// Two toy screening orders. Every expected value is worked out by hand below and is also what
// asreview-insights 1.6.1 gives (`_wss`, `_recall`, `_average_time_to_discovery` on the same lists).
const A = [1, 0, 1, 0, 0, 0, 0, 0, 0, 1] // n 10, relevant at 1, 3, 10
const B = [0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0] // n 25, relevant at 3, 5, 6, 12, 21

describe('roundHalfEven', () => {
  it('rounds halves to the even neighbour as NumPy does', () => {
    expect([0.5, 1.5, 2.5, 2.4, 2.6, 3].map(roundHalfEven)).toEqual([0, 2, 2, 2, 3, 3])
  })
})

describe('recallAt', () => {
  it('is the recall after the last position i with i/n ≤ share', () => {
    // A: 10 % → position 1 → 1 of 3; 25 % → positions 1–2 → still 1 of 3
    expect(recallAt(A, 0.1)).toBeCloseTo(1 / 3, 12)
    expect(recallAt(A, 0.25)).toBeCloseTo(1 / 3, 12)
    // B: 10 % → positions 1–2 → 0; 25 % → positions 1–6 → 3 of 5
    expect(recallAt(B, 0.1)).toBe(0)
    expect(recallAt(B, 0.25)).toBeCloseTo(0.6, 12)
    expect(recallAt(B, 0.01)).toBe(0)
    expect(recallAt(B, 1)).toBe(1)
  })
})

describe('wssAt (asreview-insights form)', () => {
  it('A: WSS@95 0.3, WSS@100 −0.1', () => {
    // k = 2 (2/3 ≤ 0.95 < 3/3): found at index 2; random = round(linspace(0, 3, 10)) =
    // [0,0,1,1,1,2,2,2,3,3] reaches 2 at index 5 → (5 − 2)/10
    expect(wssAt(A, 0.95)).toBeCloseTo(0.3, 12)
    // k = 3: found at index 9, random reaches 3 at index 8 → (8 − 9)/10
    expect(wssAt(A, 1)).toBeCloseTo(-0.1, 12)
  })
  it('B: WSS@95 0.24, WSS@100 0.08', () => {
    // k = 4: found at index 11; random i·5/24 rounds to 4 first at i = 17 (3.54) → (17 − 11)/25
    expect(wssAt(B, 0.95)).toBeCloseTo(0.24, 12)
    // k = 5: found at index 20; random rounds to 5 first at i = 22 (4.58) → (22 − 20)/25
    expect(wssAt(B, 1)).toBeCloseTo(0.08, 12)
  })
  it('rejects labels without a relevant record', () => {
    expect(() => wssAt([0, 0], 0.95)).toThrow(/at least one relevant/)
    expect(() => wssAt([0, 2], 0.95)).toThrow(/0 or 1/)
  })
})

describe('Cohen 2006 WSS and the screening counts', () => {
  it('A: 95 % needs all 3 relevant → position 10 → (0)/10 − 0.05', () => {
    expect(recordsToRecall(A, 0.95)).toBe(10)
    expect(cohenWss(A, 0.95)).toBeCloseTo(-0.05, 12)
  })
  it('B: 95 % of 5 needs 5 → position 21 → 4/25 − 0.05 = 0.11', () => {
    expect(recordsToRecall(B, 0.95)).toBe(21)
    expect(recordsToRecall(B, 0.6)).toBe(6)
    expect(cohenWss(B, 0.95)).toBeCloseTo(0.11, 12)
  })
})

describe('screeningMetrics', () => {
  it('gathers the metrics; ATD is the mean 1-based position of the relevant records', () => {
    expect(timesToDiscovery(B)).toEqual([3, 5, 6, 12, 21])
    const m = screeningMetrics(B)
    expect(m.atd).toBeCloseTo(9.4, 12)
    expect(m.atdShare).toBeCloseTo(9.4 / 25, 12)
    expect(m).toMatchObject({ records: 25, relevant: 5, toRecall95: 21, toRecall100: 21 })
    expect(screeningMetrics(A).atd).toBeCloseTo(14 / 3, 12)
  })
  it('pads a simulation that stopped early with zeros, as insights does', () => {
    const m = screeningMetrics(B.slice(0, 21), 25)
    expect(m.wss95).toBeCloseTo(0.24, 12)
    expect(() => screeningMetrics(B, 3)).toThrow(/less than/)
  })
})
