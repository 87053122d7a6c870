import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import type { IngestRecord } from '../records.ts'
import { decodeBiocJson } from './bioc-json.ts'
import { decodeBiocXml } from './bioc-xml.ts'
import { parseBiocJson, parseBiocXml, readBiocFile } from './read-bioc.ts'

/** The BioC reference samples committed with the tests (a subset of the real data set's `pmc/bioc-format`, same layout). */
const format = fileURLToPath(new URL('../../test/fixtures/bioc-format/', import.meta.url))
const read = (path: string): string => readFileSync(join(format, path), 'utf8')
/** A BioC reference sample of the real data set (only in tests tagged `real-data`). */
const readShared = (path: string): string =>
  readFileSync(sharedDataPath('pmc', 'bioc-format', path), 'utf8')

/** Records as plain values (errors by their JSON form) so that deep equality is meaningful. */
async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

const plain = (records: readonly IngestRecord[]): unknown[] =>
  records.map((record) =>
    record.kind === 'error' ? { kind: 'error', error: record.error.toJSON() } : record,
  )

/** Reference pairs of the real data set only. */
const REAL_TWINS = [
  ['ncbi-nlp-BioC-JSON/xml/collection.xml', 'ncbi-nlp-BioC-JSON/json/collection.json'],
  ['ncbi-nlp-BioC-JSON/xml/abbr.xml', 'ncbi-nlp-BioC-JSON/json/abbr.json'],
] as const

/** Reference pairs committed with the tests. */
const TWINS = [
  ['ncbi-nlp-BioC-JSON/xml/everything.xml', 'ncbi-nlp-BioC-JSON/json/everything.json'],
  [
    'ncbi-nlp-BioC-JSON/xml/everything-sentence.xml',
    'ncbi-nlp-BioC-JSON/json/everything-sentence.json',
  ],
  ['bionlplab-bioc/everything.xml', 'bionlplab-bioc/everything.json'],
] as const

/** A minimal BioC XML (v1) writer, to derive XML twins of the real PMC JSON files. */
function toBiocXml(json: string): string {
  const escape = (text: string): string =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  const infons = (values: Record<string, unknown>, indent: string): string =>
    Object.entries(values)
      .filter(([, value]) => typeof value === 'string')
      .map(
        ([key, value]) =>
          `${indent}<infon key="${escape(key)}">${escape(value as string)}</infon>\n`,
      )
      .join('')
  type Passage = { offset: number; text: string; infons: Record<string, unknown> }
  type Document = { id: string; infons: Record<string, unknown>; passages: Passage[] }
  type Collection = {
    source: string
    date: string
    key: string
    infons: Record<string, unknown>
    documents: Document[]
  }
  const collections = JSON.parse(json) as Collection[]
  return collections
    .map(
      (c) =>
        `<?xml version='1.0' encoding='UTF-8'?><!DOCTYPE collection SYSTEM 'BioC.dtd'>\n<collection>\n` +
        `  <source>${escape(c.source)}</source>\n  <date>${c.date}</date>\n  <key>${c.key}</key>\n` +
        infons(c.infons, '  ') +
        c.documents
          .map(
            (d) =>
              `  <document>\n    <id>${escape(d.id)}</id>\n${infons(d.infons, '    ')}` +
              d.passages
                .map(
                  (p) =>
                    `    <passage>\n${infons(p.infons, '      ')}      <offset>${p.offset}</offset>\n` +
                    `      <text>${escape(p.text)}</text>\n    </passage>\n`,
                )
                .join('') +
              `  </document>\n`,
          )
          .join('') +
        `</collection>\n`,
    )
    .join('')
}

