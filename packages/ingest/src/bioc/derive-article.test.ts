import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { abstractText, articleYear, type Article } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import type { IngestRecord } from '../records.ts'
import { parseBiocJson, readBiocFile } from './read-bioc.ts'

async function derived(path: string): Promise<Article> {
  const records: IngestRecord[] = []
  for await (const record of readBiocFile(path)) {
    records.push(record)
  }
  const [record] = records
  if (records.length !== 1 || record?.kind !== 'fulltext' || record.article === undefined) {
    throw new Error(`expected one full text with its derived record in ${path}`)
  }
  return record.article
}

describe('the article record a BioC full text brings (bundled sample)', () => {
  // Expected values read off the files' front passages (`documents[0].passages[0].infons`).
  it('takes id, title, authors, year, journal volume and issue, pages, keywords and ids from the front passage', async () => {
    const article = await derived(samplePath('bioc', 'PMC10142442.json'))
    expect(article).toMatchObject({
      id: '37112839',
      version: 1,
      source: 'pmc',
      derivedFrom: 'bioc',
      title: 'Inhibition of Cytomegalovirus by Pentacta pygmaea Fucosylated Chondroitin Sulfate Depends on Its Molecular Weight',
      pubDate: { year: 2023 },
      journal: { volume: '15', issue: '4' },
      pagination: '859',
      keywords: [{ text: 'herpesviruses marine sulfated glycans virus entry', owner: 'NOTNLM', majorTopic: false }],
      articleIds: [
        { type: 'pubmed', value: '37112839' },
        { type: 'pmc', value: 'PMC10142442' },
        { type: 'doi', value: '10.3390/v15040859' },
      ],
      languages: [],
      publicationTypes: [],
      mesh: [],
    })
    expect(article.authors.map((a) => `${a.lastName}, ${a.foreName}`)).toEqual([
      'Sharma, Poonam',
      'Dwivedi, Rohini',
      'Ray, Priya',
      'Shukla, Jayanti',
      'Pomin, Vitor H.',
      'Tandon, Ritesh',
      'McVoy, Michael',
      'Stamminger, Thomas',
    ])
    expect(article.abstract).toHaveLength(1)
    expect(abstractText(article)).toMatch(/^Many viruses attach to host cells by first interacting with cell surface proteog/)
  })

  it('keys a full text without a PMID by its PMCID, with first and last page as pagination', async () => {
    const article = await derived(samplePath('bioc', 'PMC11500582.json'))
    expect(article).toMatchObject({ id: 'PMC11500582', pagination: '35-44', pubDate: { year: 2024 }, journal: { volume: '41', issue: '1' } })
    expect(article.articleIds).toEqual([
      { type: 'pmc', value: 'PMC11500582' },
      { type: 'doi', value: '10.5511/plantbiotechnology.23.1214a' },
    ])
  })

  it('lists a name repeated in the front infons once (17 names, 14 distinct in PMC10370681)', async () => {
    const article = await derived(samplePath('bioc', 'PMC10370681.json'))
    expect(article.authors).toHaveLength(14)
    expect(article.authors[0]).toEqual({ lastName: 'Xie', foreName: 'Min', affiliations: [], identifiers: [], valid: true })
    expect(article.pagination).toBe('e0288290')
  })

  it('labels abstract sections by their headings and joins the paragraphs under each', () => {
    const passage = (type: string, text: string): object => ({ offset: 0, infons: { section_type: type === 'front' ? 'TITLE' : 'ABSTRACT', type }, text })
    const [record] = parseBiocJson(
      JSON.stringify({
        source: 'PMC',
        documents: [
          {
            id: 'PMC5',
            infons: {},
            passages: [
              passage('front', 'A title'),
              passage('abstract', 'Lead-in.'),
              passage('abstract_title_1', 'Methods'),
              passage('abstract', 'First.'),
              passage('abstract', 'Second.'),
              passage('abstract_title_1', 'Results'),
              passage('abstract', 'Third.'),
              { offset: 0, infons: { section_type: 'INTRO', type: 'paragraph' }, text: 'Body text is not abstract.' },
              { offset: 0, infons: { name_1: 'x' }, text: 'unused' },
            ],
          },
        ],
      }),
    )
    expect(record?.kind === 'fulltext' && record.article?.abstract).toEqual([
      { text: 'Lead-in.' },
      { label: 'Methods', text: 'First. Second.' },
      { label: 'Results', text: 'Third.' },
    ])
    expect(record?.kind === 'fulltext' && record.article).toMatchObject({ id: 'PMC5', title: 'A title', authors: [] })
  })
})

describe('the article record of each real PMC BioC JSON file', { tags: ['real-data'] }, () => {
  it('has the full text’s id (PMID, else PMCID), its title and a publication year', async () => {
    const dir = sharedDataPath('pmc', 'bioc-json')
    const files = readdirSync(dir).filter((name) => name.endsWith('.json'))
    expect(files.length).toBeGreaterThan(200)
    let withPmid = 0
    for (const file of files) {
      for await (const record of readBiocFile(join(dir, file))) {
        if (record.kind !== 'fulltext') {
          continue
        }
        const { document, article } = record
        expect([file, article?.id, article?.title, article?.derivedFrom]).toEqual([file, document.pmid ?? document.pmcid, document.title ?? '', 'bioc'])
        expect([file, articleYear(article!) !== undefined]).toEqual([file, true])
        withPmid += document.pmid === undefined ? 0 : 1
      }
    }
    // the front passage names a PMID (`article-id_pmid`) in 239 of the 268 documents, counted from the JSON with a separate script
    expect(withPmid).toBe(239)
  })
})
