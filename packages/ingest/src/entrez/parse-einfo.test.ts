import { describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { readEutilsFixture as read, readSharedEutils } from '../../test/eutils-fixtures.ts'
import { parseEInfo } from './parse-einfo.ts'

describe('parseEInfo', () => {
  it('reads the pubmed fields and links of biopython einfo2', () => {
    const result = parseEInfo(read('biopython/einfo2.xml'), 'xml')
    if (result.kind !== 'dbInfo') {
      throw new Error('expected dbInfo')
    }
    const { info } = result
    expect([info.dbName, info.menuName, info.count, info.dbBuild, info.lastUpdate]).toEqual([
      'pubmed',
      'PubMed',
      39730388,
      'Build-2025.11.27.06.33',
      '2025/11/27 06:33',
    ])
    // 50 <Field> and 57 <Link> elements in the file
    expect(info.fields).toHaveLength(50)
    expect(info.links).toHaveLength(57)
    expect(info.fields.find((f) => f.name === 'MESH')).toEqual({
      name: 'MESH',
      fullName: 'MeSH Terms',
      description: 'Medical Subject Headings assigned to publication',
      isDate: false,
      isNumerical: false,
      singleToken: true,
      hierarchy: true,
      isHidden: false,
    })
    expect(info.links.at(-1)).toEqual({
      name: 'pubmed_taxonomy_entrez',
      menu: 'Taxonomy via GenBank',
      description: 'Related Taxonomy entry computed using other Entrez links',
      dbTo: 'taxonomy',
    })
  })

  it('reads the database list (biopython einfo1: 39 databases)', () => {
    const xml = parseEInfo(read('biopython/einfo1.xml'), 'xml')
    expect(xml.kind === 'dbList' && xml.dbNames.length).toBe(39)
    expect(xml.kind === 'dbList' && xml.dbNames.slice(0, 3)).toEqual([
      'pubmed',
      'protein',
      'nuccore',
    ])
  })

  it('rejects the truncated biopython einfo4 with MALFORMED_XML', () => {
    expect(() => parseEInfo(read('biopython/einfo4.xml'), 'xml')).toThrow(
      expect.objectContaining({ code: 'MALFORMED_XML' }) as Error,
    )
  })
})

describe('parseEInfo on the XML and JSON renderings of Klortho', { tags: ['real-data'] }, () => {
  const read = readSharedEutils

  it('gives the same result for klortho einfo.pubmed .xml and .json', () => {
    const xml = parseEInfo(read('klortho/einfo.pubmed.xml'), 'xml')
    expect(parseEInfo(read('klortho/einfo.pubmed.json'), 'json')).toEqual(xml)
    if (xml.kind !== 'dbInfo') {
      throw new Error('expected dbInfo')
    }
    expect([xml.info.count, xml.info.fields.length, xml.info.links.length]).toEqual([
      22284197, 47, 59,
    ])
    expect(xml.info.fields[0]!.termCount).toBe(137022101)
  })

  it('reads the database list in JSON (klortho einfo.json)', () => {
    const json = parseEInfo(read('klortho/einfo.json'), 'json')
    expect(json.kind === 'dbList' && json.dbNames.at(-1)).toBe('gencoll')
  })

  it('turns klortho einfo.error (XML and JSON) into UPSTREAM_ERROR', () => {
    for (const [file, format] of [
      ['klortho/einfo.error.xml', 'xml'],
      ['klortho/einfo.error.json', 'json'],
    ] as const) {
      try {
        parseEInfo(read(file), format)
        expect.unreachable()
      } catch (error) {
        expect(isPubmatchError(error, 'UPSTREAM_ERROR')).toBe(true)
        expect((error as Error).message).toContain('Can not retrieve DbInfo for db=fleegle')
      }
    }
  })
})
