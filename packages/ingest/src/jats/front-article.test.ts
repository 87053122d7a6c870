import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { abstractText, type Article } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { readBiocFile } from '../bioc/read-bioc.ts'
import type { IngestRecord } from '../records.ts'
import { parseJatsXml, readJatsXml } from './reader.ts'

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

function derivedOf(records: readonly IngestRecord[]): Article {
  const [record] = records
  if (records.length !== 1 || record?.kind !== 'fulltext' || record.article === undefined) {
    throw new Error('expected one full text with its derived record')
  }
  return record.article
}

const sampleJats = (file: string): Promise<Article> => collect(readJatsXml(samplePath('jats', file))).then(derivedOf)

// Expected values read off each file's <front> by hand.
describe('the article record a JATS full text brings from <front> (bundled sample)', () => {
  it('PLoS ONE (pone.0000217): authors without the editor, affiliations, structured abstract, epub and collection dates', async () => {
    const article = await sampleJats('pone.0000217.nxml')
    expect(article).toMatchObject({
      id: '17299597',
      source: 'pmc',
      derivedFrom: 'jats',
      title: 'Quantifying Organismal Complexity using a Population Genetic Approach',
      journal: { title: 'PLoS ONE', medlineTa: 'PLoS ONE', issn: '1932-6203', issnType: 'Electronic', volume: '2', issue: '2' },
      pubDate: { year: 2007 },
      electronicDate: { year: 2007, month: 2, day: 14 },
      history: [
        { status: 'received', date: { year: 2006, month: 10, day: 26 } },
        { status: 'accepted', date: { year: 2007, month: 1, day: 25 } },
      ],
      pagination: 'e217',
      languages: ['eng'],
      publicationTypes: [{ name: 'Journal Article' }],
      articleIds: [
        { type: 'pubmed', value: '17299597' },
        { type: 'pmc', value: 'PMC1790863' },
        { type: 'doi', value: '10.1371/journal.pone.0000217' },
      ],
      keywords: [],
      otherAbstracts: [],
    })
    expect(article.authors.map((a) => [a.lastName, a.foreName, a.equalContrib === true, a.affiliations.length])).toEqual([
      ['Tenaillon', 'Olivier', true, 2],
      ['Silander', 'Olin K.', true, 2],
      ['Uzan', 'Jean-Philippe', false, 1],
      ['Chao', 'Lin', false, 1],
    ])
    expect(article.authors[3]!.affiliations).toEqual(['Division of Biology, University of California San Diego, La Jolla, California, United States of America'])
    expect(article.abstract.map((s) => s.label)).toEqual(['Background', 'Methodology', 'Conclusions/Significance'])
    expect(article.abstract[0]!.text).toMatch(/^Various definitions of biological complexity have been proposed: /)
    expect(article.copyright).toMatch(/^Tenaillon et al\. This is an open-access article/)
  })

  it('EHP (ehp-116-1694): print date and ISSN, page range, author keywords', async () => {
    const article = await sampleJats('ehp-116-1694.nxml')
    expect(article).toMatchObject({
      id: '19079722',
      journal: {
        title: 'Environmental Health Perspectives',
        medlineTa: 'Environ Health Perspect',
        isoAbbreviation: 'Environ. Health Perspect',
        issn: '0091-6765',
        issnType: 'Print',
        volume: '116',
        issue: '12',
      },
      pubDate: { year: 2008, month: 12 },
      electronicDate: { year: 2008, month: 8, day: 1 },
      pagination: '1694-1699',
    })
    expect(article.keywords.map((k) => k.text)).toEqual([
      'basic transcription element-binding protein',
      'brain',
      'endocrine disruption',
      'PBDE-47',
      'polybrominated diphenyl ethers',
      'thyroid hormone',
      'thyroid hormone receptor',
      'thyroid-stimulating hormone',
      'thyrotropin',
    ])
    expect(article.keywords.every((k) => k.owner === 'NOTNLM' && !k.majorTopic)).toBe(true)
    expect(article.abstract.map((s) => s.label)).toEqual(['Background', 'Objective', 'Methods', 'Results', 'Conclusions'])
  })

  it('BMC Oral Health (1472-6831-8-11): collection year as the issue date, one page', async () => {
    const article = await sampleJats('1472-6831-8-11.nxml')
    expect(article).toMatchObject({
      id: '18405359',
      journal: { title: 'BMC Oral Health', medlineTa: 'BMC Oral Health', issn: '1472-6831', issnType: 'Electronic', volume: '8' },
      pubDate: { year: 2008 },
      electronicDate: { year: 2008, month: 4, day: 11 },
      pagination: '11',
    })
    expect(article.authors.map((a) => a.lastName)).toEqual(['van der Meulen', 'John', 'Naeije', 'Lobbezoo'])
    expect(article.authors[0]!.affiliations).toEqual([
      'Department of Oral Function, Academic Centre for Dentistry Amsterdam (ACTA), Louwesweg 1, 1066 EA, Amsterdam, The Netherlands',
      'Centre for Special Dental Care (SBT), Amsterdam, The Netherlands',
    ])
  })

  it('keys an article without a PMID by its PMCID, reads its language, and keeps typed abstracts apart', () => {
    const xml = readFileSync(samplePath('jats', 'pone.0000217.nxml'), 'utf8')
      .replace(/<article-id pub-id-type="pmid">17299597<\/article-id>/, '')
      .replace('<article ', '<article xml:lang="de" ')
      .replace('<abstract>', '<abstract abstract-type="summary"><p>A plain summary.</p></abstract><abstract>')
    const article = derivedOf(parseJatsXml(xml, { file: 'variant.nxml' }))
    expect(article.id).toBe('PMC1790863')
    expect(article.articleIds.map((id) => id.type)).toEqual(['pmc', 'doi'])
    expect(article.languages).toEqual(['ger'])
    expect(article.abstract.map((s) => s.label)).toEqual(['Background', 'Methodology', 'Conclusions/Significance'])
    expect(article.otherAbstracts).toEqual([{ type: 'summary', sections: [{ text: 'A plain summary.' }] }])
  })
})

