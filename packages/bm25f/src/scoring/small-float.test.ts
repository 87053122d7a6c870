import { describe, expect, it } from 'vitest'
import { byte315ToFloat, byte4ToInt, floatToByte315, intToByte4 } from './small-float.ts'

describe('floatToByte315 / byte315ToFloat', () => {
  it('encodes the known Lucene norms', () => {
    // 1.0f = 0x3F800000; >> 21 = 508; 508 − (63 − 15)·8 = 124
    expect(floatToByte315(1)).toBe(124)
    expect(byte315ToFloat(124)).toBe(1)
    expect(floatToByte315(0.5)).toBe(120)
    expect(byte315ToFloat(120)).toBe(0.5)
  })

  it('truncates 1/sqrt(length) to 3 significant bits, as Lucene ≤ 6 fieldNorm', () => {
    // the codes 120..127 decode to 0.5, 0.625, 0.75, 0.875, 1, 1.25, 1.5, 1.75 (steps of 1/4)
    expect([120, 121, 122, 123, 124, 125, 126, 127].map(byte315ToFloat)).toEqual([
      0.5, 0.625, 0.75, 0.875, 1, 1.25, 1.5, 1.75,
    ])
    // 1/sqrt(2) = 0.707 → 0.625; 1/sqrt(3) = 0.577 → 0.5; 1/sqrt(5) = 0.447 → 0.25·1.75 = 0.4375;
    // 1/sqrt(100) = 0.1 → 0.0625·1.5 = 0.09375
    const norm = (length: number): number => byte315ToFloat(floatToByte315(1 / Math.sqrt(length)))
    expect([1, 2, 3, 4, 5, 100].map(norm)).toEqual([1, 0.625, 0.5, 0.5, 0.4375, 0.09375])
  })

  it('maps zero and negatives to 0, underflow to 1 and overflow to 255', () => {
    expect(floatToByte315(0)).toBe(0)
    expect(floatToByte315(-3)).toBe(0)
    expect(byte315ToFloat(0)).toBe(0)
    expect(floatToByte315(1e-12)).toBe(1)
    expect(floatToByte315(1e12)).toBe(255)
    expect(byte315ToFloat(255)).toBe(7516192768)
  })

  it('never rounds up and is monotone', () => {
    let previous = 0
    for (let length = 1; length <= 5000; length++) {
      const exact = Math.fround(1 / Math.sqrt(length))
      const decoded = byte315ToFloat(floatToByte315(exact))
      expect(decoded).toBeLessThanOrEqual(exact)
      expect(decoded).toBeGreaterThan(exact * 0.8)
      if (length > 1) {
        expect(decoded).toBeLessThanOrEqual(previous)
      }
      previous = decoded
    }
  })
})

describe('intToByte4 / byte4ToInt', () => {
  it('stores lengths below 24 exactly', () => {
    for (let length = 0; length < 24; length++) {
      expect(intToByte4(length)).toBe(length)
      expect(byte4ToInt(length)).toBe(length)
    }
  })

  it('keeps 4 significant bits of length − 24 above', () => {
    // 30 − 24 = 6 (< 8, exact); 41 − 24 = 17 = 0b10001 → 0b1000·2 = 16 → 40
    expect(byte4ToInt(intToByte4(30))).toBe(30)
    expect(intToByte4(40)).toBe(40)
    expect(intToByte4(41)).toBe(40)
    expect(byte4ToInt(intToByte4(41))).toBe(40)
    expect(byte4ToInt(intToByte4(1000))).toBe(984)
    expect(intToByte4(2 ** 31 - 1)).toBe(255)
  })

  it('decodes to at most the length and more than 8/9 of it, monotonically', () => {
    let previous = 0
    for (let length = 1; length <= 1 << 20; length++) {
      const decoded = byte4ToInt(intToByte4(length))
      if (!(decoded <= length && decoded > (8 / 9) * length && decoded >= previous)) {
        expect({ length, decoded, previous }).toBeUndefined()
      }
      previous = decoded
    }
    for (let byte = 0; byte < 256; byte++) {
      expect(intToByte4(byte4ToInt(byte))).toBe(byte)
    }
  })
})
