import { crc32, deflateRawSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteWriter } from '../io/byte-writer.ts'
import { readU32 } from '../io/byte-reader.ts'
import { FORMAT_VERSION, finishFile, headerVersion, startFile, verifyFile } from '../io/file-format.ts'
import type { StoredDocument } from '../schema/config.ts'
import { DocIdsReader, ID_CHUNK_BYTES, writeDocIds } from './doc-ids.ts'
import { DocValuesReader, writeDocValues } from './doc-values.ts'
import { LiveDocs } from './live-docs.ts'
import { NormsReader, writeNorms } from './norms.ts'
import { StoredFieldsReader, StoredFieldsWriter, writeStoredFields } from './stored-fields.ts'

/** Frames a body like a real file (header + footer), so readers see real offsets. */
function framed(write: (out: ByteWriter) => void): { bytes: Uint8Array; body: number } {
  const out = startFile('dv')
  write(out)
  const { bytes, checksum } = finishFile(out)
  return { bytes, body: verifyFile(bytes, 'dv', 'test.dv', checksum) }
}

describe('norms', () => {
  it('round-trips lengths with the narrowest width per field', () => {
    const columns = [Uint32Array.of(0, 3, 255), Uint32Array.of(256, 1, 0), Uint32Array.of(70_000, 2, 9)]
    const out = new ByteWriter()
    writeNorms(columns, out)
    // widths 1, 2, 4: 3 bytes of header + 3·(1 + 2 + 4) bytes of lengths
    expect(out.length).toBe(3 + 3 * 7)
    const { bytes, body } = framed((o) => writeNorms(columns, o))
    const reader = new NormsReader(bytes, body, 3, 3)
    columns.forEach((column, f) => expect([...reader.lengths(f)]).toEqual([...column]))
  })
})

describe('doc values', () => {
  it('round-trips numeric columns with missing and negative values', () => {
    const value = fc.oneof(fc.constant(NaN), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 2 }))
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }).chain((n) => fc.array(fc.array(value, { minLength: n, maxLength: n }), { maxLength: 3 })),
        (columns) => {
          fc.pre(columns.every((c) => {
            const present = c.filter((v) => !Number.isNaN(v))
            return present.length === 0 || Math.max(...present) - Math.min(...present) < 0xfffffffe
          }))
          const docCount = columns[0]?.length ?? 0
          const numeric = columns.map((c) => Float64Array.from(c))
          const { bytes, body } = framed((o) => writeDocValues(numeric, [], o))
          const reader = new DocValuesReader(bytes, body, numeric.length, 0, docCount)
          numeric.forEach((column, i) => expect([...reader.numeric(i)]).toEqual([...column]))
        },
      ),
    )
  })

  it('round-trips sorted sets as distinct values in byte order', () => {
    const sets = [
      [['Journal Article', 'Review'], [], ['Review', 'Case Reports', 'Review']],
      [['eng'], ['ger', 'eng'], ['fre']],
    ]
    const { bytes, body } = framed((o) =>
      writeDocValues([Float64Array.of(1990, NaN, 2016)], sets.map((s) => s.map((v) => [...new Set(v)])), o),
    )
    const reader = new DocValuesReader(bytes, body, 1, 2, 3)
    expect([...reader.numeric(0)]).toEqual([1990, NaN, 2016])
    expect(reader.dictionary(0)).toEqual(['Case Reports', 'Journal Article', 'Review'])
    expect(reader.values(0, 0)).toEqual(['Journal Article', 'Review'])
    expect(reader.values(0, 1)).toEqual([])
    expect(reader.values(0, 2)).toEqual(['Case Reports', 'Review'])
    expect(reader.ordinals(1, 1)).toEqual([0, 2])
    expect(reader.values(1, 1)).toEqual(['eng', 'ger'])
  })
})

