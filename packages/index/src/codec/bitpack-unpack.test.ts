import { readFileSync } from 'node:fs'
import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { ByteWriter } from '../io/byte-writer.ts'
import { bitpackCodec } from './bitpack.ts'
import { bitpackUnpackSource } from './bitpack-unpack-source.ts'
import { vbyteCodec } from './vbyte.ts'

/**
 * The decoder `bitpackCodec` had before the generated routines, verbatim but for its scratch:
 * the packed bytes copied into zero-padded 32-bit words, then a generic loop over the values.
 * The reference the new decoder is pinned to.
 */
function genericDecode(bytes: Uint8Array, pos: number, out: Int32Array, count: number): number {
  const bits = bytes[pos]!
  const p = pos + 1
  if (bits === 0) {
    out.fill(0, 0, count)
    return p
  }
  const byteCount = (count * bits + 7) >>> 3
  const wordCount = (byteCount + 3) >>> 2
  const w = new Uint32Array(wordCount + 1)
  const wb = new Uint8Array(w.buffer)
  for (let i = 0; i < byteCount; i++) {
    wb[i] = bytes[p + i]!
  }
  if (bits === 32) {
    for (let i = 0; i < count; i++) {
      out[i] = w[i]!
    }
    return p + byteCount
  }
  const mask = (1 << bits) - 1
  let bitPos = 0
  for (let i = 0; i < count; i++) {
    const index = bitPos >>> 5
    const shift = bitPos & 31
    let v = w[index]! >>> shift
    if (shift + bits > 32) {
      v |= w[index + 1]! << (32 - shift)
    }
    out[i] = v & mask
    bitPos += bits
  }
  return p + byteCount
}

/** The postings reader's loops before the fused routines: the prefix sum of gaps − 1, and + 1. */
function genericGaps(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  count: number,
  base: number,
): number {
  const end = genericDecode(bytes, pos, out, count)
  let doc = base
  for (let i = 0; i < count; i++) {
    doc += out[i]! + 1
    out[i] = doc
  }
  return end
}

function genericAdd(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  count: number,
  add: number,
): number {
  const end = genericDecode(bytes, pos, out, count)
  for (let i = 0; i < count; i++) {
    out[i] = out[i]! + add
  }
  return end
}

/** `values` bit-packed at offset 3 after junk, followed by `trailer` (0xff: bits a decoder must not use). */
function packed(values: readonly number[], trailer = 0xff): { bytes: Uint8Array; end: number } {
  const out = new ByteWriter()
  out.u8(0xaa)
  out.u8(0x55)
  out.u8(0xee)
  bitpackCodec.encode(values, values.length, out)
  const end = out.length
  for (let i = 0; i < 8; i++) {
    out.u8(trailer)
  }
  return { bytes: out.view(), end }
}

/** Deterministic values of at most `bits` bits, the largest one included. */
function valuesOfWidth(bits: number, count: number, seed: number): number[] {
  if (bits === 0) {
    return new Array<number>(count).fill(0)
  }
  const max = 2 ** bits - 1
  let x = seed >>> 0 || 1
  const values = Array.from({ length: count }, () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return bits === 32 ? x : x % (max + 1)
  })
  values[Math.floor(count / 2)] = max
  return values
}

const COUNTS = [1, 7, 31, 32, 33, 64, 100, 127, 128]

describe('bitpack-unpack.ts', () => {
  it('is the generator’s output', () => {
    const committed = readFileSync(new URL('./bitpack-unpack.ts', import.meta.url), 'utf8')
    expect(committed).toBe(bitpackUnpackSource())
  })
})

