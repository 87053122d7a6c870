import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteWriter } from '../io/byte-writer.ts'
import { bitpackCodec } from './bitpack.ts'
import type { BlockCodec } from './block-codec.ts'
import { codecByName } from './codecs.ts'
import { vbyteCodec } from './vbyte.ts'

function encode(codec: BlockCodec, values: readonly number[]): number[] {
  const out = new ByteWriter()
  codec.encode(values, values.length, out)
  return [...out.view()]
}

function roundTrip(codec: BlockCodec, values: readonly number[]): number[] {
  const out = new ByteWriter()
  out.u8(0xee) // a leading byte, so decoding starts at an offset
  codec.encode(values, values.length, out)
  const end = out.length
  out.u32(0) // the 8-byte footer every file has; bitpack may read into it
  out.u32(0)
  const decoded = new Int32Array(Math.max(1, values.length))
  expect(codec.decode(out.view(), 1, decoded, values.length)).toBe(end)
  return [...decoded.subarray(0, values.length)].map((v) => v >>> 0)
}

describe('vbyteCodec', () => {
  it('writes 7 bits per byte, low group first, high bit = more', () => {
    // 300 = 0b10_0101100 → 0xac (0x2c | 0x80), 0x02
    expect(encode(vbyteCodec, [0, 127, 128, 300])).toEqual([0x00, 0x7f, 0x80, 0x01, 0xac, 0x02])
  })

  it('round-trips any run of uint32 values', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 128 }), (values) => {
        expect(roundTrip(vbyteCodec, values)).toEqual(values)
      }),
    )
  })
})

describe('bitpackCodec', () => {
  it('writes the bit width, then the values least significant bit first', () => {
    // width 2: 1 → 01, 2 → 10, 3 → 11 ⇒ 0b11_10_01 = 0x39
    expect(encode(bitpackCodec, [1, 2, 3])).toEqual([0x02, 0x39])
  })

  it('stores a run of zeros as one byte', () => {
    expect(encode(bitpackCodec, new Array<number>(128).fill(0))).toEqual([0x00])
  })

  it('spans byte boundaries', () => {
    // width 9: 0x1ff, 0x001 → bits 1×9 then 1 then zeros: bytes 0xff, 0x03, 0x00
    expect(encode(bitpackCodec, [0x1ff, 1])).toEqual([0x09, 0xff, 0x03, 0x00])
  })

  it('round-trips any run of uint32 values', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 128 }), (values) => {
        expect(roundTrip(bitpackCodec, values)).toEqual(values)
      }),
    )
  })

  it('round-trips small values of every width', () => {
    for (let bits = 1; bits <= 32; bits++) {
      const max = 2 ** bits - 1
      const values = Array.from({ length: 128 }, (_, i) => (i * 2654435761) % (max + 1))
      values[7] = max
      expect(roundTrip(bitpackCodec, values)).toEqual(values)
    }
  })
})

describe('codecByName', () => {
  it('finds both codecs and rejects other names', () => {
    expect(codecByName('vbyte')).toBe(vbyteCodec)
    expect(codecByName('bitpack')).toBe(bitpackCodec)
    expect(() => codecByName('lz4' as never)).toThrow(/unknown block codec "lz4"/)
  })
})
