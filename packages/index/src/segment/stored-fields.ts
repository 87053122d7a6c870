import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import type { StoredDocument } from '../schema/config.ts'

/** Stored records per compressed block. */
export const STORED_BLOCK_DOCS = 32

/**
 * Writes the `.sto` body: `u32 blockCount`, `u32 offset[blockCount + 1]` (relative to the
 * first block), then the blocks: each a raw-deflated JSON array of up to
 * {@link STORED_BLOCK_DOCS} records.
 * @param records - the stored records in document order
 * @param out - the `.sto` body
 */
export function writeStoredFields(records: Iterable<StoredDocument>, out: ByteWriter): void {
  const blocks: Uint8Array[] = []
  let pending: StoredDocument[] = []
  const flush = (): void => {
    blocks.push(deflateRawSync(JSON.stringify(pending), { level: 6 }))
    pending = []
  }
  for (const record of records) {
    pending.push(record)
    if (pending.length === STORED_BLOCK_DOCS) {
      flush()
    }
  }
  if (pending.length > 0) {
    flush()
  }
  out.u32(blocks.length)
  let offset = 0
  for (const block of blocks) {
    out.u32(offset)
    offset += block.length
  }
  out.u32(offset)
  for (const block of blocks) {
    out.bytes(block)
  }
}

/** Reads `.sto`, inflating one block per access (the last block is cached). */
export class StoredFieldsReader {
  private readonly bytes: Uint8Array
  private readonly offsetsAt: number
  private readonly dataAt: number
  private cachedBlock = -1
  private cached: StoredDocument[] = []

  /**
   * @param bytes - the whole file
   * @param offset - where the body starts
   */
  constructor(bytes: Uint8Array, offset: number) {
    this.bytes = bytes
    const blockCount = readU32(bytes, offset)
    this.offsetsAt = offset + 4
    this.dataAt = this.offsetsAt + 4 * (blockCount + 1)
  }

  /**
   * A document's stored record.
   * @param doc - a local document number
   */
  get(doc: number): StoredDocument {
    const block = Math.floor(doc / STORED_BLOCK_DOCS)
    if (block !== this.cachedBlock) {
      const start = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * block)
      const end = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * (block + 1))
      this.cached = JSON.parse(inflateRawSync(this.bytes.subarray(start, end)).toString('utf8')) as StoredDocument[]
      this.cachedBlock = block
    }
    return this.cached[doc % STORED_BLOCK_DOCS]!
  }
}
