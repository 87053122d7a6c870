import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { isPubmatchError, type MeshDescriptor } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import type { IngestRecord, MeshEntry } from '../records.ts'
import type { XmlScanStats } from '../xml/scanner.ts'
import { parseMeshXmlString, readMeshXml } from './reader.ts'

/** A MeSH file of the sample corpus, or of the real data set (the `*-head.xml` files). */
const mesh = (file: string): string =>
  file.endsWith('-head.xml') ? sharedDataPath('mesh', file) : samplePath('mesh', file)

async function readAll(
  input: Parameters<typeof readMeshXml>[0],
  stats?: XmlScanStats,
): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of readMeshXml(input, stats === undefined ? {} : { stats })) {
    out.push(record)
  }
  return out
}

const entries = (records: readonly IngestRecord[]): MeshEntry[] =>
  records.flatMap((r) => (r.kind === 'mesh' ? [r.entry] : []))

/** Counts a record element in the raw text, independently of the reader. */
const rawCount = (file: string, element: string): number =>
  readFileSync(mesh(file), 'utf8').match(new RegExp(`<${element}[ >]`, 'g'))?.length ?? 0

describe('readMeshXml', () => {
  it.each([
    ['desc-samples.xml', 'descriptor', 'DescriptorRecord', 43],
    ['qual2014.xml', 'qualifier', 'QualifierRecord', 83],
    ['supp-samples.xml', 'supplementary', 'SupplementalRecord', 19],
  ])('reads every record of %s', async (file, type, element, expected) => {
    const records = await readAll(mesh(file))
    expect(records.filter((r) => r.kind === 'error')).toEqual([])
    expect(rawCount(file, element)).toBe(expected)
    expect(entries(records)).toHaveLength(expected)
    expect(entries(records).every((e) => e.type === type)).toBe(true)
    expect(new Set(entries(records).map((e) => e.record.ui)).size).toBe(expected)
  })

  it.each([
    ['desc2014-head.xml', 'descriptor', 'DescriptorRecord', 63],
    ['supp2014-head.xml', 'supplementary', 'SupplementalRecord', 109],
  ])(
    'reads every record of %s of the real data set',
    { tags: ['real-data'] },
    async (file, type, element, expected) => {
      const records = await readAll(mesh(file))
      expect(records.filter((r) => r.kind === 'error')).toEqual([])
      expect(rawCount(file, element)).toBe(expected)
      expect(entries(records)).toHaveLength(expected)
      expect(entries(records).every((e) => e.type === type)).toBe(true)
      expect(new Set(entries(records).map((e) => e.record.ui)).size).toBe(expected)
    },
  )

  it('reads a descriptor: name, tree numbers, entry terms of every concept, qualifiers, scope note (D000082)', async () => {
    const records = entries(await readAll(mesh('desc-samples.xml')))
    const acetaminophen = records.find((e) => e.record.ui === 'D000082')?.record as MeshDescriptor
    expect(acetaminophen.name).toBe('Acetaminophen')
    expect(acetaminophen.treeNumbers).toEqual(['D02.065.199.092.040'])
    expect(acetaminophen.entryTerms.slice(0, 5)).toEqual([
      'Acetaminophen',
      'Hydroxyacetanilide',
      'N-(4-Hydroxyphenyl)acetanilide',
      'Paracetamol',
      'Acetominophen',
    ])
    expect(acetaminophen.entryTerms).toHaveLength(20)
    expect(acetaminophen.allowableQualifiers).toHaveLength(26)
    expect(acetaminophen.allowableQualifiers.slice(0, 3)).toEqual(['Q000031', 'Q000276', 'Q000493'])
    expect(acetaminophen.scopeNote).toBe(
      'Analgesic antipyretic derivative of acetanilide. It has weak anti-inflammatory properties and is used as a common analgesic, but may cause liver, blood cell, and kidney damage.',
    )
    const calcimycin = records.find((e) => e.record.ui === 'D000001')?.record as MeshDescriptor
    expect(calcimycin.entryTerms).toEqual([
      'Calcimycin',
      'A-23187',
      'A 23187',
      'Antibiotic A23187',
      'A23187, Antibiotic',
      'A23187',
    ])
    // desc-samples.xml is a later MeSH year than desc2014-head.xml: its list starts differently.
    expect(calcimycin.allowableQualifiers.slice(0, 3)).toEqual(['Q000031', 'Q000276', 'Q000493'])
  })

  it('reads a qualifier with its abbreviation, and an SCR with its mappings (Q000002, C025735)', async () => {
    const qualifiers = entries(await readAll(mesh('qual2014.xml')))
    expect(qualifiers[0]).toEqual({
      type: 'qualifier',
      record: {
        ui: 'Q000002',
        name: 'abnormalities',
        abbreviation: 'AB',
        treeNumbers: ['Y02.030.010'],
      },
    })
    expect(
      qualifiers.every(
        (q) => q.type === 'qualifier' && /^[A-Z]{2}$/.test(q.record.abbreviation ?? ''),
      ),
    ).toBe(true)
    const scrs = entries(await readAll(mesh('supp-samples.xml')))
    expect(scrs[0]).toEqual({
      type: 'supplementary',
      record: {
        ui: 'C025735',
        name: 'Aeron',
        entryTerms: ['Aeron'],
        mappedTo: ['D001286', 'D002164', 'D004338', 'D012602'],
      },
    })
  })

  it('streams a gzip-compressed file in small chunks with the same result and a bounded buffer', async () => {
    const raw = readFileSync(mesh('desc-samples.xml'))
    const stats: XmlScanStats = { chars: 0, records: 0, maxBufferedChars: 0, maxRecordChars: 0 }
    const chunks = Readable.from(
      (function* () {
        const gz = gzipSync(raw)
        for (let i = 0; i < gz.length; i += 997) {
          yield gz.subarray(i, i + 997)
        }
      })(),
    )
    const streamed = await readAll(chunks, stats)
    expect(streamed).toEqual(await readAll(mesh('desc-samples.xml')))
    expect(stats.records).toBe(43)
    expect(stats.maxBufferedChars).toBeLessThan(stats.maxRecordChars + 1024)
    expect(stats.maxBufferedChars * 10).toBeLessThan(stats.chars)
  })

  it('rejects a file that is not MeSH, and reports a record without its UI', () => {
    expect(() => parseMeshXmlString('<PubmedArticleSet/>', { file: 'x.xml' })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_FORMAT' }) as Error,
    )
    const records = parseMeshXmlString(
      '<DescriptorRecordSet><DescriptorRecord><DescriptorName><String>X</String></DescriptorName></DescriptorRecord>' +
        '<DescriptorRecord><DescriptorUI>D1</DescriptorUI><DescriptorName><String>Y</String></DescriptorName></DescriptorRecord></DescriptorRecordSet>',
    )
    expect(records[0]?.kind === 'error' && isPubmatchError(records[0].error, 'MISSING_FIELD')).toBe(
      true,
    )
    expect(records[0]?.kind === 'error' && records[0].error.details.record).toBe('#1')
    expect(records[1]).toEqual({
      kind: 'mesh',
      entry: {
        type: 'descriptor',
        record: {
          ui: 'D1',
          name: 'Y',
          treeNumbers: [],
          entryTerms: ['Y'],
          allowableQualifiers: [],
        },
      },
    })
  })
})
