import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read, readSharedEutils } from '../../test/eutils-fixtures.ts'
import { thrownPubmatchError as thrown } from '../testing/thrown.ts'
import { checkEFetchBody } from './check-efetch.ts'
import { answerText, readXmlAnswer } from './parse-common.ts'
import { parseESearch } from './parse-esearch.ts'

const esearch = (doctype: string, ids: string): string =>
  `<?xml version="1.0"?>\n${doctype}\n<eSearchResult><Count>1</Count><IdList><Id>${ids}</Id></IdList></eSearchResult>`

describe('readXmlAnswer', () => {
  it('reads the DOCTYPE of a real answer (an external DTD) without fetching it', () => {
    const body = read('biopython/esearch1.xml')
    expect(body).toContain('<!DOCTYPE eSearchResult PUBLIC')
    const { root, errors } = readXmlAnswer(body, 'esearch1.xml', 'eSearchResult')
    expect([root.name, errors]).toEqual(['eSearchResult', []])
  })

  it('expands internal entities within the bounds of the safe XML layer', () => {
    const fine = esearch('<!DOCTYPE eSearchResult [<!ENTITY id "123">]>', '&id;&#52;')
    expect(parseESearch(fine, 'xml').ids).toEqual(['1234'])
    const levels = Array.from({ length: 9 }, (_, k) =>
      k === 0 ? '<!ENTITY l0 "lol">' : `<!ENTITY l${k} "${`&l${k - 1};`.repeat(10)}">`,
    ).join('')
    const bomb = esearch(`<!DOCTYPE eSearchResult [${levels}]>`, '&l8;')
    expect(thrown(() => parseESearch(bomb, 'xml')).code).toBe('ENTITY_EXPANSION_LIMIT')
  })

  it('refuses an answer that uses an external entity, and does not retry it as malformed', () => {
    const body = esearch(
      '<!DOCTYPE eSearchResult [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      '&x;',
    )
    expect(thrown(() => parseESearch(body, 'xml')).code).toBe('EXTERNAL_ENTITY')
  })

  it('reports empty, non-XML, truncated and mismatched bodies as MALFORMED_XML with the URL', () => {
    for (const body of [
      '',
      'Service unavailable',
      read('biopython/esearch2.xml').slice(0, 1500),
      '<eSearchResult><Count>1</Count></eSearchRslt>',
    ]) {
      const error = thrown(() => readXmlAnswer(body, 'https://x/esearch.fcgi', 'eSearchResult'))
      expect([error.code, error.details['url']]).toEqual([
        'MALFORMED_XML',
        'https://x/esearch.fcgi',
      ])
      expect(error.message).toContain('entrez answer from https://x/esearch.fcgi')
    }
  })

  it('collects the texts of the root <ERROR> children', () => {
    const { errors } = readXmlAnswer(
      '<eSummaryResult><ERROR>one</ERROR><ERROR> </ERROR><ERROR>two</ERROR></eSummaryResult>',
      'x',
      'eSummaryResult',
    )
    expect(errors).toEqual(['one', 'two'])
  })
})

describe('answerText', () => {
  it('gives the text inside an element as written, trimmed, descendants in document order', () => {
    const { root } = readXmlAnswer(
      '<eSpellResult><Query>  a  <b>x</b>\n y </Query></eSpellResult>',
      'x',
      'eSpellResult',
    )
    expect(answerText(root)).toBe('a  x\n y')
  })
})

describe('checkEFetchBody', () => {
  it('accepts real EFetch answers and text answers', () => {
    for (const file of ['biopython/pubmed1.xml', 'biopython/efetch_pmc.xml']) {
      expect(() => {
        checkEFetchBody(read(file), 'xml', file)
      }).not.toThrow()
    }
    expect(() => {
      checkEFetchBody('not XML at all', 'text', 'x')
    }).not.toThrow()
  })

  it(
    'accepts a real EFetch answer of two articles (klortho efetch.pubmed.xml)',
    { tags: ['real-data'] },
    () => {
      const file = 'klortho/efetch.pubmed.xml'
      expect(() => {
        checkEFetchBody(readSharedEutils(file), 'xml', file)
      }).not.toThrow()
    },
  )

  it('reports a truncated article set as MALFORMED_XML and an eFetchResult ERROR as UPSTREAM_ERROR', () => {
    const body = read('biopython/pubmed1.xml')
    expect(thrown(() => checkEFetchBody(body.slice(0, body.length / 2), 'xml', 'x')).code).toBe(
      'MALFORMED_XML',
    )
    const error = thrown(() =>
      checkEFetchBody(
        '<?xml version="1.0"?><eFetchResult><ERROR>Cannot retrieve history data.</ERROR></eFetchResult>',
        'xml',
        'https://x/efetch.fcgi',
      ),
    )
    expect([error.code, error.details['upstreamMessages']]).toEqual([
      'UPSTREAM_ERROR',
      ['Cannot retrieve history data.'],
    ])
  })
})
