import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { json, parseJson, type JsonShape } from '@pubmatch/core'
import { readU32 } from '../io/byte-reader.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import type { StoredDocument } from '../schema/config.ts'

const STORED_DOCUMENT: JsonShape<StoredDocument> = json.object({
  id: json.string,
  title: json.string,
  year: json.optional(json.integer),
  journal: json.optional(json.string),
  authors: json.array(json.string),
  authorCount: json.count,
  pubTypes: json.array(json.string),
  languages: json.array(json.string),
  abstract: json.optional(json.string),
  pmcid: json.optional(json.string),
  doi: json.optional(json.string),
})

const STORED_BLOCK_V1: JsonShape<StoredDocument[]> = json.array(STORED_DOCUMENT)

/** Stored records per compressed block (`.sto` version 2; version 1 had 32 as one JSON array). */
export const STORED_BLOCK_DOCS = 16

/**
 * The deflate level of stored blocks: 3 compresses NFCorpus records about twice as fast as the
 * default 6 for 6 % more bytes (6,691 against 6,293 bytes per block of 16), and stored records
 * are compressed at every flush and again at every merge.
 */
export const STORED_DEFLATE_LEVEL = 3

/**
 * Writes the `.sto` body (version 2): `u32 blockCount`, `u32 blockDocs`, `u32 offset[blockCount
 * + 1]` (relative to the first block), then the blocks. Each block is raw deflate of `u32 n`,
 * `u32 end[n]` (where each record's bytes end, relative to the first record) and the n records
 * as UTF-8 JSON, one after another: reading a record inflates its block (16 records) and parses
 * that record alone.
 * @param records - the stored records in document order
 * @param out - the `.sto` body
 */
export function writeStoredFields(records: Iterable<StoredDocument>, out: ByteWriter): void {
  const blocks: Uint8Array[] = []
  let pending: Buffer[] = []
  const flush = (): void => {
    const header = Buffer.alloc(4 * (pending.length + 1))
    header.writeUInt32LE(pending.length, 0)
    let end = 0
    for (const [i, record] of pending.entries()) {
      end += record.length
      header.writeUInt32LE(end, 4 * (i + 1))
    }
    blocks.push(deflateRawSync(Buffer.concat([header, ...pending]), { level: STORED_DEFLATE_LEVEL }))
    pending = []
  }
  for (const record of records) {
    pending.push(Buffer.from(JSON.stringify(record), 'utf8'))
    if (pending.length === STORED_BLOCK_DOCS) {
      flush()
    }
  }
  if (pending.length > 0) {
    flush()
  }
  out.u32(blocks.length)
  out.u32(STORED_BLOCK_DOCS)
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

/**
 * Reads `.sto`, inflating one block per access (the last block is kept inflated): version 2
 * parses the one record asked for, version 1 (blocks of 32 as a JSON array) the whole block.
 */
export class StoredFieldsReader {
  private readonly bytes: Uint8Array
  private readonly file: string
  private readonly version: number
  private readonly blockDocs: number
  private readonly offsetsAt: number
  private readonly dataAt: number
  private cachedBlock = -1
  private cached: Buffer = Buffer.alloc(0)
  private cachedRecords: StoredDocument[] = []

  /**
   * @param bytes - the whole file
   * @param offset - where the body starts
   * @param version - the file's layout version (its header's). Defaults to `2`.
   * @param file - the file's name, for the message of a record that is not a stored record. Defaults to `.sto`.
   */
  constructor(bytes: Uint8Array, offset: number, version = 2, file = '.sto') {
    this.bytes = bytes
    this.file = file
    this.version = version
    const blockCount = readU32(bytes, offset)
    if (version === 1) {
      this.blockDocs = 32
      this.offsetsAt = offset + 4
    } else {
      this.blockDocs = readU32(bytes, offset + 4)
      this.offsetsAt = offset + 8
    }
    this.dataAt = this.offsetsAt + 4 * (blockCount + 1)
  }

  /**
   * A document's stored record.
   * @param doc - a local document number
   * @throws PubmatchError `INDEX_CORRUPTED` naming the file when the record is not JSON or not of a stored record's shape
   */
  get(doc: number): StoredDocument {
    const block = Math.floor(doc / this.blockDocs)
    const slot = doc % this.blockDocs
    if (block !== this.cachedBlock) {
      const start = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * block)
      const end = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * (block + 1))
      this.cached = inflateRawSync(this.bytes.subarray(start, end))
      this.cachedRecords = this.version === 1 ? parseJson(this.cached.toString('utf8'), STORED_BLOCK_V1, { file: this.file, code: 'INDEX_CORRUPTED' }) : []
      this.cachedBlock = block
    }
    if (this.version === 1) {
      return this.cachedRecords[slot]!
    }
    const block2 = this.cached
    const n = block2.readUInt32LE(0)
    const first = 4 * (n + 1)
    const from = first + (slot === 0 ? 0 : block2.readUInt32LE(4 * slot))
    const to = first + block2.readUInt32LE(4 * (slot + 1))
    return parseJson(block2.toString('utf8', from, to), STORED_DOCUMENT, { file: this.file, code: 'INDEX_CORRUPTED' })
  }
}
