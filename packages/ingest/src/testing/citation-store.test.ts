import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { samplePath } from '@pubmatch/sample-data'
import { EUTILS_FIXTURES } from '../../test/eutils-fixtures.ts'
import { citationPubDate, cutCitations, loadCitationStore } from './citation-store.ts'
import { articleSetPmids } from './eutils-routes.ts'

describe('cutCitations', () => {
  it('cuts the 604 MedlineCitations of medline16n0902 and wraps them as PubmedArticles', () => {
    const file = samplePath('pubmed', 'medline16n0902.xml.gz')
    const xml = gunzipSync(readFileSync(file)).toString('utf8')
    const citations = cutCitations(xml, file)
    expect(citations).toHaveLength(604)
    expect(citations[0]!.pmid).toBe('17942999')
    expect(
      citations[0]!.xml.startsWith(
        '<PubmedArticle>\n<MedlineCitation Owner="NLM" Status="MEDLINE">',
      ),
    ).toBe(true)
    expect(citations[0]!.xml.endsWith('</MedlineCitation>\n</PubmedArticle>')).toBe(true)
    // the trailing <DeleteCitation> PMID is not a citation
    expect(citations.some((c) => c.pmid === '26432306')).toBe(false)
  })

  it('takes PubmedArticle elements as they are (biopython pubmed1)', () => {
    const file = join(EUTILS_FIXTURES, 'biopython/pubmed1.xml')
    const citations = cutCitations(readFileSync(file, 'utf8'), file)
    expect(citations.length).toBeGreaterThan(0)
    expect(
      citations.every(
        (c) => c.xml.startsWith('<PubmedArticle>') && c.xml.endsWith('</PubmedArticle>'),
      ),
    ).toBe(true)
  })
})

describe('citationPubDate', () => {
  it('reads Year/Month/Day, month names, partial dates and MedlineDate', () => {
    expect(citationPubDate('<PubDate><Year>2007</Year></PubDate>')).toBe('2007/01/01')
    expect(citationPubDate('<PubDate><Year>2015</Year><Month>Aug</Month></PubDate>')).toBe(
      '2015/08/01',
    )
    expect(
      citationPubDate('<PubDate><Year>2014</Year><Month>12</Month><Day>26</Day></PubDate>'),
    ).toBe('2014/12/26')
    expect(citationPubDate('<PubDate><MedlineDate>2015 Oct-Dec</MedlineDate></PubDate>')).toBe(
      '2015/10/01',
    )
    expect(citationPubDate('<PubDate><Year>2001</Year><Season>Winter</Season></PubDate>')).toBe(
      '2001/01/01',
    )
    expect(citationPubDate('<Article/>')).toBeUndefined()
  })
})

describe('loadCitationStore', () => {
  it('serves EFetch article sets in the order asked, leaving out unknown PMIDs', async () => {
    const store = await loadCitationStore([
      samplePath('pubmed', 'medline16n0902.xml.gz'),
      samplePath('pubmed', 'medsamp2006.xml'),
    ])
    // 604 + 88 citations, no PMID in both files
    expect(store.pmids).toHaveLength(692)
    const asked = [store.pmids[3]!, '1', store.pmids[0]!]
    expect(articleSetPmids(store.articleSet(asked))).toEqual([store.pmids[3], store.pmids[0]])
    expect(store.articleSet([])).toContain('<PubmedArticleSet>\n</PubmedArticleSet>')
    expect(store.inDateRange('2015/10/01', '2015/10/01')).toHaveLength(162)
  })
})
