import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib'
import { PubmatchError, json, parseJson, type JsonShape } from '@pubmatch/core'
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
 * are compressed at every flush and again at merges that cannot copy their blocks.
 */
export const STORED_DEFLATE_LEVEL = 3

/**
 * Encodes stored records into the `.sto` body (version 2) as they come: each record is turned
 * into UTF-8 JSON when it is added and every {@link STORED_BLOCK_DOCS} records are deflated at
 * once, so a segment being built holds compressed blocks, not record objects. A merge hands
 * over whole compressed blocks of the segments it reads ({@link StoredFieldsWriter.addBlock})
 * and the JSON bytes of single records ({@link StoredFieldsWriter.addJson}) without parsing
 * them; the bytes written are the same as if every record had been added again.
 *
 * With `background: true` the blocks are deflated on libuv's thread pool (zlib's asynchronous
 * calls), on another core than the one analysing documents; {@link StoredFieldsWriter.settled}
 * must then be awaited before {@link StoredFieldsWriter.finish}. The bytes are the same.
 *
 * Layout: `u32 blockCount`, `u32 blockDocs`, `u32 offset[blockCount + 1]` (relative to the first
 * block), then the blocks. Each block is raw deflate of `u32 n`, `u32 end[n]` (where each
 * record's bytes end, relative to the first record) and the n records as UTF-8 JSON, one after
 * another: reading a record inflates its block (16 records) and parses that record alone.
 */
export class StoredFieldsWriter {
  private readonly blocks: Uint8Array[] = []
  private pending: Uint8Array[] = []
  private count = 0
  private readonly background: boolean
  private deflating: Promise<void>[] = []
  private outstanding = 0
  private drained = 0

  /**
   * @param options - `background`: deflate blocks on the thread pool. Defaults to `false`.
   */
  constructor(options: { readonly background?: boolean } = {}) {
    this.background = options.background ?? false
  }

  /** Records added so far. */
  get docCount(): number {
    return this.count
  }

  /** Records added since the last complete block (a whole block can be added only when `0`). */
  get pendingDocs(): number {
    return this.pending.length
  }

  /**
   * Adds the next record.
   * @param record - the stored record
   */
  add(record: StoredDocument): void {
    this.addJson(Buffer.from(JSON.stringify(record), 'utf8'))
  }

  /**
   * Adds the next record as its UTF-8 JSON (as {@link StoredFieldsWriter.add} would encode it).
   * @param json - the record's bytes
   */
  addJson(json: Uint8Array): void {
    this.pending.push(json)
    this.count++
    if (this.pending.length === STORED_BLOCK_DOCS) {
      this.flush()
    }
  }

  /**
   * Adds {@link STORED_BLOCK_DOCS} records at once as a compressed block of another version 2
   * `.sto` file; only at a block boundary (`pendingDocs === 0`).
   * @param block - the block's deflated bytes, holding {@link STORED_BLOCK_DOCS} records
   */
  addBlock(block: Uint8Array): void {
    if (this.pending.length !== 0) {
      throw new PubmatchError('INTERNAL', `a stored block cannot start after ${this.pending.length} pending records`)
    }
    this.blocks.push(block)
    this.count += STORED_BLOCK_DOCS
  }

  /**
   * Blocks handed to the thread pool and not yet deflated (each holds a zlib stream, about 256 KiB
   * of native memory, until this thread handles its completion).
   */
  get deflatingBlocks(): number {
    return this.outstanding
  }

  /**
   * Waits until at most `max` blocks are still being deflated: lets the event loop handle
   * the completions (and free their zlib streams) of a thread that otherwise never yields.
   * @param max - blocks that may stay in flight
   */
  async drain(max: number): Promise<void> {
    while (this.outstanding > max && this.drained < this.deflating.length) {
      await this.deflating[this.drained++]
    }
  }

  /** Resolves once every block handed to the thread pool is deflated (rejects if one failed). */
  async settled(): Promise<void> {
    await Promise.all(this.deflating)
    this.deflating = []
    this.drained = 0
  }

