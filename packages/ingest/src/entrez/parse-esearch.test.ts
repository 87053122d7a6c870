import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read, readSharedEutils } from '../../test/eutils-fixtures.ts'
import { thrownPubmatchError as thrown } from '../testing/thrown.ts'
import { parseESearch } from './parse-esearch.ts'

describe('parseESearch on the XML and JSON renderings of Klortho', { tags: ['real-data'] }, () => {
  const read = readSharedEutils

  it('gives the same typed result for klortho esearch.pubmed.json and .xml', () => {
    const xml = parseESearch(read('klortho/esearch.pubmed.xml'), 'xml')
    const json = parseESearch(read('klortho/esearch.pubmed.json'), 'json')
    expect(json).toEqual(xml)
    expect(xml.count).toBe(15169)
    expect(xml.retMax).toBe(100)
    expect(xml.retStart).toBe(0)
    expect(xml.ids).toHaveLength(100)
    expect(xml.ids.slice(0, 2)).toEqual(['23175848', '23175808'])
    expect(xml.ids.at(-1)).toBe('23174999')
    expect(xml.queryKey).toBe('1')
    expect(xml.webEnv).toBe('NCID_1_18991374_130.14.18.48_5555_1353814292_87026138')
    expect(xml.translationSet).toEqual([
      {
        from: 'cancer',
        to: '"neoplasms"[MeSH Terms] OR "neoplasms"[All Fields] OR "cancer"[All Fields]',
      },
    ])
    expect(xml.queryTranslation).toBe(
      '("neoplasms"[MeSH Terms] OR "neoplasms"[All Fields] OR "cancer"[All Fields]) AND 2012/09/25[EDAT] : 2012/11/24[EDAT]',
    )
    expect(xml.warnings).toEqual([])
  })

  it('keeps the translation stack in document order (terms and operators interleaved)', () => {
    const { translationStack } = parseESearch(read('klortho/esearch.pubmed.xml'), 'xml')
    expect(translationStack.map((e) => (e.kind === 'term' ? e.term : e.operator))).toEqual([
      '"neoplasms"[MeSH Terms]',
      '"neoplasms"[All Fields]',
      'OR',
      '"cancer"[All Fields]',
      'OR',
      'GROUP',
      '2012/09/25[EDAT]',
      '2012/11/24[EDAT]',
      'RANGE',
      'AND',
    ])
    expect(translationStack[0]).toEqual({
      kind: 'term',
      term: '"neoplasms"[MeSH Terms]',
      field: 'MeSH Terms',
      count: 2382851,
      explode: true,
    })
  })

  it('reads ErrorList entries as warnings, identically from klortho esearch.error .xml and .json', () => {
    const xml = parseESearch(read('klortho/esearch.error.xml'), 'xml')
    expect(parseESearch(read('klortho/esearch.error.json'), 'json')).toEqual(xml)
    expect(xml.count).toBe(5163)
    expect(xml.ids).toHaveLength(20)
    expect(xml.warnings).toEqual([
      { list: 'ErrorList', type: 'PhraseNotFound', text: 'fleegle[MeSH Terms]' },
    ])
  })

  it('turns an ESearch <ERROR> answer into UPSTREAM_ERROR, in XML and JSON', () => {
    const xml = thrown(() =>
      parseESearch(
        read('klortho/esearch.baderror.xml'),
        'xml',
        'https://x/esearch.fcgi?db=fleegle',
      ),
    )
    expect(xml.code).toBe('UPSTREAM_ERROR')
    expect(xml.message).toMatchInlineSnapshot(
      `"ESearch returned an error for https://x/esearch.fcgi?db=fleegle: "Invalid db name specified: fleegle""`,
    )
    expect(xml.details['upstreamMessages']).toEqual(['Invalid db name specified: fleegle'])
    const json = thrown(() => parseESearch(read('klortho/esearch.baderror.json'), 'json'))
    expect(json.code).toBe('UPSTREAM_ERROR')
    expect(json.details['upstreamMessages']).toEqual(['Invalid db name specified: fleegle'])
  })

  it('rejects a truncated JSON body with MALFORMED_JSON', () => {
    const json = read('klortho/esearch.pubmed.json')
    expect(thrown(() => parseESearch(json.slice(0, 500), 'json')).code).toBe('MALFORMED_JSON')
  })
})

describe('parseESearch', () => {
  it('reads PhraseNotFound and OutputMessage from biopython esearch8 (no results)', () => {
    const result = parseESearch(read('biopython/esearch8.xml'), 'xml')
    expect(result.count).toBe(0)
    expect(result.ids).toEqual([])
    expect(result.queryTranslation).toBe('(abcXYZ[All Fields])')
    expect(result.warnings).toEqual([
      { list: 'ErrorList', type: 'PhraseNotFound', text: 'abcXYZ' },
      { list: 'WarningList', type: 'OutputMessage', text: 'No items found.' },
    ])
  })

  it('reads the history keys, paging and a 6-entry stack from biopython files', () => {
    const withHistory = parseESearch(read('biopython/esearch2.xml'), 'xml')
    expect([
      withHistory.count,
      withHistory.retMax,
      withHistory.queryKey,
      withHistory.webEnv,
    ]).toEqual([42249, 100, '1', 'MCID_6927d6e7fee3e90f880ec190'])
    const paged = parseESearch(read('biopython/esearch3.xml'), 'xml')
    expect([paged.count, paged.retMax, paged.retStart]).toEqual([2651, 6, 6])
    expect(paged.ids).toEqual([
      '11121077',
      '11121076',
      '11121075',
      '11121074',
      '11121073',
      '11121072',
    ])
    const stack = parseESearch(read('biopython/esearch5.xml'), 'xml').translationStack
    expect(stack.map((e) => (e.kind === 'term' ? e.field : e.operator))).toEqual([
      'MeSH Terms',
      'All Fields',
      'All Fields',
      'AND',
      'GROUP',
      'OR',
      'All Fields',
      'OR',
      'GROUP',
      'All Fields',
      'AND',
    ])
  })

  it('reads the 2002 DTD layout with whitespace between elements (biopython esearch4)', () => {
    const result = parseESearch(read('biopython/esearch4.xml'), 'xml')
    expect(result.count).toBe(177)
    expect(result.ids.slice(0, 3)).toEqual(['75', '138', '136'])
    expect(result.translationStack).toEqual([
      {
        kind: 'term',
        term: 'obstetrics[All Fields]',
        field: 'All Fields',
        count: 177,
        explode: true,
      },
      { kind: 'operator', operator: 'GROUP' },
    ])
  })

  it('marks backend failures as transient', () => {
    const body =
      "<eSearchResult><ERROR>Search Backend failed: Couldn't resolve #tcpsearch</ERROR></eSearchResult>"
    expect(thrown(() => parseESearch(body, 'xml')).details['transient']).toBe(true)
  })

  it('rejects truncated and foreign bodies with MALFORMED_XML / MALFORMED_JSON', () => {
    const xml = read('biopython/esearch2.xml')
    expect(thrown(() => parseESearch(xml.slice(0, 1500), 'xml')).code).toBe('MALFORMED_XML')
    expect(thrown(() => parseESearch(read('biopython/einfo1.xml'), 'xml')).message).toMatch(
      /has root <eInfoResult>, expected <eSearchResult>/,
    )
    expect(thrown(() => parseESearch('{"header":{}}', 'json')).code).toBe('MALFORMED_JSON')
    expect(
      thrown(() => parseESearch('{"header":{"type":"esearch"},"esearchresult":{"count"', 'json'))
        .code,
    ).toBe('MALFORMED_JSON')
  })
})
