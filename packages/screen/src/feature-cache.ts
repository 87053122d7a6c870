/**
 * A project's vectorised candidates saved next to it, so that opening a project does not analyse
 * every candidate again. `features.bin` holds, after a 4-byte little-endian header length, a JSON
 * header (`format`, the `key` it was built for, the feature names, the row count and the number of
 * stored entries), then the row offsets (`Int32`, rows + 1), the feature ids (`Int32`) and the
 * weights (`Float64`), each little-endian. The key is a SHA-256 of the project file's text and the
 * feature options, so a cache of other candidates or options is never used: it is rebuilt. The
 * file is written crash-safely (`writeFileAtomic`: temporary file, fsync, rename); a damaged or
 * stale one is rebuilt and replaced.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { PubmatchError } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import type { FeatureMatrix, SparseVector } from './features.ts'

const FORMAT = 'pubmatch-screen-features/1'

interface Header {
  readonly format: string
  readonly key: string
  readonly names: readonly string[]
  readonly rows: number
  readonly entries: number
}

/**
 * The cache key of a feature matrix: what it was built from.
 * @param projectText - the project file's text (its candidates)
 * @param options - the feature options, as JSON-able values
 */
export function featureCacheKey(projectText: string, options: unknown): string {
  return createHash('sha256').update(projectText).update('\0').update(JSON.stringify(options)).digest('hex')
}

/** The bytes of a feature matrix with its key. */
export function encodeFeatures(matrix: FeatureMatrix, key: string): Uint8Array {
  const entries = matrix.rows.reduce((sum, row) => sum + row.indices.length, 0)
  const header: Header = { format: FORMAT, key, names: matrix.names, rows: matrix.rows.length, entries }
  const head = Buffer.from(JSON.stringify(header), 'utf8')
  // the arrays start 8-byte aligned after the header
  const start = Math.ceil((4 + head.length) / 8) * 8
  const offsetsBytes = 4 * (matrix.rows.length + 1)
  const valuesAt = Math.ceil((start + offsetsBytes + 4 * entries) / 8) * 8
  const out = new Uint8Array(valuesAt + 8 * entries)
  const view = new DataView(out.buffer)
  view.setUint32(0, head.length, true)
  out.set(head, 4)
  let at = 0
  let p = start + offsetsBytes
  let q = valuesAt
  for (const [r, row] of matrix.rows.entries()) {
    view.setInt32(start + 4 * r, at, true)
    for (let k = 0; k < row.indices.length; k++) {
      view.setInt32(p, row.indices[k]!, true)
      view.setFloat64(q, row.values[k]!, true)
      p += 4
      q += 8
    }
    at += row.indices.length
  }
  view.setInt32(start + 4 * matrix.rows.length, at, true)
  return out
}

/**
 * Decodes {@link encodeFeatures}' bytes.
 * @returns the matrix, or `undefined` when it was built for another key
 * @throws PubmatchError `SCHEMA_MISMATCH` for bytes that are not a whole feature cache
 */
export function decodeFeatures(bytes: Uint8Array, key: string): FeatureMatrix | undefined {
  const bad = (why: string): PubmatchError => new PubmatchError('SCHEMA_MISMATCH', `not a screening feature cache: ${why}`)
  if (bytes.length < 4) throw bad('too short')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const length = view.getUint32(0, true)
  if (4 + length > bytes.length) throw bad('header past the end')
  let header: Header
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, length).toString('utf8')) as Header
  } catch {
    throw bad('header is not JSON')
  }
  if (header.format !== FORMAT || !Array.isArray(header.names) || !Number.isInteger(header.rows) || !Number.isInteger(header.entries)) throw bad('unknown header')
  if (header.key !== key) return undefined
  const start = Math.ceil((4 + length) / 8) * 8
  const offsetsBytes = 4 * (header.rows + 1)
  const valuesAt = Math.ceil((start + offsetsBytes + 4 * header.entries) / 8) * 8
  if (valuesAt + 8 * header.entries !== bytes.length) throw bad(`${bytes.length} bytes, expected ${valuesAt + 8 * header.entries}`)
  const rows: SparseVector[] = []
  for (let r = 0; r < header.rows; r++) {
    const from = view.getInt32(start + 4 * r, true)
    const to = view.getInt32(start + 4 * (r + 1), true)
    if (from < 0 || to < from || to > header.entries) throw bad(`row ${r} out of range`)
    const indices = new Int32Array(to - from)
    const values = new Float64Array(to - from)
    for (let k = from; k < to; k++) {
      const id = view.getInt32(start + offsetsBytes + 4 * k, true)
      if (id < 0 || id >= header.names.length) throw bad(`feature id ${id} out of range`)
      indices[k - from] = id
      values[k - from] = view.getFloat64(valuesAt + 8 * k, true)
    }
    rows.push({ indices, values })
  }
  return { rows, names: header.names }
}

/**
 * The feature matrix from `file` when it was built for `key`, else `build()`'s, saved to `file`.
 * @param file - the cache file
 * @param key - see {@link featureCacheKey}
 * @param build - builds the matrix
 * @returns the matrix and whether it came from the cache
 */
export async function cachedFeatures(file: string, key: string, build: () => FeatureMatrix): Promise<{ matrix: FeatureMatrix; cached: boolean }> {
  const bytes = await readFile(file).catch(() => undefined)
  if (bytes !== undefined) {
    try {
      const matrix = decodeFeatures(bytes, key)
      if (matrix !== undefined) return { matrix, cached: true }
    } catch (error) {
      if (!(error instanceof PubmatchError)) throw error
      // a damaged cache is rebuilt below
    }
  }
  const matrix = build()
  await writeFileAtomic(file, encodeFeatures(matrix, key))
  return { matrix, cached: false }
}
