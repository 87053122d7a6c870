import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read, readSharedEutils } from '../../test/eutils-fixtures.ts'
import { parseESummary, summaryText } from './parse-esummary.ts'

describe('parseESummary', () => {
  it('reads version 1 DocSum items with their types (biopython esummary1)', () => {
    const { documents, warnings } = parseESummary(read('biopython/esummary1.xml'), 'xml')
    expect(warnings).toEqual([])
    expect(documents.map((d) => d.uid)).toEqual(['11850928', '11482001'])
    const first = documents[0]!
    expect(first.fields['Title']).toBe(
      'Zirconium granuloma following treatment of rhus dermatitis.',
    )
    expect(first.fields['AuthorList']).toEqual(['LoPresti PJ', 'Hambrick GW Jr'])
    expect(first.fields['ArticleIds']).toEqual({ pubmed: '11850928' })
    expect(first.fields['History']).toEqual({
      pubmed: '1965/08/01 00:00',
      medline: '2002/03/09 10:01',
      entrez: '1965/08/01 00:00',
    })
    expect(first.fields['HasAbstract']).toBe(1)
    expect(first.fields['PmcRefCount']).toBe(0)
    expect(first.fields['EPubDate']).toBe('')
    expect(first.fields['References']).toEqual({})
    expect(documents[1]!.fields['PubTypeList']).toEqual(['Journal Article', 'Review'])
  })

  it('reads empty Integer items as null (biopython esummary3, protein)', () => {
    const { documents } = parseESummary(read('biopython/esummary3.xml'), 'xml')
    expect(documents[0]!.fields['Flags']).toBeNull()
    expect(documents[0]!.fields['TaxId']).toBe(9606)
    expect(documents[0]!.fields['Gi']).toBe(28800982)
  })

  it('turns an error-only answer into UPSTREAM_ERROR (biopython esummary8)', () => {
    expect(() => parseESummary(read('biopython/esummary8.xml'), 'xml')).toThrow(
      /Neither query_key nor id specified/,
    )
  })
})

describe('parseESummary on the XML and JSON renderings of Klortho', { tags: ['real-data'] }, () => {
  const read = readSharedEutils

  it('reads version 2 XML and JSON of the same pubmed summaries (klortho)', () => {
    const xml = parseESummary(read('klortho/esummary.pubmed.xml'), 'xml')
    const json = parseESummary(read('klortho/esummary.pubmed.json'), 'json')
    expect(xml.documents.map((d) => d.uid)).toEqual(['5683731', '22144687'])
    expect(json.documents.map((d) => d.uid)).toEqual(['5683731', '22144687'])
    expect(xml.documents.map((d) => summaryText(d.fields['Title']))).toEqual([
      'An assistive device for smoking.',
      'GenBank.',
    ])
    expect(json.documents.map((d) => summaryText(d.fields['title']))).toEqual([
      'An assistive device for smoking.',
      'GenBank.',
    ])
    expect(json.documents[1]!.fields['pmcrefcount']).toBe(10)
    expect(xml.documents[1]!.fields['PmcRefCount']).toBe('10')
    const authors = xml.documents[1]!.fields['Authors'] as { Author: Array<{ Name: string }> }
    expect(authors.Author.map((a) => a.Name)).toEqual([
      'Benson DA',
      'Karsch-Mizrachi I',
      'Clark K',
      'Lipman DJ',
      'Ostell J',
      'Sayers EW',
    ])
  })

  it('keeps per-document errors (klortho esummary.pmcerror, XML and JSON)', () => {
    for (const [file, format] of [
      ['klortho/esummary.pmcerror.xml', 'xml'],
      ['klortho/esummary.pmcerror.json', 'json'],
    ] as const) {
      const { documents } = parseESummary(read(file), format)
      expect(documents.map((d) => [d.uid, d.error])).toEqual([
        ['254085', undefined],
        ['1', 'cannot get document summary'],
        ['14900', undefined],
      ])
    }
  })

  it('turns error-only answers into UPSTREAM_ERROR (klortho esummary.error, XML and JSON)', () => {
    expect(() => parseESummary(read('klortho/esummary.error.xml'), 'xml')).toThrow(
      /ESummary returned an error for esummary: "Invalid db name specified: fleegle"/,
    )
    expect(() => parseESummary(read('klortho/esummary.error.json'), 'json')).toThrow(
      /"Invalid db name specified: fleegle"/,
    )
  })
})
