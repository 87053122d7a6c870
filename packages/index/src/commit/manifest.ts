import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
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
  let envelope: unknown
  try {
    envelope = JSON.parse(text)
  } catch (error) {
    throw corrupted(dir, `not JSON: ${truncateForMessage(text)}`, error)
  }
  if (typeof envelope !== 'object' || envelope === null || !('manifest' in envelope) || !('crc32' in envelope)) {
    throw corrupted(dir, `no manifest/crc32: ${truncateForMessage(text)}`)
  }
  const { manifest, crc32: stored } = envelope
  if (crc32(JSON.stringify(manifest)) !== stored) {
    throw corrupted(dir, 'checksum mismatch')
  }
  const m = manifest as Partial<Manifest>
  if (m.format !== 'pubmatch-index' || !Array.isArray(m.segments) || typeof m.generation !== 'number' || m.schema === undefined) {
    throw corrupted(dir, `not a pubmatch index manifest: ${truncateForMessage(text)}`)
  }
  if (m.version !== FORMAT_VERSION) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${join(dir, MANIFEST_FILE)}: format version ${String(m.version)}, this build reads version ${FORMAT_VERSION}`,
      { details: { file: join(dir, MANIFEST_FILE) } },
    )
  }
  return manifest as Manifest
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
