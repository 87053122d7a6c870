import type { ByteWriter } from '../io/byte-writer.ts'
import type { BlockCodec } from './block-codec.ts'

/**
 * Frame-of-reference bit packing: one byte with the bit width `w` of the largest value, then
 * the `count` values packed `w` bits each, least significant bit first, padded to a whole
 * byte. A block of zeros (e.g. all frequencies 1, stored as `freq − 1`) takes one byte.
 */
export const bitpackCodec: BlockCodec = {
  name: 'bitpack',
  encode(values: ArrayLike<number>, count: number, out: ByteWriter): void {
    let or = 0
    for (let i = 0; i < count; i++) {
      or |= values[i]!
    }
    const bits = 32 - Math.clz32(or)
    out.u8(bits)
    if (bits === 0) {
      return
    }
    const byteCount = (count * bits + 7) >>> 3
    out.ensure(byteCount)
    let acc = 0 // pending bits, fewer than 8 after each flush
    let accBits = 0
    for (let i = 0; i < count; i++) {
      const value = values[i]! >>> 0
      // Emit the value in pieces of at most 16 bits so `acc` never overflows 32 bits.
      let remaining = bits
      let v = value
      while (remaining > 0) {
        const take = remaining > 16 ? 16 : remaining
        acc |= (v & ((1 << take) - 1)) << accBits
        accBits += take
        v = take === 16 ? v >>> 16 : 0
        remaining -= take
        while (accBits >= 8) {
          out.u8(acc & 0xff)
          acc >>>= 8
          accBits -= 8
        }
      }
    }
    if (accBits > 0) {
      out.u8(acc & 0xff)
    }
  },
  decode(bytes: Uint8Array, pos: number, out: Int32Array, count: number): number {
    const bits = bytes[pos]!
    const p = pos + 1
    if (bits === 0) {
      out.fill(0, 0, count)
      return p
    }
    const byteCount = (count * bits + 7) >>> 3
    // Copy the packed bytes into an aligned scratch of 32-bit words, then unpack word-wise.
    const wordCount = (byteCount + 3) >>> 2
    if (words.length < wordCount + 1) {
      words = new Uint32Array(2 * wordCount + 2)
      wordBytes = new Uint8Array(words.buffer)
    }
    words[wordCount - 1] = 0
    words[wordCount] = 0
    // byte by byte: a view of `bytes` per block (`subarray`) costs more than copying a block
    const wb = wordBytes
    for (let i = 0; i < byteCount; i++) {
      wb[i] = bytes[p + i]!
    }
    const w = words
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
  },
}

/** Aligned scratch for decoding (one block at a time; decoding is synchronous). */
let words = new Uint32Array(2 * 32 + 2)
let wordBytes = new Uint8Array(words.buffer)