describe('decodeBiocXml', () => {
  it.each(TWINS)('decodes %s exactly as its JSON twin', (xml, json) => {
    expect(existsSync(join(format, xml))).toBe(true)
    expect(decodeBiocXml(read(xml), 'twin')).toEqual(decodeBiocJson(read(json), 'twin'))
  })

  it.each(REAL_TWINS)(
    'decodes %s of the real data set exactly as its JSON twin',
    { tags: ['real-data'] },
    (xml, json) => {
      expect(decodeBiocXml(readShared(xml), 'twin')).toEqual(
        decodeBiocJson(readShared(json), 'twin'),
      )
    },
  )

  it('reads the reference collection with offsets, infons and decoded character references', () => {
    const [collection] = decodeBiocXml(read('ncbi-nlp-BioC-JSON/xml/collection.xml'))
    expect(collection).toMatchObject({
      source: 'PubMed',
      date: '20120606',
      key: 'collection.key',
      infons: {},
    })
    if (collection === undefined || collection instanceof Error) {
      throw new Error('expected a collection')
    }
    expect(collection.documents).toHaveLength(10)
    expect(collection.documents.reduce((sum, document) => sum + document.passages.length, 0)).toBe(
      19,
    )
    const [first, , third] = collection.documents
    expect(first?.id).toBe('21951408')
    expect(first?.passages.map((passage) => [passage.offset, passage.infons])).toEqual([
      [0, { type: 'title' }],
      [114, { type: 'abstract' }],
    ])
    // `Permacol&#8482;` in the XML.
    expect(third?.passages[0]?.text).toBe(
      'Perineal hernia after laparoscopic abdominoperineal resection--reconstruction of the pelvic floor with a biological mesh (Permacol\u2122).',
    )
  })

  it('reads BioC v2 (id and offset attributes) like v1 (child elements)', () => {
    const v1 = decodeBiocXml(read('bionlplab-bioc/everything.xml'))
    const v2 = decodeBiocXml(read('bionlplab-bioc/everything_v2.xml'))
    expect(v2).toEqual(v1)
    expect(v1).toMatchObject([
      {
        documents: [
          { id: '1', passages: [{ offset: 0, text: 'abcdefghijklmnopqrstuvwxyz' }], problems: [] },
          // Text rebuilt from two sentences at 27 ("abcdefg") and 34, which continues it exactly.
          { id: '2', passages: [{ offset: 27, text: 'abcdefg测试Non-ASCII' }], problems: [] },
        ],
      },
    ])
  })

  it('keeps text exactly as written, including surrounding blanks', () => {
    const [collection] = decodeBiocXml(
      '<collection><document><id>PMC1</id><passage><offset>0</offset><text>  a &lt; b &amp;#8482; </text></passage></document></collection>',
    )
    expect(collection).toMatchObject({ documents: [{ passages: [{ text: '  a < b &#8482; ' }] }] })
  })

  it('keeps the documents before the cut of a truncated file and reports TRUNCATED_INPUT', () => {
    const xml = read('ncbi-nlp-BioC-JSON/xml/collection.xml')
    const decoded = decodeBiocXml(xml.slice(0, 4000), 'collection.xml')
    expect(decoded).toHaveLength(2)
    expect(decoded[0]).toMatchObject({ source: 'PubMed', documents: [{ id: '21951408' }] })
    expect(decoded[1]).toMatchObject({
      code: 'TRUNCATED_INPUT',
      details: { file: 'collection.xml' },
    })
    expect((decoded[1] as Error).message).toMatchInlineSnapshot(
      `"collection.xml: the input ends inside record #5 <document> (started at character 2575)"`,
    )
  })

  it('bounds DOCTYPE entity expansion and refuses external entities', () => {
    const big = 'x'.repeat(5_000)
    const bomb = `<!DOCTYPE collection [<!ENTITY a "${big}">]><collection><document><id>PMC1</id><passage><offset>0</offset><text>${'&a;'.repeat(300)}</text></passage></document></collection>`
    expect(decodeBiocXml(bomb, 'bomb.xml')).toMatchObject([{ code: 'ENTITY_EXPANSION_LIMIT' }])
    const external =
      '<!DOCTYPE collection [<!ENTITY e SYSTEM "file:///etc/passwd">]><collection><document><id>PMC1</id><passage><offset>0</offset><text>&e;</text></passage></document></collection>'
    expect(decodeBiocXml(external, 'external.xml')).toMatchObject([{ code: 'EXTERNAL_ENTITY' }])
  })

  it('refuses nested entity declarations (billion laughs)', () => {
    const levels = Array.from({ length: 9 }, (_, i) =>
      i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
    ).join('')
    const xml = `<!DOCTYPE collection [${levels}]><collection><document><id>PMC1</id><passage><offset>0</offset><text>&lol8;</text></passage></document></collection>`
    expect(decodeBiocXml(xml, 'lol.xml')).toMatchObject([{ code: 'ENTITY_EXPANSION_LIMIT' }])
  })

  it('reports a root element other than <collection>', () => {
    const [error] = decodeBiocXml('<article><p>x</p></article>', 'jats.xml')
    expect((error as Error).message).toMatchInlineSnapshot(
      `"jats.xml: expected a BioC <collection> root element, found <article>"`,
    )
  })
})

