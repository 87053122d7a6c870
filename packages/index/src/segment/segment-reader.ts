import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import type { BlockCodec } from '../codec/block-codec.ts'
import { codecByName } from '../codec/codecs.ts'
import { readU32 } from '../io/byte-reader.ts'
import { headerVersion, verifyFile, type FileChecksum, type IndexFileKind } from '../io/file-format.ts'
import type { TermInfo } from '../postings/postings-format.ts'
import { SegmentPostings, type PostingsSource } from '../postings/segment-postings.ts'
import type { IndexSchema } from '../schema/schema.ts'
import { TermDictionary } from '../terms/term-dictionary.ts'
import { DocIdsReader } from './doc-ids.ts'
import { DocValuesReader } from './doc-values.ts'
import { LiveDocs } from './live-docs.ts'
import { NormsReader } from './norms.ts'
import {
  SEGMENT_FILE_KINDS,
  liveDocsFileName,
  segmentFileName,
  type SegmentFileKind,
  type SegmentMeta,
} from './segment-meta.ts'
import { StoredFieldsReader } from './stored-fields.ts'

/**
 * Reads one file of an index and verifies it against the manifest.
 * @param dir - the index directory
 * @param file - the file name
 * @param kind - the expected kind
 * @param checksum - size and CRC-32 from the manifest
 * @throws PubmatchError `INDEX_CORRUPTED` when the file is missing or damaged, `IO` when it
 *   cannot be read for another reason
 */
export async function readVerifiedFile(
  dir: string,
  file: string,
  kind: IndexFileKind,
  checksum: FileChecksum,
): Promise<{ bytes: Buffer; body: number }> {
  let bytes: Buffer
  try {
    bytes = await readFile(join(dir, file))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new PubmatchError(
      code === 'ENOENT' ? 'INDEX_CORRUPTED' : 'IO',
      `${file}: listed in the manifest but cannot be read (${code ?? 'error'})`,
      { cause: error, details: { file, errno: code } },
    )
  }
  return { bytes, body: verifyFile(bytes, kind, file, checksum) }
}

/**
 * An open, immutable segment: its files are read once (one read per file, checksums
 * verified) and decoded lazily — term dictionaries in place, norms and doc values per
 * column on first use.
 */
export class SegmentReader {
  readonly meta: SegmentMeta
  readonly schema: IndexSchema
  /** Deleted documents, or `null` when none are. */
  readonly liveDocs: LiveDocs | null
  readonly pst: Uint8Array
  readonly pos: Uint8Array
  readonly codec: BlockCodec
  private readonly tdx: Buffer
  private readonly dictionaries: (TermDictionary | undefined)[] = []
  private readonly norms: NormsReader
  private readonly docValues: DocValuesReader
  /** The stored records (merges copy their bytes). */
  readonly storedFields: StoredFieldsReader
  private readonly docIds: DocIdsReader
  private readonly sources: PostingsSource[]
  /** The segment's files as read and verified (a later commit's reader of the same files shares them). */
  private readonly files: Record<SegmentFileKind, { bytes: Buffer; body: number }>

  private constructor(
    meta: SegmentMeta,
    schema: IndexSchema,
    files: Record<SegmentFileKind, { bytes: Buffer; body: number }>,
    liveDocs: LiveDocs | null,
  ) {
    this.meta = meta
    this.schema = schema
    this.liveDocs = liveDocs
    this.files = files
    this.codec = codecByName(meta.codec)
    this.tdx = files.tdx.bytes
    this.pst = files.pst.bytes
    this.pos = files.pos.bytes
    this.norms = new NormsReader(files.nrm.bytes, files.nrm.body, schema.fields.length, meta.docCount)
    this.docValues = new DocValuesReader(
      files.dv.bytes,
      files.dv.body,
      schema.numericDocValues.length,
      schema.sortedSetDocValues.length,
      meta.docCount,
    )
    this.storedFields = new StoredFieldsReader(files.sto.bytes, files.sto.body, headerVersion(files.sto.bytes), segmentFileName(meta.name, 'sto'))
    this.docIds = new DocIdsReader(files.ids.bytes, files.ids.body)
    if (this.docIds.count !== meta.docCount) {
      throw new PubmatchError(
        'INDEX_CORRUPTED',
        `${segmentFileName(meta.name, 'ids')}: ${this.docIds.count} ids, the manifest says ${meta.docCount} documents`,
        { details: { file: segmentFileName(meta.name, 'ids') } },
      )
    }
    this.sources = schema.fields.map((field, f) => ({
      pst: this.pst,
      pos: this.pos,
      codec: this.codec,
      withPositions: field.positions,
      fieldLengths: () => this.norms.lengths(f),
    }))
  }

  /**
   * Opens a segment listed in a manifest.
   * @param dir - the index directory
   * @param meta - the manifest entry
   * @param schema - the index schema
   * @param liveDocs - deletions to use instead of the `.del` file (the writer's in-memory view)
   */
  static async open(
    dir: string,
    meta: SegmentMeta,
    schema: IndexSchema,
    liveDocs?: LiveDocs | null,
  ): Promise<SegmentReader> {
    const entries = await Promise.all(
      SEGMENT_FILE_KINDS.map(
        async (kind) =>
          [kind, await readVerifiedFile(dir, segmentFileName(meta.name, kind), kind, meta.files[kind])] as const,
      ),
    )
    const files = Object.fromEntries(entries) as Record<SegmentFileKind, { bytes: Buffer; body: number }>
    let live = liveDocs
    if (live === undefined) {
      live = meta.delGen > 0 ? await readLiveDocs(dir, meta) : null
    }
    return new SegmentReader(meta, schema, files, live)
  }

