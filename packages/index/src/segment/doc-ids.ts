import { decodeUtf8Range, readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'

/**
 * Writes the `.ids` body: `u32 count`, `u32 offset[count + 1]` into the UTF-8 blob that
 * follows, holding the external ids in document order.
 * @param ids - external ids in document order
 * @param out - the `.ids` body
 */
export function writeDocIds(ids: readonly string[], out: ByteWriter): void {
  // One UTF-8 encoding of all ids (a call per id costs more than its bytes) when every id is
  // ASCII (UTF-8 as long as UTF-16); otherwise each id on its own, as lone surrogates of
  // neighbouring ids must not pair up.
  let blob = Buffer.from(ids.join(''), 'utf8')
  const ascii = blob.length === ids.reduce((sum, id) => sum + id.length, 0)
  const encoded = ascii ? null : ids.map((id) => Buffer.from(id, 'utf8'))
  if (encoded !== null) {
    blob = Buffer.concat(encoded)
  }
  out.u32(ids.length)
  let offset = 0
  for (let i = 0; i < ids.length; i++) {
    out.u32(offset)
    offset += encoded === null ? ids[i]!.length : encoded[i]!.length
  }
  out.u32(offset)
  out.bytes(blob)
}

/**
 * Bytes of the id blob per string that ids are sliced from. A slice of a string is a JS-side
 * copy or view, several times cheaper than a native decode per id; chunks are made on first use,
 * so only the parts of the blob that searches return are held twice.
 */
export const ID_CHUNK_BYTES: number = 1 << 16

/**
 * Reads `.ids`: ids decode on first use (sliced from the Latin-1 string of their 64 KiB chunk of
 * the blob when that chunk is ASCII); the id → document map is built on first lookup.
 */
export class DocIdsReader {
  /** Documents in the segment. */
  readonly count: number
  private readonly bytes: Uint8Array
  private readonly offsetsAt: number
  private readonly blobAt: number
  private all: string[] | undefined
  /** Per chunk of the blob: its text when ASCII, `null` when not, `undefined` until first used. */
  private readonly chunks: (string | null | undefined)[] = []
  private byId: Map<string, number> | undefined
  private duplicates: Map<string, number[]> = new Map()

  /**
   * @param bytes - the whole file
   * @param offset - where the body starts
   */
  constructor(bytes: Uint8Array, offset: number) {
    this.bytes = bytes
    this.count = readU32(bytes, offset)
    this.offsetsAt = offset + 4
    this.blobAt = this.offsetsAt + 4 * (this.count + 1)
  }

  /**
   * A document's external id.
   * @param doc - a local document number
   */
  id(doc: number): string {
    if (this.all !== undefined) {
      return this.all[doc]!
    }
    const start = readU32(this.bytes, this.offsetsAt + 4 * doc)
    const end = readU32(this.bytes, this.offsetsAt + 4 * doc + 4)
    const c = Math.floor(start / ID_CHUNK_BYTES)
    const from = c * ID_CHUNK_BYTES
    if (end <= from + ID_CHUNK_BYTES) {
      const text = this.chunks[c] ?? this.chunkText(c)
      if (text !== null) {
        return text.slice(start - from, end - from)
      }
    }
    return decodeUtf8Range(this.bytes, this.blobAt + start, this.blobAt + end)
  }

  /** Chunk `c` of the blob as text if it is ASCII (Latin-1 and UTF-8 agree there), else `null`. */
  private chunkText(c: number): string | null {
    const blobEnd = this.blobAt + readU32(this.bytes, this.offsetsAt + 4 * this.count)
    const start = this.blobAt + c * ID_CHUNK_BYTES
    const end = Math.min(blobEnd, start + ID_CHUNK_BYTES)
    let text: string | null = null
    let ascii = true
    for (let i = start; i < end; i++) {
      if (this.bytes[i]! >= 0x80) {
        ascii = false
        break
      }
    }
    if (ascii) {
      text = decodeUtf8Range(this.bytes, start, end)
    }
    this.chunks[c] = text
    return text
  }

  /** Every id in document order. */
  ids(): readonly string[] {
    if (this.all === undefined) {
      const all: string[] = []
      for (let d = 0; d < this.count; d++) {
        all.push(this.id(d))
      }
      this.all = all
    }
    return this.all
  }

  /**
   * Every document with an id, ascending (usually one; an update before a flush leaves
   * two in one segment, the older one deleted). Deleted documents are not filtered here.
   * @param id - an external id
   */
  docsOf(id: string): readonly number[] {
    if (this.byId === undefined) {
      const map = new Map<string, number>()
      const duplicates = new Map<string, number[]>()
      this.ids().forEach((value, doc) => {
        const previous = map.get(value)
        if (previous !== undefined) {
          const list = duplicates.get(value) ?? [previous]
          list.push(doc)
          duplicates.set(value, list)
        }
        map.set(value, doc)
      })
      this.byId = map
      this.duplicates = duplicates
    }
    const doc = this.byId.get(id)
    return doc === undefined ? [] : (this.duplicates.get(id) ?? [doc])
  }
}