describe('bitpackCodec decoding', () => {
  it('decodes a hand-packed run of width 3', () => {
    // 5 = 101, 2 = 010, 7 = 111, 0 = 000, 1 = 001, least significant bit first:
    // bits 0–7 = 1 0 1 | 0 1 0 | 1 1 → 0b11010101 = 0xd5; bits 8–15 = 1 | 0 0 0 | 1 0 0 | 0 → 0x11
    const bytes = Uint8Array.from([0x03, 0xd5, 0x11, 0xff, 0xff, 0xff, 0xff])
    const out = new Int32Array(5)
    expect(bitpackCodec.decode(bytes, 0, out, 5)).toBe(3)
    expect([...out]).toEqual([5, 2, 7, 0, 1])
    // documents from gaps − 1 after −1: 5, 5 + 3 = 8, 8 + 8 = 16, 16 + 1 = 17, 17 + 2 = 19
    expect(bitpackCodec.decodeGaps(bytes, 0, out, 5, -1)).toBe(3)
    expect([...out]).toEqual([5, 8, 16, 17, 19])
    // frequencies from freq − 1
    expect(bitpackCodec.decodeAdd(bytes, 0, out, 5, 1)).toBe(3)
    expect([...out]).toEqual([6, 3, 8, 1, 2])
  })

  it('decodes a hand-packed run of 32 values of width 5 (values straddling words)', () => {
    // values k = 0 … 31, 5 bits each: 160 bits = 20 bytes. Word 0 holds values 0–5 whole
    // (bits 0–29) and the low 2 bits of value 6 = 0b00110 (bits 30–31 get 0, 1):
    // 1·2^5 + 2·2^10 + 3·2^15 + 4·2^20 + 5·2^25 + 2·2^30 = 0x8a418820 → bytes 20 88 41 8a;
    // byte 4 = value 6's bits 2–4 (1, 0, 0) in bits 0–2, value 7 = 0b00111 in bits 3–7:
    // 0b00111001 = 0x39.
    const values = Array.from({ length: 32 }, (_, k) => k)
    const { bytes } = packed(values)
    expect([...bytes.subarray(3, 9)]).toEqual([0x05, 0x20, 0x88, 0x41, 0x8a, 0x39])
    const out = new Int32Array(32)
    expect(bitpackCodec.decode(bytes, 3, out, 32)).toBe(3 + 1 + 20)
    expect([...out]).toEqual(values)
    // documents: gap − 1 = k, so document k is −1 + Σ_{j ≤ k} (j + 1) = (k + 1)(k + 2)/2 − 1
    bitpackCodec.decodeGaps(bytes, 3, out, 32, -1)
    expect([...out]).toEqual(values.map((k) => ((k + 1) * (k + 2)) / 2 - 1))
  })

  it('decodes a block of zeros from its one byte', () => {
    const bytes = Uint8Array.from([0x00, 0xff, 0xff, 0xff, 0xff])
    const out = new Int32Array(128).fill(9)
    expect(bitpackCodec.decodeAdd(bytes, 0, out, 128, 1)).toBe(1)
    expect(out.every((v) => v === 1)).toBe(true)
    expect(bitpackCodec.decodeGaps(bytes, 0, out, 128, 41)).toBe(1)
    expect([...out]).toEqual(Array.from({ length: 128 }, (_, i) => 42 + i))
  })

  it('matches the generic algorithm for every width 0–32 and several counts', () => {
    for (let bits = 0; bits <= 32; bits++) {
      for (const count of COUNTS) {
        const values = valuesOfWidth(bits, count, 7919 * (bits + 1) + count)
        for (const trailer of [0x00, 0xff]) {
          const { bytes, end } = packed(values, trailer)
          expect(bytes[3]).toBe(bits)
          const expected = new Int32Array(count)
          const actual = new Int32Array(count)
          const what = `width ${bits}, ${count} values`
          expect(genericDecode(bytes, 3, expected, count), what).toBe(end)
          expect(bitpackCodec.decode(bytes, 3, actual, count), what).toBe(end)
          expect([...actual], what).toEqual([...expected])
          for (const add of [0, 1]) {
            genericAdd(bytes, 3, expected, count, add)
            expect(bitpackCodec.decodeAdd(bytes, 3, actual, count, add), what).toBe(end)
            expect([...actual], `${what}, + ${add}`).toEqual([...expected])
          }
          if (bits <= 24) {
            // documents stay below 2^31 (real gaps are far smaller)
            for (const base of [-1, 1000]) {
              genericGaps(bytes, 3, expected, count, base)
              expect(bitpackCodec.decodeGaps(bytes, 3, actual, count, base), what).toBe(end)
              expect([...actual], `${what}, gaps from ${base}`).toEqual([...expected])
            }
          }
        }
      }
    }
  })

  it('rejects a block that ends past its bytes or starts past them', () => {
    // width 8, 40 values: 1 + 40 bytes; only 30 given
    const bytes = new Uint8Array(30)
    bytes[0] = 8
    const out = new Int32Array(40)
    for (const [decode, message] of [
      [() => bitpackCodec.decodeAdd(bytes, 0, out, 40, 1), /ends at byte 41, past the 30 bytes/],
      [() => bitpackCodec.decodeGaps(bytes, 0, out, 40, -1), /ends at byte 41, past the 30 bytes/],
      [() => bitpackCodec.decodeGaps(bytes, 30, out, 1, -1), /starts at byte 30, past the end/],
    ] as const) {
      let error: unknown
      try {
        decode()
      } catch (e) {
        error = e
      }
      expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
      expect((error as Error).message).toMatch(message)
    }
  })

  it('rejects a width above 32', () => {
    const bytes = Uint8Array.from([33, 0, 0, 0, 0])
    const out = new Int32Array(4)
    for (const decode of [
      () => bitpackCodec.decodeAdd(bytes, 0, out, 4, 1),
      () => bitpackCodec.decodeGaps(bytes, 0, out, 4, -1),
    ]) {
      let error: unknown
      try {
        decode()
      } catch (e) {
        error = e
      }
      expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
      expect((error as Error).message).toMatch(/width 33/)
    }
  })
})

describe('vbyteCodec fused decoding', () => {
  it('adds to each value and sums gaps as the generic loops do', () => {
    // 3, 0, 200 (0xc8 0x01): + 1 → 4, 1, 201; gaps − 1 after 10 → 14, 15, 216
    const bytes = Uint8Array.from([0x03, 0x00, 0xc8, 0x01])
    const out = new Int32Array(3)
    expect(vbyteCodec.decodeAdd(bytes, 0, out, 3, 1)).toBe(4)
    expect([...out]).toEqual([4, 1, 201])
    expect(vbyteCodec.decodeGaps(bytes, 0, out, 3, 10)).toBe(4)
    expect([...out]).toEqual([14, 15, 216])
  })
})