  /**
   * This segment as a later commit of the same index lists it, without reading its files again
   * when the commit lists the same files: this reader itself when its deletions are the same too,
   * else a reader over the same files with the commit's deletions (its `.del` file read and
   * verified). `undefined` when the commit lists other files under this segment's name (another
   * size, checksum or codec): the segment must be opened anew.
   * @param dir - the index directory
   * @param meta - the later commit's entry for this segment
   * @param schema - the later commit's schema (the caller checks that it is this reader's)
   */
  async reopen(dir: string, meta: SegmentMeta, schema: IndexSchema): Promise<SegmentReader | undefined> {
    const mine = this.meta
    if (meta.name !== mine.name || meta.docCount !== mine.docCount || meta.codec !== mine.codec) {
      return undefined
    }
    if (!SEGMENT_FILE_KINDS.every((kind) => sameChecksum(meta.files[kind], mine.files[kind]))) {
      return undefined
    }
    if (meta.delGen === mine.delGen && meta.delCount === mine.delCount && sameChecksum(meta.del, mine.del)) {
      return this
    }
    const live = meta.delGen > 0 ? await readLiveDocs(dir, meta) : null
    return new SegmentReader(meta, schema, this.files, live)
  }

  /** Documents in the segment, deleted ones included. */
  get docCount(): number {
    return this.meta.docCount
  }

  /** Live documents. */
  get liveCount(): number {
    return this.meta.docCount - (this.liveDocs?.deletedCount ?? 0)
  }

  /**
   * Whether a document is live.
   * @param doc - a local document number
   */
  isLive(doc: number): boolean {
    return this.liveDocs === null || this.liveDocs.isLive(doc)
  }

  /**
   * A field's term dictionary.
   * @param field - the field's index in the schema
   */
  terms(field: number): TermDictionary {
    let dictionary = this.dictionaries[field]
    if (dictionary === undefined) {
      const offset = readU32(this.tdx, 12 + 4 + 4 * field)
      dictionary = new TermDictionary(this.tdx, offset, this.schema.fields[field]!.positions)
      this.dictionaries[field] = dictionary
    }
    return dictionary
  }

  /**
   * A cursor over a term's postings (local document numbers, deletions not applied).
   * @param field - the field's index in the schema
   * @param info - the term's dictionary entry in this segment
   */
  postings(field: number, info: TermInfo): SegmentPostings {
    return new SegmentPostings(this.sources[field]!, info)
  }

  /**
   * The postings bytes of a field, for sequential decoding (merges).
   * @param field - the field's index in the schema
   */
  postingsSource(field: number): PostingsSource {
    return this.sources[field]!
  }

  /**
   * Every document's length in a field (exact).
   * @param field - the field's index in the schema
   */
  lengths(field: number): Uint32Array {
    return this.norms.lengths(field)
  }

  /**
   * A numeric doc value column (`NaN` = missing).
   * @param index - the doc value's index in the schema
   */
  numeric(index: number): Float64Array {
    return this.docValues.numeric(index)
  }

  /**
   * A document's values of a sorted-set doc value.
   * @param index - the doc value's index in the schema
   * @param doc - a local document number
   */
  setValues(index: number, doc: number): string[] {
    return this.docValues.values(index, doc)
  }

  /**
   * A document's stored record.
   * @param doc - a local document number
   */
  stored(doc: number): ReturnType<StoredFieldsReader['get']> {
    return this.storedFields.get(doc)
  }

  /**
   * A document's external id.
   * @param doc - a local document number
   */
  id(doc: number): string {
    return this.docIds.id(doc)
  }

  /** Every external id in document order. */
  ids(): readonly string[] {
    return this.docIds.ids()
  }

  /**
   * The documents with an external id, deleted ones included.
   * @param id - the external id
   */
  docsOf(id: string): readonly number[] {
    return this.docIds.docsOf(id)
  }
}

function sameChecksum(a: FileChecksum | undefined, b: FileChecksum | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.size === b.size && a.crc32 === b.crc32
}

/**
 * Reads a segment's deletions.
 * @param dir - the index directory
 * @param meta - the segment (with `delGen > 0`)
 */
export async function readLiveDocs(dir: string, meta: SegmentMeta): Promise<LiveDocs> {
  const file = liveDocsFileName(meta.name, meta.delGen)
  if (meta.del === undefined) {
    throw new PubmatchError('INDEX_CORRUPTED', `${file}: the manifest has no checksum for it`, {
      details: { file },
    })
  }
  const { bytes, body } = await readVerifiedFile(dir, file, 'del', meta.del)
  const live = LiveDocs.read(bytes, body)
  if (live.docCount !== meta.docCount || live.deletedCount !== meta.delCount) {
    throw new PubmatchError(
      'INDEX_CORRUPTED',
      `${file}: ${live.deletedCount} of ${live.docCount} deleted, the manifest says ${meta.delCount} of ${meta.docCount}`,
      { details: { file } },
    )
  }
  return live
}
