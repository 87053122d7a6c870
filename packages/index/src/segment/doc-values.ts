import { PubmatchError, compareCodePoints } from '@pubmatch/core'
import { bitpackCodec } from '../codec/bitpack.ts'
import { BLOCK_SIZE } from '../postings/postings-format.ts'
import { ByteReader, readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'

/**
 * Writes the `.dv` body. Numeric columns: `u32 min` (as int32), then the documents'
 * `value − min + 1` (0 = missing) bit-packed in runs of 128 (see `bitpackCodec`). Sorted-set
 * columns: `vint(count)` and the distinct values in UTF-8 byte order (`vint` length +
 * UTF-8), `u32 offset[docCount + 1]` into the ordinal stream, then per document its
 * ordinals ascending as `vint` deltas.
 * @param numeric - per numeric doc value, per document (`NaN` = missing)
 * @param sets - per sorted-set doc value, per document
 * @param out - the `.dv` body
 */
export function writeDocValues(
  numeric: readonly Float64Array[],
  sets: readonly (readonly (readonly string[])[])[],
  out: ByteWriter,
): void {
  for (const column of numeric) {
    let min = Infinity
    let max = -Infinity
    for (const value of column) {
      if (!Number.isNaN(value)) {
        min = Math.min(min, value)
        max = Math.max(max, value)
      }
    }
    if (min === Infinity) {
      min = max = 0
    }
    if (max - min + 1 > 0xffffffff) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `numeric doc values of one segment must span less than 2^32 − 1 (got ${min} … ${max})`,
      )
    }
    out.u32(min >>> 0)
    const run = new Float64Array(BLOCK_SIZE)
    for (let start = 0; start < column.length; start += BLOCK_SIZE) {
      const n = Math.min(BLOCK_SIZE, column.length - start)
      for (let i = 0; i < n; i++) {
        const value = column[start + i]!
        run[i] = Number.isNaN(value) ? 0 : value - min + 1
      }
      bitpackCodec.encode(run, n, out)
    }
  }
  for (const column of sets) {
    const distinct = [...new Set(column.flat())].sort(compareCodePoints)
    const ordinal = new Map(distinct.map((value, i) => [value, i]))
    out.vint(distinct.length)
    for (const value of distinct) {
      out.string(value)
    }
    const offsetsAt = out.length
    out.ensure(4 * (column.length + 1))
    for (let d = 0; d <= column.length; d++) {
      out.u32(0)
    }
    const streamAt = out.length
    column.forEach((values, d) => {
      out.patchU32(offsetsAt + 4 * d, out.length - streamAt)
      const ords = values.map((v) => ordinal.get(v)!).sort((a, b) => a - b)
      out.vint(ords.length)
      let previous = 0
      for (const ord of ords) {
        out.vint(ord - previous)
        previous = ord
      }
    })
    out.patchU32(offsetsAt + 4 * column.length, out.length - streamAt)
  }
}

/** Reads `.dv` lazily: a column is decoded on first use. */
export class DocValuesReader {
  private readonly bytes: Uint8Array
  private readonly docCount: number
  private readonly numericStarts: number[] = []
  private readonly setStarts: { dictionary: number; offsets: number; stream: number }[] = []
  private readonly numericColumns: (Float64Array | undefined)[] = []
  private readonly dictionaries: (string[] | undefined)[] = []

  /**
   * @param bytes - the whole file
   * @param offset - where the body starts
   * @param numericCount - numeric doc values in the schema
   * @param setCount - sorted-set doc values in the schema
   * @param docCount - documents in the segment
   */
  constructor(bytes: Uint8Array, offset: number, numericCount: number, setCount: number, docCount: number) {
    this.bytes = bytes
    this.docCount = docCount
    const reader = new ByteReader(bytes, offset)
    for (let i = 0; i < numericCount; i++) {
      this.numericStarts.push(reader.pos)
      reader.skip(4)
      for (let start = 0; start < docCount; start += BLOCK_SIZE) {
        const n = Math.min(BLOCK_SIZE, docCount - start)
        const bits = reader.u8()
        reader.skip((n * bits + 7) >>> 3)
      }
    }
    for (let i = 0; i < setCount; i++) {
      const dictionary = reader.pos
      const count = reader.vint()
      for (let v = 0; v < count; v++) {
        reader.skip(reader.vint())
      }
      const offsets = reader.pos
      const stream = offsets + 4 * (docCount + 1)
      this.setStarts.push({ dictionary, offsets, stream })
      reader.pos = stream + readU32(bytes, offsets + 4 * docCount)
    }
  }

  /**
   * A numeric column, `NaN` where a document has no value.
   * @param index - the doc value's index in the schema
   */
  numeric(index: number): Float64Array {
    let column = this.numericColumns[index]
    if (column === undefined) {
      column = new Float64Array(this.docCount)
      const at = this.numericStarts[index]!
      const min = readU32(this.bytes, at) | 0
      const run = new Int32Array(BLOCK_SIZE)
      let p = at + 4
      for (let start = 0; start < this.docCount; start += BLOCK_SIZE) {
        const n = Math.min(BLOCK_SIZE, this.docCount - start)
        p = bitpackCodec.decode(this.bytes, p, run, n)
        for (let i = 0; i < n; i++) {
          const stored = run[i]! >>> 0
          column[start + i] = stored === 0 ? NaN : stored - 1 + min
        }
      }
      this.numericColumns[index] = column
    }
    return column
  }

  /**
   * The distinct values of a sorted-set doc value in this segment, in UTF-8 byte order.
   * @param index - the doc value's index in the schema
   */
  dictionary(index: number): readonly string[] {
    let dictionary = this.dictionaries[index]
    if (dictionary === undefined) {
      const reader = new ByteReader(this.bytes, this.setStarts[index]!.dictionary)
      const count = reader.vint()
      dictionary = []
      for (let v = 0; v < count; v++) {
        dictionary.push(reader.string())
      }
      this.dictionaries[index] = dictionary
    }
    return dictionary
  }

  /**
   * A document's ordinals into {@link DocValuesReader.dictionary}, ascending.
   * @param index - the doc value's index in the schema
   * @param doc - a local document number
   */
  ordinals(index: number, doc: number): number[] {
    const starts = this.setStarts[index]!
    const reader = new ByteReader(this.bytes, starts.stream + readU32(this.bytes, starts.offsets + 4 * doc))
    const count = reader.vint()
    const out: number[] = []
    let ord = 0
    for (let i = 0; i < count; i++) {
      ord += reader.vint()
      out.push(ord)
    }
    return out
  }

  /**
   * A document's values of a sorted-set doc value, in UTF-8 byte order.
   * @param index - the doc value's index in the schema
   * @param doc - a local document number
   */
  values(index: number, doc: number): string[] {
    const dictionary = this.dictionary(index)
    return this.ordinals(index, doc).map((ord) => dictionary[ord]!)
  }
}
