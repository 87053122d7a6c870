const textDecoder = new TextDecoder('utf-8', { fatal: false })

/**
 * A cursor over little-endian bytes, the reading side of {@link ByteWriter}. Reads past the
 * end return zeros; callers check lengths where that matters (file headers and footers
 * are verified before any reader is built, see `file-format.ts`).
 */
export class ByteReader {
  /** The bytes read. */
  readonly bytes: Uint8Array
  /** The next byte to read. */
  pos: number

  /**
   * @param bytes - the bytes to read
   * @param pos - where to start. Defaults to `0`.
   */
  constructor(bytes: Uint8Array, pos = 0) {
    this.bytes = bytes
    this.pos = pos
  }

  /** Reads one byte. */
  u8(): number {
    return this.bytes[this.pos++] ?? 0
  }

  /** Reads an unsigned 32-bit little-endian integer. */
  u32(): number {
    const b = this.bytes
    const i = this.pos
    this.pos = i + 4
    return ((b[i] ?? 0) | ((b[i + 1] ?? 0) << 8) | ((b[i + 2] ?? 0) << 16) | ((b[i + 3] ?? 0) << 24)) >>> 0
  }

  /** Reads a little-endian 64-bit float. */
  f64(): number {
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset).getFloat64(this.pos, true)
    this.pos += 8
    return value
  }

  /** Reads a LEB128 integer (see `ByteWriter.vint`). */
  vint(): number {
    const b = this.bytes
    let i = this.pos
    let byte = b[i++] ?? 0
    let value = byte & 0x7f
    if (byte >= 0x80) {
      let shift = 7
      do {
        byte = b[i++] ?? 0
        value += shift < 28 ? (byte & 0x7f) << shift : (byte & 0x7f) * 2 ** shift
        shift += 7
      } while (byte >= 0x80)
    }
    this.pos = i
    return value
  }

  /**
   * Reads a LEB128 length and that many UTF-8 bytes as a string.
   */
  string(): string {
    const length = this.vint()
    const start = this.pos
    this.pos += length
    return textDecoder.decode(this.bytes.subarray(start, start + length))
  }

  /**
   * Skips bytes.
   * @param count - how many
   */
  skip(count: number): void {
    this.pos += count
  }
}

/**
 * Reads an unsigned 32-bit little-endian integer at an offset.
 * @param bytes - the bytes
 * @param offset - where the integer starts
 */
export function readU32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] ?? 0) |
      ((bytes[offset + 1] ?? 0) << 8) |
      ((bytes[offset + 2] ?? 0) << 16) |
      ((bytes[offset + 3] ?? 0) << 24)) >>>
    0
  )
}

/**
 * Decodes UTF-8 bytes.
 * @param bytes - the bytes
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return textDecoder.decode(bytes)
}

/**
 * Decodes the UTF-8 bytes `start … end − 1`. An ASCII run of a `Buffer` (external ids, most
 * terms) is read as Latin-1, the same code units, by a native slice: about three times faster
 * than a `TextDecoder` call on a view, and no view is made. Anything else goes through the decoder.
 * @param bytes - the bytes
 * @param start - first byte
 * @param end - one past the last byte
 */
export function decodeUtf8Range(bytes: Uint8Array, start: number, end: number): string {
  if (Buffer.isBuffer(bytes)) {
    let ascii = true
    for (let i = start; i < end; i++) {
      if (bytes[i]! >= 0x80) {
        ascii = false
        break
      }
    }
    if (ascii) {
      return bytes.toString('latin1', start, end)
    }
  }
  return textDecoder.decode(bytes.subarray(start, end))
}