describe('parseBiocXml', () => {
  it.each(TWINS)('gives the same records for %s as parseBiocJson for its twin', (xml, json) => {
    expect(plain(parseBiocXml(read(xml), { file: 'twin' }))).toEqual(
      plain(parseBiocJson(read(json), { file: 'twin' })),
    )
  })

  it.each(REAL_TWINS)(
    'gives the same records for %s of the real data set as parseBiocJson for its twin',
    { tags: ['real-data'] },
    (xml, json) => {
      expect(plain(parseBiocXml(readShared(xml), { file: 'twin' }))).toEqual(
        plain(parseBiocJson(readShared(json), { file: 'twin' })),
      )
    },
  )

  it('reports a malformed document and goes on with the next one, in order', () => {
    const xml =
      '<collection><source>PMC</source>' +
      '<document><id>1</id><passage><offset>0</offset><text>a</passage></document>' +
      '<document><id>2</id><passage><infon key="type">front</infon><offset>0</offset><text>Title</text></passage></document>' +
      '</collection>'
    const records = parseBiocXml(xml, { file: 'bad.xml' })
    expect(
      records.map((record) => (record.kind === 'error' ? record.error.code : record.kind)),
    ).toEqual(['MALFORMED_XML', 'fulltext'])
    expect(records[0]?.kind === 'error' && records[0].error.details).toMatchObject({
      file: 'bad.xml',
      record: '1',
    })
    expect(records[1]).toMatchObject({ document: { pmcid: 'PMC2', title: 'Title' } })
  })

  it('reports the PubMed reference collection documents as lacking a PMC id', () => {
    const records = parseBiocXml(read('ncbi-nlp-BioC-JSON/xml/collection.xml'), {
      file: 'collection.xml',
    })
    expect(records).toHaveLength(10)
    expect(
      records.every((record) => record.kind === 'error' && record.error.code === 'MISSING_FIELD'),
    ).toBe(true)
  })

  it.each([
    'PMC10142442.json',
    'PMC10370681.json',
    'PMC10719374.json',
    'PMC11233762.json',
    'PMC11500582.json',
  ])('reads an XML rendering of the sample corpus %s exactly as the JSON', (file) => {
    const json = readFileSync(samplePath('bioc', file), 'utf8')
    const fromJson = parseBiocJson(json, { file })
    expect(fromJson.every((record) => record.kind === 'fulltext')).toBe(true)
    expect(plain(parseBiocXml(toBiocXml(json), { file }))).toEqual(plain(fromJson))
  })

  it.each(['PMC10793275.json', 'PMC11167097.json', 'PMC10020673.json', 'PMC3509447.json'])(
    'reads an XML rendering of the real %s exactly as the JSON',
    { tags: ['real-data'] },
    (file) => {
      const json = readFileSync(sharedDataPath('pmc', 'bioc-json', file), 'utf8')
      const fromJson = parseBiocJson(json, { file })
      expect(fromJson.every((record) => record.kind === 'fulltext')).toBe(true)
      expect(plain(parseBiocXml(toBiocXml(json), { file }))).toEqual(plain(fromJson))
    },
  )

  it('is what readBiocFile streams for XML files, plain or gzipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pubmatch-bioc-xml-'))
    try {
      const json = readFileSync(samplePath('bioc', 'PMC11233762.json'), 'utf8')
      const xml = toBiocXml(json)
      await writeFile(join(dir, 'PMC11233762.xml'), xml)
      await writeFile(join(dir, 'PMC11233762.xml.gz'), gzipSync(xml))
      await writeFile(join(dir, 'cut.xml'), xml.slice(0, 3000))
      await writeFile(join(dir, 'jats.xml'), '<article><front/></article>')
      const expected = plain(parseBiocJson(json, { file: 'PMC11233762.xml' }))
      expect(plain(await collect(readBiocFile(join(dir, 'PMC11233762.xml'))))).toEqual(expected)
      const fromGzip = plain(await collect(readBiocFile(join(dir, 'PMC11233762.xml.gz'))))
      expect(fromGzip).toEqual(plain(parseBiocJson(json, { file: 'PMC11233762.xml.gz' })))
      const cut = await collect(readBiocFile(join(dir, 'cut.xml')))
      expect(
        cut.map((record) => (record.kind === 'error' ? record.error.code : record.kind)),
      ).toEqual(['TRUNCATED_INPUT'])
      await expect(collect(readBiocFile(join(dir, 'jats.xml')))).rejects.toMatchObject({
        code: 'UNSUPPORTED_FORMAT',
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