describe('the article record of the real JATS files', { tags: ['real-data'] }, () => {
  it('gives every article a record keyed by its PMID, with its title, authors, a year and an abstract', async () => {
    const dir = sharedDataPath('pmc', 'jats')
    const files = readdirSync(dir).filter((name) => name.endsWith('.nxml'))
    expect(files).toHaveLength(8)
    for (const file of files) {
      const [record] = await collect(readJatsXml(join(dir, file)))
      if (record?.kind !== 'fulltext' || record.article === undefined) {
        throw new Error(`${file}: no full text`)
      }
      const { document, article } = record
      expect([file, article.id, article.title, article.derivedFrom]).toEqual([file, document.pmid, document.title, 'jats'])
      expect([file, article.authors.length > 0, article.pubDate?.year ?? article.electronicDate?.year, abstractText(article).length > 100]).toEqual([
        file,
        true,
        expect.any(Number),
        true,
      ])
    }
  })

  it('agrees with the record the BioC API text of the same article gives (PMC1790863)', async () => {
    const jats = derivedOf(await collect(readJatsXml(sharedDataPath('pmc', 'jats-bioc-pairs', 'PMC1790863.nxml'))))
    const bioc = derivedOf(await collect(readBiocFile(sharedDataPath('pmc', 'jats-bioc-pairs', 'PMC1790863.bioc.xml'))))
    const squeeze = (text: string): string => text.replace(/\s+/g, '')
    for (const field of ['id', 'title', 'articleIds', 'pagination'] as const) {
      expect([field, jats[field]]).toEqual([field, bioc[field]])
    }
    expect(jats.pubDate?.year).toBe(bioc.pubDate?.year)
    expect(jats.abstract.map((s) => [s.label, squeeze(s.text)])).toEqual(bioc.abstract.map((s) => [s.label, squeeze(s.text)]))
    // BioC's name infons list every contributor: the four authors and the academic editor
    expect(bioc.authors.map((a) => a.lastName)).toEqual([...jats.authors.map((a) => a.lastName), 'Buckling'])
  })
})
