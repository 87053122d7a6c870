const textEncoder = new TextEncoder()

/**
 * A growable little-endian byte buffer for building file bodies. Integers written with
 * {@link ByteWriter.vint} use LEB128 (7 bits per byte, high bit = more bytes follow).
 */
export class ByteWriter {
  private buffer: Uint8Array
  /** Bytes written so far. */
  length = 0

  /**
   * @param capacity - the initial capacity in bytes. Defaults to `1024`.
   */
  constructor(capacity = 1024) {
    this.buffer = new Uint8Array(Math.max(16, capacity))
  }

  /**
   * Makes room for `extra` more bytes.
   * @param extra - bytes about to be written
   */
  ensure(extra: number): void {
    const needed = this.length + extra
    if (needed <= this.buffer.length) {
      return
    }
    let capacity = this.buffer.length * 2
    while (capacity < needed) {
      capacity *= 2
    }
    const grown = new Uint8Array(capacity)
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }

  /**
   * Writes one byte.
   * @param value - 0–255
   */
  u8(value: number): void {
    this.ensure(1)
    this.buffer[this.length++] = value
  }

  /**
   * Writes an unsigned 32-bit integer, little-endian.
   * @param value - 0 – 2^32−1
   */
  u32(value: number): void {
    this.ensure(4)
    const b = this.buffer
    let i = this.length
    b[i++] = value & 0xff
    b[i++] = (value >>> 8) & 0xff
    b[i++] = (value >>> 16) & 0xff
    b[i++] = (value >>> 24) & 0xff
    this.length = i
  }

  /**
   * Overwrites an unsigned 32-bit integer at an earlier offset (for back-patched tables).
   * @param offset - where the 4 bytes start
   * @param value - 0 – 2^32−1
   */
  patchU32(offset: number, value: number): void {
    const b = this.buffer
    b[offset] = value & 0xff
    b[offset + 1] = (value >>> 8) & 0xff
    b[offset + 2] = (value >>> 16) & 0xff
    b[offset + 3] = (value >>> 24) & 0xff
  }

  /**
   * Writes a 64-bit float, little-endian.
   * @param value - any number
   */
  f64(value: number): void {
    this.ensure(8)
    new DataView(this.buffer.buffer, this.buffer.byteOffset).setFloat64(this.length, value, true)
    this.length += 8
  }

  /**
   * Writes a non-negative integer as LEB128 (1 byte below 128, 5 bytes at most below 2^35).
   * @param value - a non-negative safe integer
   */
  vint(value: number): void {
    this.ensure(8)
    const b = this.buffer
    let i = this.length
    if (value < 0x80000000) {
      let v = value
      while (v >= 0x80) {
        b[i++] = (v & 0x7f) | 0x80
        v >>>= 7
      }
      b[i++] = v
    } else {
      let v = value
      while (v >= 0x80) {
        b[i++] = (v % 0x80) | 0x80
        v = Math.floor(v / 0x80)
      }
      b[i++] = v
    }
    this.length = i
  }

  /**
   * Appends raw bytes.
   * @param bytes - the bytes
   */
  bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length)
    this.buffer.set(bytes, this.length)
    this.length += bytes.length
  }

  /**
   * Writes a string as a LEB128 byte length followed by its UTF-8 bytes.
   * @param value - the string
   */
  string(value: string): void {
    const encoded = textEncoder.encode(value)
    this.vint(encoded.length)
    this.bytes(encoded)
  }

  /** The bytes written so far (a view, valid until the next write). */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }

  /** Forgets everything written, keeping the capacity. */
  reset(): void {
    this.length = 0
  }
}