  /**
   * Writes the body: the last, partial block, the block offsets, then the blocks.
   * @param out - the `.sto` body
   * @throws PubmatchError `INTERNAL` when blocks are still being deflated (await {@link StoredFieldsWriter.settled} first)
   */
  finish(out: ByteWriter): void {
    if (this.outstanding > 0) {
      throw new PubmatchError('INTERNAL', 'stored blocks are still being deflated; await settled() before finish()')
    }
    if (this.pending.length > 0) {
      this.flush(false)
    }
    const blocks = this.blocks
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

  private flush(background = this.background): void {
    const pending = this.pending
    let size = 4 * (pending.length + 1)
    for (const record of pending) {
      size += record.length
    }
    const block = Buffer.allocUnsafe(size)
    block.writeUInt32LE(pending.length, 0)
    let end = 0
    let at = 4 * (pending.length + 1)
    for (let i = 0; i < pending.length; i++) {
      const record = pending[i]!
      end += record.length
      block.writeUInt32LE(end, 4 * (i + 1))
      block.set(record, at)
      at += record.length
    }
    this.pending = []
    if (!background) {
      this.blocks.push(deflateRawSync(block, { level: STORED_DEFLATE_LEVEL }))
      return
    }
    const slot = this.blocks.length
    this.blocks.push(block) // replaced by its deflated bytes when the pool is done
    this.outstanding++
    const done = new Promise<void>((resolve, reject) => {
      deflateRaw(block, { level: STORED_DEFLATE_LEVEL }, (error, deflated) => {
        this.outstanding--
        if (error !== null) {
          reject(error)
        } else {
          this.blocks[slot] = deflated
          resolve()
        }
      })
    })
    done.catch(() => undefined) // observed by settled(); no unhandled rejection meanwhile
    this.deflating.push(done)
  }
}

/**
 * Writes the `.sto` body (version 2) of these records (see {@link StoredFieldsWriter} for the layout).
 * @param records - the stored records in document order
 * @param out - the `.sto` body
 */
export function writeStoredFields(records: Iterable<StoredDocument>, out: ByteWriter): void {
  const writer = new StoredFieldsWriter()
  for (const record of records) {
    writer.add(record)
  }
  writer.finish(out)
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
   * The deflated bytes of a block of {@link STORED_BLOCK_DOCS} records, as
   * {@link StoredFieldsWriter.addBlock} takes them (merges copy them unchanged); `null` when this
   * file's blocks are of another layout (version 1) or size.
   * @param block - the block's number (documents `block · STORED_BLOCK_DOCS …`)
   */
  compressedBlock(block: number): Uint8Array | null {
    if (this.version === 1 || this.blockDocs !== STORED_BLOCK_DOCS) {
      return null
    }
    const start = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * block)
    const end = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * (block + 1))
    return this.bytes.subarray(start, end)
  }

  /**
   * A document's stored record as UTF-8 JSON, as {@link StoredFieldsWriter.addJson} takes it
   * (version 2: the bytes as stored, not parsed).
   * @param doc - a local document number
   */
  json(doc: number): Uint8Array {
    if (this.version === 1) {
      return Buffer.from(JSON.stringify(this.get(doc)), 'utf8')
    }
    const block = this.inflate(Math.floor(doc / this.blockDocs))
    const slot = doc % this.blockDocs
    const n = block.readUInt32LE(0)
    const first = 4 * (n + 1)
    const from = first + (slot === 0 ? 0 : block.readUInt32LE(4 * slot))
    return block.subarray(from, first + block.readUInt32LE(4 * (slot + 1)))
  }

  private inflate(block: number): Buffer {
    if (block !== this.cachedBlock) {
      const start = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * block)
      const end = this.dataAt + readU32(this.bytes, this.offsetsAt + 4 * (block + 1))
      this.cached = inflateRawSync(this.bytes.subarray(start, end))
      this.cachedRecords = this.version === 1 ? parseJson(this.cached.toString('utf8'), STORED_BLOCK_V1, { file: this.file, code: 'INDEX_CORRUPTED' }) : []
      this.cachedBlock = block
    }
    return this.cached
  }

  /**
   * A document's stored record.
   * @param doc - a local document number
   * @throws PubmatchError `INDEX_CORRUPTED` naming the file when the record is not JSON or not of a stored record's shape
   */
  get(doc: number): StoredDocument {
    const slot = doc % this.blockDocs
    const block2 = this.inflate(Math.floor(doc / this.blockDocs))
    if (this.version === 1) {
      return this.cachedRecords[slot]!
    }
    const n = block2.readUInt32LE(0)
    const first = 4 * (n + 1)
    const from = first + (slot === 0 ? 0 : block2.readUInt32LE(4 * slot))
    const to = first + block2.readUInt32LE(4 * (slot + 1))
    return parseJson(block2.toString('utf8', from, to), STORED_DOCUMENT, { file: this.file, code: 'INDEX_CORRUPTED' })
  }
}
