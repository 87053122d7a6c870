import { IntBuffer } from '../io/int-buffer.ts'
import { appendLivePostings, type PostingsAccumulator } from '../postings/segment-postings.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import type { IndexSchema } from '../schema/schema.ts'
import type { SegmentReader } from '../segment/segment-reader.ts'
import type { SegmentSource, TermPostings } from '../segment/segment-source.ts'
import { STORED_BLOCK_DOCS, StoredFieldsWriter } from '../segment/stored-fields.ts'
import type { TermEntry } from '../terms/term-dictionary.ts'
import { TermMerge } from '../terms/term-merge.ts'

/**
 * The live documents of several segments, renumbered 0, 1, 2, … in segment order and then
 * document order: the source of a merged segment. Deleted documents disappear, and so do
 * terms that only they had; statistics of the result are therefore exact.
 */
export class MergeSource implements SegmentSource {
  readonly schema: IndexSchema
  readonly docCount: number
  private readonly readers: readonly SegmentReader[]
  /** Per reader: old local document → new document, or −1 when deleted. */
  private readonly docMaps: Int32Array[]
  private readonly accumulator: PostingsAccumulator = {
    docs: new IntBuffer(),
    freqs: new IntBuffer(),
    positions: new IntBuffer(),
    spans: new IntBuffer(),
  }
  private preparedStored: StoredFieldsWriter | null = null

  /**
   * @param schema - the index schema
   * @param readers - the segments to merge, in order, with the deletions to apply
   */
  constructor(schema: IndexSchema, readers: readonly SegmentReader[]) {
    this.schema = schema
    this.readers = readers
    let next = 0
    this.docMaps = readers.map((reader) => {
      const map = new Int32Array(reader.docCount)
      for (let d = 0; d < reader.docCount; d++) {
        map[d] = reader.isLive(d) ? next++ : -1
      }
      return map
    })
    this.docCount = next
  }

  *terms(field: number): Generator<TermPostings> {
    const withPositions = this.schema.fields[field]!.positions
    const merge = new TermMerge<TermEntry>(this.readers.map((reader) => reader.terms(field).entries()))
    while (merge.next()) {
      const out = this.accumulator
      out.docs.clear()
      out.freqs.clear()
      out.positions.clear()
      out.spans.clear()
      let hasSpans = false
      for (let i = 0; i < merge.count; i++) {
        const r = merge.sources[i]!
        hasSpans = appendLivePostings(this.readers[r]!.postingsSource(field), merge.entries[i]!, this.docMaps[r]!, out) || hasSpans
      }
      if (out.docs.length > 0) {
        yield {
          term: merge.term,
          docs: out.docs.data,
          freqs: out.freqs.data,
          count: out.docs.length,
          positions: withPositions ? out.positions.data : undefined,
          spans: hasSpans ? out.spans.data : undefined,
        }
      }
    }
  }

  fieldLengths(field: number): Uint32Array {
    const out = new Uint32Array(this.docCount)
    this.readers.forEach((reader, r) => {
      const lengths = reader.lengths(field)
      const map = this.docMaps[r]!
      for (let d = 0; d < map.length; d++) {
        if (map[d]! >= 0) {
          out[map[d]!] = lengths[d]!
        }
      }
    })
    return out
  }

  numericValues(index: number): Float64Array {
    const out = new Float64Array(this.docCount)
    this.readers.forEach((reader, r) => {
      const values = reader.numeric(index)
      const map = this.docMaps[r]!
      for (let d = 0; d < map.length; d++) {
        if (map[d]! >= 0) {
          out[map[d]!] = values[d]!
        }
      }
    })
    return out
  }

  setValues(index: number): readonly (readonly string[])[] {
    const out: string[][] = []
    this.forEachLive((reader, d) => out.push(reader.setValues(index, d)))
    return out
  }

  /**
   * The live records in order (deflated on the thread pool when `prepareStored` ran first). A block of {@link STORED_BLOCK_DOCS} live records that starts a
   * block of the output too is copied compressed; other records are copied as their JSON bytes
   * (never parsed). Either way the bytes are those of a fresh build of the live records.
   */
  async prepareStored(): Promise<void> {
    const writer = new StoredFieldsWriter({ background: true })
    for (const _ of this.copyStored(writer)) {
      await writer.drain(MAX_DEFLATING_BLOCKS >>> 1)
    }
    await writer.settled()
    this.preparedStored = writer
  }

  writeStored(out: ByteWriter): void {
    let writer = this.preparedStored
    this.preparedStored = null
    if (writer === null) {
      writer = new StoredFieldsWriter()
      for (const _ of this.copyStored(writer)) {
        // a writer without background deflating never has blocks in flight
      }
    }
    writer.finish(out)
  }

  /** Adds the live records to `writer`; pauses whenever more than 16 blocks are being deflated. */
  private *copyStored(writer: StoredFieldsWriter): Generator<void> {
    for (let r = 0; r < this.readers.length; r++) {
      const stored = this.readers[r]!.storedFields
      const map = this.docMaps[r]!
      let d = 0
      while (d < map.length) {
        if (writer.pendingDocs === 0 && d % STORED_BLOCK_DOCS === 0 && d + STORED_BLOCK_DOCS <= map.length && allLive(map, d, d + STORED_BLOCK_DOCS)) {
          const block = stored.compressedBlock(d / STORED_BLOCK_DOCS)
          if (block !== null) {
            writer.addBlock(block)
            d += STORED_BLOCK_DOCS
            continue
          }
        }
        if (map[d]! >= 0) {
          writer.addJson(stored.json(d))
          if (writer.deflatingBlocks > MAX_DEFLATING_BLOCKS) {
            yield
          }
        }
        d++
      }
    }
  }

  ids(): readonly string[] {
    const out: string[] = []
    this.forEachLive((reader, d) => out.push(reader.id(d)))
    return out
  }

  private forEachLive(visit: (reader: SegmentReader, doc: number) => void): void {
    this.readers.forEach((reader, r) => {
      const map = this.docMaps[r]!
      for (let d = 0; d < map.length; d++) {
        if (map[d]! >= 0) {
          visit(reader, d)
        }
      }
    })
  }
}

/** Stored blocks being deflated on the thread pool before a merge waits for some to finish. */
const MAX_DEFLATING_BLOCKS = 16

/** Whether documents `from … to − 1` of a segment are all live in a merge's document map. */
function allLive(map: Int32Array, from: number, to: number): boolean {
  for (let d = from; d < to; d++) {
    if (map[d]! < 0) {
      return false
    }
  }
  return true
}
