import { crc32 } from 'node:zlib'
import { PubmatchError } from '@pubmatch/core'
import { readU32 } from './byte-reader.ts'
import { ByteWriter } from './byte-writer.ts'

/** The kinds of index files (their extensions). */
export type IndexFileKind = 'tdx' | 'pst' | 'pos' | 'nrm' | 'dv' | 'sto' | 'ids' | 'del'

/** The on-disk format version of the index (its manifest and every file kind not listed in {@link FILE_VERSIONS}). */
export const FORMAT_VERSION = 1

/**
 * File kinds whose layout moved on since {@link FORMAT_VERSION}: the version written now; every
 * version from 1 up to it is still read. `.sto` 2: records addressable one by one in blocks of 16.
 */
export const FILE_VERSIONS: Readonly<Partial<Record<IndexFileKind, number>>> = Object.freeze({ sto: 2 })

/**
 * The layout version of a file kind as this package writes it.
 * @param kind - the file kind
 */
export function fileVersion(kind: IndexFileKind): number {
  return FILE_VERSIONS[kind] ?? FORMAT_VERSION
}

/**
 * The layout version in a file's header (checked by {@link verifyFile}).
 * @param bytes - the whole file
 */
export function headerVersion(bytes: Uint8Array): number {
  return readU32(bytes, 8)
}

/** Size and CRC-32 of a file, as the manifest records them. */
export interface FileChecksum {
  /** Bytes, footer included. */
  readonly size: number
  /** CRC-32 (zlib polynomial) of every byte before the footer. */
  readonly crc32: number
}

/** Bytes of the header: magic `PMIX`, 4-byte kind, u32 layout version (see {@link fileVersion}). */
export const HEADER_BYTES = 12
/** Bytes of the footer: u32 CRC-32 of everything before it, magic `XIMP`. */
export const FOOTER_BYTES = 8

const HEAD_MAGIC = 0x58494d50 // "PMIX" little-endian
const FOOT_MAGIC = 0x504d4958 // "XIMP" little-endian

function kindCode(kind: IndexFileKind): number {
  const padded = `${kind}\0\0\0\0`.slice(0, 4)
  return (
    (padded.charCodeAt(0) |
      (padded.charCodeAt(1) << 8) |
      (padded.charCodeAt(2) << 16) |
      (padded.charCodeAt(3) << 24)) >>>
    0
  )
}

/**
 * A writer that already holds the file header.
 * @param kind - the file kind
 * @param capacity - initial capacity in bytes. Defaults to `4096`.
 */
export function startFile(kind: IndexFileKind, capacity = 4096): ByteWriter {
  const out = new ByteWriter(capacity)
  out.u32(HEAD_MAGIC)
  out.u32(kindCode(kind))
  out.u32(fileVersion(kind))
  return out
}

/**
 * Appends the footer (CRC-32 of everything so far, then the end magic) and returns the
 * complete file with its checksum.
 * @param out - a writer made by {@link startFile}
 */
export function finishFile(out: ByteWriter): { bytes: Uint8Array; checksum: FileChecksum } {
  const crc = crc32(out.view())
  out.u32(crc)
  out.u32(FOOT_MAGIC)
  const bytes = out.view()
  return { bytes, checksum: { size: bytes.length, crc32: crc } }
}

function corrupted(file: string, what: string): PubmatchError {
  return new PubmatchError('INDEX_CORRUPTED', `${file}: ${what}`, {
    details: { file },
  })
}

/**
 * Checks a file read from disk: size and CRC-32 against the manifest, header magic, kind
 * and version, footer magic and CRC-32. Throws `INDEX_CORRUPTED` on any mismatch (and
 * `SCHEMA_MISMATCH` for a file of another format version); returns the offset where the
 * body starts (the body ends at `bytes.length - FOOTER_BYTES`).
 * @param bytes - the whole file
 * @param kind - the expected kind
 * @param file - the file name, for messages
 * @param expected - the manifest's size and checksum
 */
export function verifyFile(
  bytes: Uint8Array,
  kind: IndexFileKind,
  file: string,
  expected: FileChecksum,
): number {
  if (bytes.length !== expected.size) {
    throw corrupted(file, `size ${bytes.length} bytes, the manifest says ${expected.size}`)
  }
  if (bytes.length < HEADER_BYTES + FOOTER_BYTES) {
    throw corrupted(file, `too short (${bytes.length} bytes) for header and footer`)
  }
  if (readU32(bytes, 0) !== HEAD_MAGIC || readU32(bytes, bytes.length - 4) !== FOOT_MAGIC) {
    throw corrupted(file, 'bad magic number (not a pubmatch index file, or truncated)')
  }
  if (readU32(bytes, 4) !== kindCode(kind)) {
    throw corrupted(file, `not a .${kind} file`)
  }
  const version = readU32(bytes, 8)
  if (version < 1 || version > fileVersion(kind)) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${file}: format version ${version}, this build reads versions 1 to ${fileVersion(kind)} of .${kind} files`,
      { details: { file } },
    )
  }
  const stored = readU32(bytes, bytes.length - FOOTER_BYTES)
  const actual = crc32(bytes.subarray(0, bytes.length - FOOTER_BYTES))
  if (stored !== actual || actual !== expected.crc32) {
    throw corrupted(
      file,
      `checksum mismatch (footer ${stored}, content ${actual}, manifest ${expected.crc32})`,
    )
  }
  return HEADER_BYTES
}
