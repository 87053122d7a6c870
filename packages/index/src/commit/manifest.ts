import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { checkJson, json, parseJson, PubmatchError, type JsonShape } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { FORMAT_VERSION } from '../io/file-format.ts'
import type { IndexSchema } from '../schema/schema.ts'
import type { SegmentMeta } from '../segment/segment-meta.ts'

/** The manifest's file name: the one file that says which segments make up the index. */
export const MANIFEST_FILE = 'INDEX.json'

/** The committed state of an index. */
export interface Manifest {
  readonly format: 'pubmatch-index'
  /** The file format version (see `FORMAT_VERSION`). */
  readonly version: number
  /** Incremented by every commit. */
  readonly generation: number
  /** The counter new segment names are drawn from (base 36). */
  readonly nextSegment: number
  readonly schema: IndexSchema
  /** The segments, in document order. */
  readonly segments: readonly SegmentMeta[]
  /** When the commit happened (ISO 8601). */
  readonly committedAt: string
}

function corrupted(dir: string, what: string, cause?: unknown): PubmatchError {
  return new PubmatchError('INDEX_CORRUPTED', `${join(dir, MANIFEST_FILE)}: ${what}`, {
    cause,
    details: { file: join(dir, MANIFEST_FILE) },
  })
}

const CHECKSUM = json.object({ size: json.count, crc32: json.count })

const SEGMENT: JsonShape<SegmentMeta> = json.object({
  name: json.string,
  docCount: json.count,
  codec: json.literal('vbyte', 'bitpack'),
  files: json.object({ tdx: CHECKSUM, pst: CHECKSUM, pos: CHECKSUM, nrm: CHECKSUM, dv: CHECKSUM, sto: CHECKSUM, ids: CHECKSUM }),
  fields: json.array(
    json.object({ docsWithField: json.count, sumLength: json.count, termCount: json.count, sumDocFreq: json.count, sumTotalTermFreq: json.count }),
  ),
  delGen: json.count,
  delCount: json.count,
  del: json.optional(CHECKSUM),
})

const MANIFEST: JsonShape<Manifest> = json.object({
  format: json.literal('pubmatch-index'),
  version: json.integer,
  generation: json.count,
  nextSegment: json.count,
  schema: json.object({
    fields: json.array(json.object({ name: json.string, analyzer: json.string, keyword: json.boolean, positions: json.boolean, positionGap: json.count })),
    numericDocValues: json.array(json.string),
    sortedSetDocValues: json.array(json.string),
  }),
  segments: json.array(SEGMENT),
  committedAt: json.string,
})

/**
 * Reads and checks an index's manifest; `null` when the directory has none (no index yet).
 * The file is `{"crc32": N, "manifest": {…}}` with N the CRC-32 of the manifest's JSON.
 * @param dir - the index directory
 * @throws PubmatchError `INDEX_CORRUPTED` (unreadable, bad JSON, bad checksum, bad shape)
 *   or `SCHEMA_MISMATCH` (another format version)
 */
export async function readManifest(dir: string): Promise<Manifest | null> {
  let text: string
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return null
    }
    throw new PubmatchError('IO', `cannot read ${join(dir, MANIFEST_FILE)}`, {
      cause: error,
      details: { file: join(dir, MANIFEST_FILE) },
    })
  }
  const source = { file: join(dir, MANIFEST_FILE), code: 'INDEX_CORRUPTED' } as const
  const envelope = parseJson(text, json.object({ crc32: json.count, manifest: json.unknown }), source)
  if (crc32(JSON.stringify(envelope.manifest)) !== envelope.crc32) {
    throw corrupted(dir, 'checksum mismatch')
  }
  const { manifest } = checkJson(envelope, json.object({ manifest: json.object({ format: json.literal('pubmatch-index'), version: json.unknown }) }), source)
  if (manifest.version !== FORMAT_VERSION) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${join(dir, MANIFEST_FILE)}: format version ${String(manifest.version)}, this build reads version ${FORMAT_VERSION}`,
      { details: { file: join(dir, MANIFEST_FILE) } },
    )
  }
  return checkJson(envelope, json.object({ manifest: MANIFEST }), source).manifest
}

/**
 * Commits a manifest: written to a temporary file, flushed, renamed over `INDEX.json`, and
 * the directory flushed. This rename is the commit point.
 * @param dir - the index directory
 * @param manifest - the new state
 */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const json = JSON.stringify(manifest)
  await writeFileAtomic(join(dir, MANIFEST_FILE), `{"crc32":${crc32(json)},"manifest":${json}}\n`)
}
