import { PubmatchError } from '@pubmatch/core'
import type { ByteWriter } from '../io/byte-writer.ts'
import type { BlockCodec } from './block-codec.ts'
import { UNPACK_ADD, UNPACK_GAPS } from './bitpack-unpack.ts'

/**
 * Frame-of-reference bit packing: one byte with the bit width `w` of the largest value, then
 * the `count` values packed `w` bits each, least significant bit first, padded to a whole
 * byte. A block of zeros (e.g. all frequencies 1, stored as `freq − 1`) takes one byte.
 *
 * Decoding reads the packed bytes in place: each whole run of 32 values (`w` words) goes through
 * the straight-line routine of its width (`bitpack-unpack.ts`, generated), which reads words
 * through a `DataView` of the bytes; the rest goes value by value, where a value's last word may
 * take up to 3 bytes after the run (every segment file ends with an 8-byte footer; past the end
 * of the array a read is 0), whose bits are never used.
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
    return decodeAdd(bytes, pos, out, count, 0)
  },
  decodeAdd,
  decodeGaps(bytes: Uint8Array, pos: number, out: Int32Array, count: number, base: number): number {
    const bits = bytes[pos]
    if (bits === undefined || bits > 32) {
      throw badWidth(bits, pos)
    }
    const p = pos + 1
    const end = p + ((count * bits + 7) >>> 3)
    if (end > bytes.length) {
      throw pastEnd(end, bytes.length)
    }
    const groups = count >>> 5
    let doc = base
    if (groups > 0) {
      doc = UNPACK_GAPS[bits]!(viewOf(bytes), p, out, groups, base)
    }
    const from = groups << 5
    if (from < count) {
      restGaps(bytes, p + groups * 4 * bits, bits, out, from, count, doc)
    }
    return end
  },
}

function decodeAdd(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  count: number,
  add: number,
): number {
  const bits = bytes[pos]
  if (bits === undefined || bits > 32) {
    throw badWidth(bits, pos)
  }
  const p = pos + 1
  const end = p + ((count * bits + 7) >>> 3)
  if (end > bytes.length) {
    throw pastEnd(end, bytes.length)
  }
  const groups = count >>> 5
  if (groups > 0) {
    UNPACK_ADD[bits]!(viewOf(bytes), p, out, groups, add)
  }
  const from = groups << 5
  if (from < count) {
    restAdd(bytes, p + groups * 4 * bits, bits, out, from, count, add)
  }
  return end
}

/** The little-endian 32-bit word at `b[at…]` (bytes past the end read as 0). */
function wordAt(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24) | 0
}

/** The value at bit `bitPos` of the values packed `bits` wide (1 – 32) from `b[q…]`. */
function valueAt(b: Uint8Array, q: number, bits: number, bitPos: number): number {
  const at = q + ((bitPos >>> 5) << 2)
  const shift = bitPos & 31
  let v = wordAt(b, at) >>> shift
  if (shift + bits > 32) {
    v |= wordAt(b, at + 4) << (32 - shift)
  }
  return bits === 32 ? v | 0 : v & ((1 << bits) - 1)
}

/** `out[from…count)` = the values packed from `b[q…]` plus `add` (a block's last, partial run). */
function restAdd(
  b: Uint8Array,
  q: number,
  bits: number,
  out: Int32Array,
  from: number,
  count: number,
  add: number,
): void {
  if (bits === 0) {
    out.fill(add, from, count)
    return
  }
  for (let i = from, bitPos = 0; i < count; i++, bitPos += bits) {
    out[i] = valueAt(b, q, bits, bitPos) + add
  }
}

/** `out[from…count)` = the documents after `doc` from the gaps − 1 packed from `b[q…]`. */
function restGaps(
  b: Uint8Array,
  q: number,
  bits: number,
  out: Int32Array,
  from: number,
  count: number,
  doc: number,
): void {
  let d = doc
  if (bits === 0) {
    for (let i = from; i < count; i++) {
      out[i] = ++d
    }
    return
  }
  for (let i = from, bitPos = 0; i < count; i++, bitPos += bits) {
    d += valueAt(b, q, bits, bitPos) + 1
    out[i] = d
  }
}

function badWidth(bits: number | undefined, pos: number): PubmatchError {
  return new PubmatchError(
    'INDEX_CORRUPTED',
    bits === undefined
      ? `a bit-packed block starts at byte ${pos}, past the end of the bytes`
      : `a bit-packed block at byte ${pos} has width ${bits} (at most 32)`,
    { details: { position: pos } },
  )
}

/** The `DataView` of the bytes decoded last (a segment's `.pst`: one per segment, made again only on a switch). */
let viewBytes: Uint8Array | null = null
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0))

/** A `DataView` of `bytes`. */
function viewOf(bytes: Uint8Array): DataView<ArrayBufferLike> {
  if (bytes !== viewBytes) {
    viewBytes = bytes
    view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  return view
}

function pastEnd(end: number, length: number): PubmatchError {
  return new PubmatchError(
    'INDEX_CORRUPTED',
    `a bit-packed block ends at byte ${end}, past the ${length} bytes it is read from`,
    { details: { position: end } },
  )
}
