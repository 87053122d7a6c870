import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { readManifest } from './commit/manifest.ts'
import { readU32 } from './io/byte-reader.ts'
import { FOOTER_BYTES } from './io/file-format.ts'
import {
  SEGMENT_FILE_KINDS,
  segmentFileName,
  type SegmentFileKind,
} from './segment/segment-meta.ts'
import { readVerifiedFile } from './segment/segment-reader.ts'
import { TermDictionary } from './terms/term-dictionary.ts'

/** Bytes of one field's inverted data, summed over the segments. */
export interface FieldSpaceUsage {
  readonly field: string
  /** Doc gaps, frequencies, skip entries and block impacts (`.pst`). */
  readonly postingsBytes: number
  /** Positions (`.pos`). */
  readonly positionsBytes: number
  /** The field's section of the term dictionaries (`.tdx`). */
  readonly termsBytes: number
}

/** Where an index's bytes go (as tantivy's `space_usage`). */
export interface IndexSpaceUsage {
  /** Bytes per segment file kind, headers and footers included, summed over the segments (`del`: deletions). */
  readonly files: Readonly<Record<SegmentFileKind | 'del', number>>
  /** Per schema field, in schema order. */
  readonly fields: readonly FieldSpaceUsage[]
}

/**
 * The bytes of a committed index per file kind and, for the inverted data, per field: what the
 * benchmarks report as postings and positions apart from stored records. Reads the manifest and
 * each segment's term dictionary (verified against the manifest).
 * @param dir - the index directory
 * @throws PubmatchError `NOT_FOUND` when `dir` holds no index, `INDEX_CORRUPTED` for a damaged one
 */
export async function indexSpaceUsage(dir: string): Promise<IndexSpaceUsage> {
  const manifest = await readManifest(dir)
  if (manifest === null) {
    throw new PubmatchError('NOT_FOUND', `no index in ${truncateForMessage(dir)}`, {
      details: { file: dir },
    })
  }
  const files = { tdx: 0, pst: 0, pos: 0, nrm: 0, dv: 0, sto: 0, ids: 0, del: 0 }
  const fields = manifest.schema.fields.map((field) => ({
    field: field.name,
    postingsBytes: 0,
    positionsBytes: 0,
    termsBytes: 0,
  }))
  for (const meta of manifest.segments) {
    for (const kind of SEGMENT_FILE_KINDS) {
      files[kind] += meta.files[kind].size
    }
    files.del += meta.del?.size ?? 0
    const tdx = await readVerifiedFile(
      dir,
      segmentFileName(meta.name, 'tdx'),
      'tdx',
      meta.files.tdx,
    )
    const fieldCount = readU32(tdx.bytes, tdx.body)
    manifest.schema.fields.forEach((field, f) => {
      const offset = readU32(tdx.bytes, tdx.body + 4 + 4 * f)
      const end =
        f + 1 < fieldCount
          ? readU32(tdx.bytes, tdx.body + 8 + 4 * f)
          : tdx.bytes.length - FOOTER_BYTES
      const usage = fields[f]!
      usage.termsBytes += end - offset
      for (const entry of new TermDictionary(tdx.bytes, offset, field.positions).entries()) {
        usage.postingsBytes += entry.postingsLength
        usage.positionsBytes += entry.positionsLength
      }
    })
  }
  return { files, fields }
}
