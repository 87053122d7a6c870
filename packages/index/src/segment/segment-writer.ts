import { join } from 'node:path'
import type { CodecName } from '../codec/block-codec.ts'
import { codecByName } from '../codec/codecs.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import { writeNewFile } from '@pubmatch/core/node'
import { finishFile, startFile, type FileChecksum } from '../io/file-format.ts'
import { PostingsWriter } from '../postings/postings-writer.ts'
import { TermDictionaryWriter } from '../terms/term-dictionary.ts'
import { writeDocIds } from './doc-ids.ts'
import { writeDocValues } from './doc-values.ts'
import { writeNorms } from './norms.ts'
import type { SegmentSource } from './segment-source.ts'
import {
  segmentFileName,
  type SegmentFieldStats,
  type SegmentFileKind,
  type SegmentMeta,
} from './segment-meta.ts'

/** The bytes of a segment's files, before they are written. */
export interface EncodedSegment {
  readonly meta: SegmentMeta
  readonly files: Readonly<Record<SegmentFileKind, Uint8Array>>
}

/**
 * Encodes a segment (pure: no I/O). See README "On-disk format" for the layouts.
 * @param name - the segment name
 * @param source - what to encode
 * @param codecName - the block codec for postings
 */
export function encodeSegment(name: string, source: SegmentSource, codecName: CodecName): EncodedSegment {
  const inverted = encodeInverted(source, codecName)
  return assembleSegment(name, source, codecName, inverted, encodeStored(source))
}

/** A segment's files but `.sto`, encoded, and its field statistics. */
interface EncodedInverted {
  readonly writers: Readonly<Record<Exclude<SegmentFileKind, 'sto'>, ByteWriter>>
  readonly fields: readonly SegmentFieldStats[]
}

function encodeStored(source: SegmentSource): ByteWriter {
  const sto = startFile('sto')
  source.writeStored(sto)
  return sto
}

function assembleSegment(
  name: string,
  source: SegmentSource,
  codecName: CodecName,
  inverted: EncodedInverted,
  sto: ByteWriter,
): EncodedSegment {
  const { tdx, pst, pos, nrm, dv, ids } = inverted.writers
  const writers: Record<SegmentFileKind, ByteWriter> = { tdx, pst, pos, nrm, dv, sto, ids }
  const files = {} as Record<SegmentFileKind, Uint8Array>
  const checksums = {} as Record<SegmentFileKind, FileChecksum>
  for (const kind of Object.keys(writers) as SegmentFileKind[]) {
    const { bytes, checksum } = finishFile(writers[kind])
    files[kind] = bytes
    checksums[kind] = checksum
  }
  return {
    meta: { name, docCount: source.docCount, codec: codecName, files: checksums, fields: inverted.fields, delGen: 0, delCount: 0 },
    files,
  }
}

function encodeInverted(source: SegmentSource, codecName: CodecName): EncodedInverted {
  const schema = source.schema
  const codec = codecByName(codecName)
  const lengths = schema.fields.map((_, f) => source.fieldLengths(f))
  const pst = startFile('pst', 1 << 16)
  const pos = startFile('pos', 1 << 16)
  const tdx = startFile('tdx', 1 << 14)
  tdx.u32(schema.fields.length)
  const tableAt = tdx.length
  for (let f = 0; f < schema.fields.length; f++) {
    tdx.u32(0)
  }
  const fields: SegmentFieldStats[] = []
  schema.fields.forEach((field, f) => {
    tdx.patchU32(tableAt + 4 * f, tdx.length)
    const postings = new PostingsWriter(codec, field.positions)
    const dictionary = new TermDictionaryWriter(field.positions)
    const fieldLengths = lengths[f]!
    let sumDocFreq = 0
    let sumTotalTermFreq = 0
    for (const term of source.terms(f)) {
      const postingsOffset = pst.length
      const positionsOffset = pos.length
      const written = postings.write(term, fieldLengths, pst, pos)
      let totalTermFreq = 0
      for (let i = 0; i < term.count; i++) {
        totalTermFreq += term.freqs[i]!
      }
      dictionary.add(term.term, {
        docFreq: term.count,
        totalTermFreq,
        postingsOffset,
        postingsLength: written.postingsLength,
        positionsOffset: field.positions ? positionsOffset : 0,
        positionsLength: written.positionsLength,
      })
      sumDocFreq += term.count
      sumTotalTermFreq += totalTermFreq
    }
    dictionary.finish(tdx)
    let docsWithField = 0
    let sumLength = 0
    for (const length of fieldLengths) {
      sumLength += length
      if (length > 0) {
        docsWithField++
      }
    }
    fields.push({ docsWithField, sumLength, termCount: dictionary.termCount, sumDocFreq, sumTotalTermFreq })
  })
  const nrm = startFile('nrm', source.docCount * schema.fields.length + 64)
  writeNorms(lengths, nrm)
  const dv = startFile('dv')
  writeDocValues(
    schema.numericDocValues.map((_, i) => source.numericValues(i)),
    schema.sortedSetDocValues.map((_, i) => source.setValues(i)),
    dv,
  )
  const ids = startFile('ids')
  writeDocIds(source.ids(), ids)
  return { writers: { tdx, pst, pos, nrm, dv, ids }, fields }
}

/**
 * Encodes a segment and writes its files (each flushed to disk) into `dir`; the source's
 * `prepareStored` runs on the thread pool while postings are encoded. Nothing refers to the
 * files until a manifest that lists the segment is committed.
 * @param dir - the index directory
 * @param name - the segment name (fresh: existing files are never overwritten)
 * @param source - what to write
 * @param codecName - the block codec for postings
 */
export async function writeSegment(
  dir: string,
  name: string,
  source: SegmentSource,
  codecName: CodecName,
): Promise<SegmentMeta> {
  // The source's stored blocks are deflated on the thread pool while this thread encodes postings.
  const storedReady = source.prepareStored?.()
  storedReady?.catch(() => undefined) // awaited below
  const inverted = encodeInverted(source, codecName)
  await storedReady
  const encoded = assembleSegment(name, source, codecName, inverted, encodeStored(source))
  await Promise.all(
    (Object.keys(encoded.files) as SegmentFileKind[]).map((kind) =>
      writeNewFile(join(dir, segmentFileName(name, kind)), encoded.files[kind]),
    ),
  )
  return encoded.meta
}
