import { readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'

/**
 * Writes exact field lengths (`.nrm` body): per field `u8 width` (1, 2 or 4 bytes, the
 * smallest that holds the longest field) then one little-endian length per document.
 * Lengths are exact so that BM25 scores agree with reference implementations to 1e-9.
 * @param lengths - per field, the length of each document
 * @param out - the `.nrm` body
 */
export function writeNorms(lengths: readonly Uint32Array[], out: ByteWriter): void {
  for (const column of lengths) {
    let max = 0
    for (const length of column) {
      if (length > max) {
        max = length
      }
    }
    const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4
    out.u8(width)
    out.ensure(column.length * width)
    for (const length of column) {
      if (width === 1) {
        out.u8(length)
      } else if (width === 2) {
        out.u8(length & 0xff)
        out.u8(length >>> 8)
      } else {
        out.u32(length)
      }
    }
  }
}

/**
 * Reads `.nrm`: each field's column is decoded on first use into a `Uint32Array`.
 */
export class NormsReader {
  private readonly bytes: Uint8Array
  private readonly starts: number[] = []
  private readonly widths: number[] = []
  private readonly columns: (Uint32Array | undefined)[] = []
  private readonly docCount: number

  /**
   * @param bytes - the whole file
   * @param offset - where the body starts
   * @param fieldCount - fields in the schema
   * @param docCount - documents in the segment
   */
  constructor(bytes: Uint8Array, offset: number, fieldCount: number, docCount: number) {
    this.bytes = bytes
    this.docCount = docCount
    let at = offset
    for (let f = 0; f < fieldCount; f++) {
      const width = bytes[at]!
      this.widths.push(width)
      this.starts.push(at + 1)
      at += 1 + width * docCount
    }
  }

  /**
   * Every document's length in a field.
   * @param field - the field's index
   */
  lengths(field: number): Uint32Array {
    let column = this.columns[field]
    if (column === undefined) {
      column = new Uint32Array(this.docCount)
      const width = this.widths[field]!
      const bytes = this.bytes
      let at = this.starts[field]!
      for (let d = 0; d < this.docCount; d++) {
        column[d] =
          width === 1 ? bytes[at]! : width === 2 ? bytes[at]! | (bytes[at + 1]! << 8) : readU32(bytes, at)
        at += width
      }
      this.columns[field] = column
    }
    return column
  }
}
