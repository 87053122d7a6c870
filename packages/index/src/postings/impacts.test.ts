import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  coarsenImpacts,
  competitiveImpacts,
  maxOverImpacts,
  mergeImpacts,
} from './impacts.ts'

describe('competitiveImpacts', () => {
  it('keeps the pairs no other pair beats on both frequency and length', () => {
    // (2,10) beats (1,12) and (2,30); (5,40) beats (3,50); (1,8) is the shortest
    const freqs = [1, 2, 2, 3, 5, 1]
    const lengths = [12, 10, 30, 50, 40, 8]
    expect(competitiveImpacts(freqs, lengths, 6)).toEqual([
      { freq: 1, length: 8 },
      { freq: 2, length: 10 },
      { freq: 5, length: 40 },
    ])
  })

  it('bounds every document for any BM25 parameters', () => {
    const doc = fc.record({ freq: fc.integer({ min: 1, max: 40 }), length: fc.integer({ min: 1, max: 500 }) })
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 128 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 300, noNaN: true }),
        fc.integer({ min: 1, max: 12 }),
        (docs, b, avgLength, max) => {
          const impacts = competitiveImpacts(
            docs.map((d) => d.freq),
            docs.map((d) => d.length),
            docs.length,
            max,
          )
          expect(impacts.length).toBeLessThanOrEqual(max)
          // BM25F's per-field pseudo-frequency grows with freq and falls with length
          const pseudoFrequency = (freq: number, length: number): number => freq / (1 - b + (b * length) / avgLength)
          const bound = maxOverImpacts(impacts, pseudoFrequency)
          const exact = Math.max(...docs.map((d) => pseudoFrequency(d.freq, d.length)))
          expect(bound).toBeGreaterThanOrEqual(exact * (1 - 1e-12))
          if (max >= docs.length) {
            expect(bound).toBeCloseTo(exact, 9)
          }
        },
      ),
    )
  })
})

describe('coarsenImpacts', () => {
  it('merges the neighbours with the closest frequencies into a dominating pair', () => {
    const impacts = [
      { freq: 1, length: 5 },
      { freq: 2, length: 9 },
      { freq: 10, length: 50 },
    ]
    expect(coarsenImpacts(impacts, 2)).toEqual([
      { freq: 2, length: 5 },
      { freq: 10, length: 50 },
    ])
  })
})

describe('mergeImpacts', () => {
  it('is the frontier of the union', () => {
    expect(
      mergeImpacts([
        [{ freq: 1, length: 3 }, { freq: 4, length: 20 }],
        [{ freq: 2, length: 3 }, { freq: 3, length: 30 }],
      ]),
    ).toEqual([
      { freq: 2, length: 3 },
      { freq: 4, length: 20 },
    ])
  })
})

describe('maxOverImpacts', () => {
  it('takes the largest value over the impacts, 0 for none', () => {
    // w=2, b=0.75, avg=10: (1,5) → 2/(0.25+0.375)=3.2; (3,20) → 6/(0.25+1.5)=3.428571…
    const impacts = [
      { freq: 1, length: 5 },
      { freq: 3, length: 20 },
    ]
    expect(maxOverImpacts(impacts, (freq, length) => (2 * freq) / (0.25 + (0.75 * length) / 10))).toBeCloseTo(6 / 1.75, 12)
    expect(maxOverImpacts(impacts, (freq, length) => freq / length)).toBe(0.2)
    expect(maxOverImpacts([], () => 1)).toBe(0)
  })
})
