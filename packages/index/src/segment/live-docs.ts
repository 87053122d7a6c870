import { readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'

/**
 * Which documents of a segment are deleted: a bitset, bit `d` set = document `d` deleted.
 * Segments are immutable; deletions live in a separate `.del` file per deletion
 * generation, until a merge drops the documents.
 */
export class LiveDocs {
  /** Documents in the segment. */
  readonly docCount: number
  private readonly bits: Uint8Array
  private deleted: number

  /**
   * @param docCount - documents in the segment
   * @param bits - the deletion bitset (copied). Defaults to none deleted.
   */
  constructor(docCount: number, bits?: Uint8Array) {
    this.docCount = docCount
    this.bits = new Uint8Array((docCount + 7) >>> 3)
    if (bits !== undefined) {
      this.bits.set(bits.subarray(0, this.bits.length))
    }
    let deleted = 0
    for (const byte of this.bits) {
      deleted += popcount8(byte)
    }
    this.deleted = deleted
  }

  /** How many documents are deleted. */
  get deletedCount(): number {
    return this.deleted
  }

  /** How many documents are live. */
  get liveCount(): number {
    return this.docCount - this.deleted
  }

  /**
   * Whether a document is live.
   * @param doc - a local document number
   */
  isLive(doc: number): boolean {
    return (this.bits[doc >>> 3]! & (1 << (doc & 7))) === 0
  }

  /**
   * Marks a document deleted.
   * @param doc - a local document number
   * @returns whether it was live before
   */
  delete(doc: number): boolean {
    const mask = 1 << (doc & 7)
    const byte = this.bits[doc >>> 3]!
    if ((byte & mask) !== 0) {
      return false
    }
    this.bits[doc >>> 3] = byte | mask
    this.deleted++
    return true
  }

  /** A copy, for copy-on-write updates. */
  clone(): LiveDocs {
    return new LiveDocs(this.docCount, this.bits)
  }

  /**
   * Writes the `.del` body: `u32 docCount`, `u32 deletedCount`, the bitset.
   * @param out - the destination
   */
  write(out: ByteWriter): void {
    out.u32(this.docCount)
    out.u32(this.deleted)
    out.bytes(this.bits)
  }

  /**
   * Reads a `.del` body.
   * @param bytes - the whole file
   * @param offset - where the body starts
   */
  static read(bytes: Uint8Array, offset: number): LiveDocs {
    const docCount = readU32(bytes, offset)
    return new LiveDocs(docCount, bytes.subarray(offset + 8, offset + 8 + ((docCount + 7) >>> 3)))
  }
}

function popcount8(byte: number): number {
  let v = byte - ((byte >>> 1) & 0x55)
  v = (v & 0x33) + ((v >>> 2) & 0x33)
  return (v + (v >>> 4)) & 0x0f
}
