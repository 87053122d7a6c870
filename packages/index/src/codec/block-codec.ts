import type { ByteWriter } from '../io/byte-writer.ts'

/** The block codecs a segment may use for doc gaps and frequencies. */
export type CodecName = 'vbyte' | 'bitpack'

/**
 * Encodes and decodes runs of non-negative 32-bit integers (at most one postings block of
 * 128 values). Implementations are pure functions of their input.
 */
export interface BlockCodec {
  /** The name recorded in the segment's manifest entry. */
  readonly name: CodecName
  /**
   * Appends `count` values to `out`.
   * @param values - the values; each 0 – 2^32−1
   * @param count - how many of them to encode
   * @param out - the destination
   */
  encode(values: ArrayLike<number>, count: number, out: ByteWriter): void
  /**
   * Decodes `count` values.
   * @param bytes - the encoded bytes
   * @param pos - where the run starts
   * @param out - receives the values in `out[0..count)`
   * @param count - how many values were encoded
   * @returns the offset just after the run
   */
  decode(bytes: Uint8Array, pos: number, out: Int32Array, count: number): number
  /**
   * Decodes `count` values and adds `add` to each, `out[i] = v[i] + add` (wrapped to 32 bits as
   * `Int32Array` stores it): the frequencies of a block, stored as freq − 1, with `add = 1`.
   * @param bytes - the encoded bytes
   * @param pos - where the run starts
   * @param out - receives the values in `out[0..count)`
   * @param count - how many values were encoded
   * @param add - added to every value
   * @returns the offset just after the run
   */
  decodeAdd(bytes: Uint8Array, pos: number, out: Int32Array, count: number, add: number): number
  /**
   * Decodes `count` document gaps, stored as gap − 1, into the documents they lead to from
   * `base`: `out[i] = base + Σ_{j ≤ i} (v[j] + 1)`.
   * @param bytes - the encoded bytes
   * @param pos - where the run starts
   * @param out - receives the documents in `out[0..count)`
   * @param count - how many gaps were encoded
   * @param base - the document before the first (−1 at the start of a postings list)
   * @returns the offset just after the run
   */
  decodeGaps(bytes: Uint8Array, pos: number, out: Int32Array, count: number, base: number): number
}
