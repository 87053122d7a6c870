import type { CodecName } from '../codec/block-codec.ts'
import type { FileChecksum, IndexFileKind } from '../io/file-format.ts'

/** The files every segment has (deletions live in a separate, optional `.del`). */
export const SEGMENT_FILE_KINDS = ['tdx', 'pst', 'pos', 'nrm', 'dv', 'sto', 'ids'] as const

/** One of {@link SEGMENT_FILE_KINDS}. */
export type SegmentFileKind = (typeof SEGMENT_FILE_KINDS)[number] & IndexFileKind

/** Per-field statistics of a segment, deleted documents included. */
export interface SegmentFieldStats {
  /** Documents whose field has at least one token. */
  readonly docsWithField: number
  /** Sum of the field's lengths over the segment's documents. */
  readonly sumLength: number
  /** Distinct terms. */
  readonly termCount: number
  /** Sum of document frequencies over the terms (= postings entries). */
  readonly sumDocFreq: number
  /** Sum of total term frequencies over the terms (= occurrences). */
  readonly sumTotalTermFreq: number
}

/** A segment as the manifest lists it. */
export interface SegmentMeta {
  /** The segment name, e.g. `_1k`; files are `<name>.<kind>`. */
  readonly name: string
  /** Documents in the segment, deleted ones included (its local document numbers are 0 … docCount−1). */
  readonly docCount: number
  readonly codec: CodecName
  readonly files: Readonly<Record<SegmentFileKind, FileChecksum>>
  /** Per schema field. */
  readonly fields: readonly SegmentFieldStats[]
  /** Deletion generation: 0 = no deletions, else the live docs are in `<name>_<delGen>.del`. */
  readonly delGen: number
  /** Deleted documents. */
  readonly delCount: number
  /** Size and checksum of the `.del` file (when `delGen > 0`). */
  readonly del?: FileChecksum
}

/**
 * The file name of one of a segment's files.
 * @param segment - the segment name
 * @param kind - the file kind
 */
export function segmentFileName(segment: string, kind: SegmentFileKind): string {
  return `${segment}.${kind}`
}

/**
 * The file name of a segment's deletions of one generation.
 * @param segment - the segment name
 * @param delGen - the deletion generation (≥ 1)
 */
export function liveDocsFileName(segment: string, delGen: number): string {
  return `${segment}_${delGen.toString(36)}.del`
}

/**
 * Every file a segment uses.
 * @param meta - the segment
 */
export function segmentFiles(meta: SegmentMeta): string[] {
  const files: string[] = SEGMENT_FILE_KINDS.map((kind) => segmentFileName(meta.name, kind))
  if (meta.delGen > 0) {
    files.push(liveDocsFileName(meta.name, meta.delGen))
  }
  return files
}
