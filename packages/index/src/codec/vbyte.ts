import type { ByteWriter } from '../io/byte-writer.ts'
import type { BlockCodec } from './block-codec.ts'

/**
 * Variable-byte (LEB128) block codec: 7 bits per byte, the high bit says that more bytes
 * follow. Values below 128 take one byte.
 */
export const vbyteCodec: BlockCodec = {
  name: 'vbyte',
  encode(values: ArrayLike<number>, count: number, out: ByteWriter): void {
    for (let i = 0; i < count; i++) {
      out.vint(values[i]!)
    }
  },
  decode(bytes: Uint8Array, pos: number, out: Int32Array, count: number): number {
    return decodeAdd(bytes, pos, out, count, 0)
  },
  decodeAdd,
  decodeGaps(bytes: Uint8Array, pos: number, out: Int32Array, count: number, base: number): number {
    const p = decodeAdd(bytes, pos, out, count, 0)
    let doc = base
    for (let i = 0; i < count; i++) {
      doc += out[i]! + 1
      out[i] = doc
    }
    return p
  },
}

function decodeAdd(
  bytes: Uint8Array,
  pos: number,
  out: Int32Array,
  count: number,
  add: number,
): number {
  let p = pos
  for (let i = 0; i < count; i++) {
    let byte = bytes[p++]!
    let value = byte & 0x7f
    let shift = 7
    while (byte >= 0x80) {
      byte = bytes[p++]!
      value |= (byte & 0x7f) << shift
      shift += 7
    }
    out[i] = value + add
  }
  return p
}
