import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LengthRangeMin } from './length-bounds.ts'

describe('LengthRangeMin', () => {
  it('never exceeds the true minimum of a range, and equals it over whole 128-document chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 1200 }),
        fc.nat(),
        fc.nat(),
        (values, x, y) => {
          const lengths = Uint32Array.from(values)
          const mins = new LengthRangeMin(lengths)
          const from = x % lengths.length
          const to = from + (y % (lengths.length - from))
          const truth = Math.min(...values.slice(from, to + 1))
          expect(mins.min(from, to)).toBeLessThanOrEqual(truth)
          const chunkFrom = from - (from % 128)
          const chunkTo = Math.min(lengths.length - 1, to - (to % 128) + 127)
          expect(mins.min(from, to)).toBe(Math.min(...values.slice(chunkFrom, chunkTo + 1)))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('accepts an end past the last document', () => {
    const mins = new LengthRangeMin(Uint32Array.of(5, 3, 9))
    expect(mins.min(2, 2 ** 31 - 1)).toBe(3)
  })
})