describe('stored fields', () => {
  it('round-trips records across compressed blocks', () => {
    const records: StoredDocument[] = Array.from({ length: 70 }, (_, i) => ({
      id: `PMID${i}`,
      title: `Title ${i} – ünïcode`,
      ...(i % 2 === 0 ? { year: 1990 + i } : {}),
      authors: i % 3 === 0 ? ['Smith J'] : [],
      authorCount: i % 3 === 0 ? 1 : 0,
      pubTypes: ['Journal Article'],
      languages: ['eng'],
    }))
    const { bytes, body } = framed((o) => writeStoredFields(records, o))
    const reader = new StoredFieldsReader(bytes, body)
    for (const doc of [0, 15, 16, 31, 32, 69, 5, 40, 41, 0]) {
      expect(reader.get(doc)).toEqual(records[doc])
    }
    // 70 records: blocks of 16, 16, 16, 16, 6
    expect([readU32(bytes, body), readU32(bytes, body + 4)]).toEqual([5, 16])
  })

  it('writes the same bytes from compressed blocks and JSON bytes of another file as from the records', () => {
    const records: StoredDocument[] = Array.from({ length: 40 }, (_, i) => ({ id: `PMID${i}`, title: `T ${i} ✓`, authors: [], authorCount: 0, pubTypes: [], languages: ['eng'] }))
    const { bytes, body } = framed((o) => writeStoredFields(records, o))
    const reader = new StoredFieldsReader(bytes, body)
    const copy = new StoredFieldsWriter()
    copy.addBlock(reader.compressedBlock(0)!)
    expect(() => {
      copy.addJson(reader.json(16))
      copy.addBlock(reader.compressedBlock(1)!)
    }).toThrowError(expect.objectContaining({ code: 'INTERNAL' }) as Error)
    for (let doc = 17; doc < 40; doc++) {
      copy.addJson(reader.json(doc))
    }
    expect(copy.docCount).toBe(40)
    expect(framed((o) => copy.finish(o)).bytes).toEqual(bytes)
    expect(Buffer.from(reader.json(39)).toString('utf8')).toBe(JSON.stringify(records[39]))
  })

  it('deflates on the thread pool into the same bytes, and finishes only once every block is done', async () => {
    const records: StoredDocument[] = Array.from({ length: 100 }, (_, i) => ({ id: `PMID${i}`, title: `T ${i}`, authors: [], authorCount: 0, pubTypes: [], languages: [] }))
    const expected = framed((o) => writeStoredFields(records, o)).bytes
    const writer = new StoredFieldsWriter({ background: true })
    records.forEach((record) => writer.add(record))
    // 100 records: 6 full blocks handed to the pool, 4 records pending for the last one
    expect(writer.pendingDocs).toBe(4)
    expect(writer.deflatingBlocks).toBe(6)
    expect(() => framed((o) => writer.finish(o))).toThrowError(expect.objectContaining({ code: 'INTERNAL' }) as Error)
    await writer.drain(2)
    expect(writer.deflatingBlocks).toBeLessThanOrEqual(2)
    await writer.settled()
    expect(writer.deflatingBlocks).toBe(0)
    expect(framed((o) => writer.finish(o)).bytes).toEqual(expected)
  })

  it('still reads version 1 (blocks of 32 records as one deflated JSON array)', () => {
    const records: StoredDocument[] = Array.from({ length: 40 }, (_, i) => ({ id: `MED-${i}`, title: `T ${i} ✓`, authors: [], authorCount: 0, pubTypes: [], languages: [] }))
    const blocks = [records.slice(0, 32), records.slice(32)].map((block) => deflateRawSync(JSON.stringify(block)))
    const { bytes, body } = framed((o) => {
      o.u32(blocks.length)
      o.u32(0)
      o.u32(blocks[0]!.length)
      o.u32(blocks[0]!.length + blocks[1]!.length)
      for (const block of blocks) {
        o.bytes(block)
      }
    })
    const reader = new StoredFieldsReader(bytes, body, 1)
    for (const doc of [0, 31, 32, 39, 3]) {
      expect(reader.get(doc)).toEqual(records[doc])
    }
  })

  it('refuses a record that is not of a stored record’s shape, naming the file and the field', () => {
    const good = { id: 'PMID1', title: 'T', authors: [], authorCount: 0, pubTypes: [], languages: [] }
    const records = [good, { ...good, id: 'PMID2', authors: 'Smith J' }] as unknown as StoredDocument[]
    const { bytes, body } = framed((o) => writeStoredFields(records, o))
    const reader = new StoredFieldsReader(bytes, body, 2, '_3.sto')
    expect(reader.get(0)).toEqual(good)
    expect(() => reader.get(1)).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: _3.sto: authors is "Smith J", expected an array]`)
    expect(() => reader.get(1)).toThrowError(expect.objectContaining({ code: 'INDEX_CORRUPTED', details: { file: '_3.sto', field: 'authors' } }) as Error)
  })
})

describe('file versions', () => {
  it('writes .sto at version 2 and the other kinds at FORMAT_VERSION, and refuses a version it does not know', () => {
    expect(headerVersion(finishFile(startFile('sto')).bytes)).toBe(2)
    expect(headerVersion(finishFile(startFile('pst')).bytes)).toBe(FORMAT_VERSION)
    const out = startFile('pst')
    const { bytes, checksum } = finishFile(out)
    const newer = new Uint8Array(bytes)
    new DataView(newer.buffer).setUint32(8, FORMAT_VERSION + 1, true)
    // the CRC covers the header: recompute it as a newer writer would have
    const crc = crc32(newer.subarray(0, newer.length - 8))
    new DataView(newer.buffer).setUint32(newer.length - 8, crc, true)
    expect(() => verifyFile(newer, 'pst', 'x.pst', { size: checksum.size, crc32: crc })).toThrow(/format version 2, this build reads versions 1 to 1 of \.pst files/)
  })
})

describe('doc ids', () => {
  it('maps ids to documents and back, listing duplicates', () => {
    const ids = ['MED-10', 'MED-5371', '12345', 'MED-10', 'ünï']
    const { bytes, body } = framed((o) => writeDocIds(ids, o))
    const reader = new DocIdsReader(bytes, body)
    expect(reader.count).toBe(5)
    expect(reader.id(4)).toBe('ünï')
    expect(reader.docsOf('MED-10')).toEqual([0, 3])
    expect(reader.docsOf('12345')).toEqual([2])
    expect(reader.docsOf('nope')).toEqual([])
    expect(reader.ids()).toEqual(ids)
  })

  it('reads ids across chunks of the blob: ASCII ones, one non-ASCII chunk and ids that straddle chunk ends', () => {
    // ids of 5 to 17 bytes; one non-ASCII id in the second chunk
    const ids = Array.from({ length: 3 * (ID_CHUNK_BYTES / 8) }, (_, i) => `PMID-${i}`.padEnd(5 + (i % 13), 'x'))
    const special = Math.floor((ID_CHUNK_BYTES * 1.5) / 11)
    ids[special] = 'müller-ü'
    const { bytes, body } = framed((o) => writeDocIds(ids, o))
    const reader = new DocIdsReader(Buffer.from(bytes), body)
    // where each id's bytes start and end in the blob, to count the cases covered
    let at = 0
    let straddling = 0
    const chunkOf = new Set<number>()
    for (const id of ids) {
      const end = at + Buffer.byteLength(id)
      if (Math.floor(at / ID_CHUNK_BYTES) !== Math.floor((end - 1) / ID_CHUNK_BYTES)) {
        straddling++
      }
      chunkOf.add(Math.floor(at / ID_CHUNK_BYTES))
      at = end
    }
    expect(straddling).toBeGreaterThan(1)
    expect(chunkOf.size).toBeGreaterThan(2)
    // out of order, so chunks are made on demand in any order
    const backwards = ids.map((_, i) => i).filter((i) => i % 7 === 3).reverse()
    expect(backwards.map((i) => reader.id(i))).toEqual(backwards.map((i) => ids[i]))
    expect(ids.map((_, i) => reader.id(i))).toEqual(ids)
    expect(reader.id(special)).toBe('müller-ü')
  })

  it('writes u32 count, u32 offsets and the UTF-8 blob, encoding each id on its own (hand-computed bytes)', () => {
    const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, 0, 0]
    const ascii = framed((o) => writeDocIds(['a', 'bc'], o))
    expect([...ascii.bytes.subarray(ascii.body, ascii.body + 19)]).toEqual([
      ...u32(2), ...u32(0), ...u32(1), ...u32(3), 0x61, 0x62, 0x63,
    ])
    // A lone high surrogate ending one id and a lone low one starting the next stay two
    // replacement characters (EF BF BD each), not one 4-byte character.
    const lone = framed((o) => writeDocIds(['x\ud800', '\udc00y'], o))
    expect([...lone.bytes.subarray(lone.body, lone.body + 24)]).toEqual([
      ...u32(2), ...u32(0), ...u32(4), ...u32(8), 0x78, 0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd, 0x79,
    ])
  })
})

describe('LiveDocs', () => {
  it('counts deletions and round-trips through a .del body', () => {
    const live = new LiveDocs(20)
    expect(live.delete(3)).toBe(true)
    expect(live.delete(3)).toBe(false)
    live.delete(17)
    expect(live.deletedCount).toBe(2)
    expect(live.liveCount).toBe(18)
    const copy = live.clone()
    copy.delete(0)
    expect(live.isLive(0)).toBe(true)
    const out = new ByteWriter()
    live.write(out)
    // u32 docCount, u32 deleted, 3 bytes of bits: doc 3 → byte 0 bit 3, doc 17 → byte 2 bit 1
    expect([...out.view()]).toEqual([20, 0, 0, 0, 2, 0, 0, 0, 0x08, 0x00, 0x02])
    const read = LiveDocs.read(out.view(), 0)
    expect(read.isLive(3)).toBe(false)
    expect(read.isLive(17)).toBe(false)
    expect(read.isLive(16)).toBe(true)
    expect(read.deletedCount).toBe(2)
  })
})

describe('verifyFile', () => {
  it('rejects a flipped byte, a truncation, a wrong kind and a wrong manifest checksum', () => {
    const out = startFile('pst')
    out.u32(123456)
    const { bytes, checksum } = finishFile(out)
    // Python: zlib.crc32(b'PMIX' + b'pst\0' + pack('<I', 1) + pack('<I', 123456)) == 4137327397
    expect(checksum).toEqual({ size: 24, crc32: 4137327397 })
    expect(verifyFile(bytes, 'pst', 'a.pst', checksum)).toBe(12)
    const flipped = Uint8Array.from(bytes)
    flipped[13]! ^= 1
    expect(() => verifyFile(flipped, 'pst', 'a.pst', checksum)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: a.pst: checksum mismatch (footer 4137327397, content 4149801234, manifest 4137327397)]`,
    )
    expect(() => verifyFile(bytes.subarray(0, 19), 'pst', 'a.pst', checksum)).toThrow(/size 19 bytes, the manifest says 24/)
    expect(() => verifyFile(bytes, 'pos', 'a.pst', checksum)).toThrow(/not a \.pos file/)
    expect(() => verifyFile(bytes, 'pst', 'a.pst', { ...checksum, crc32: 1 })).toThrow(/manifest 1\)/)
  })
})
