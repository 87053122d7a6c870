import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emptyArticle, type Article } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import type { IngestRecord } from '../records.ts'
import { parseMeshHeading, parsePublicationDate, readMedlineText } from './medline-text.ts'

/** The real data set's MEDLINE text files, committed with the tests (see their SOURCE.md). */
const dir = fileURLToPath(new URL('../../test/fixtures/medline-text/', import.meta.url))

async function articles(path: string): Promise<Article[]> {
  const out: Article[] = []
  for await (const record of readMedlineText(path)) {
    if (record.kind !== 'article') {
      throw new Error(`unexpected ${record.kind} record`)
    }
    out.push(record.article)
  }
  return out
}

async function collect(path: string): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of readMedlineText(path)) {
    out.push(record)
  }
  return out
}

describe('parseMeshHeading', () => {
  it('reads major-topic stars and qualifiers', () => {
    expect(parseMeshHeading('*Software')).toEqual({
      descriptorName: 'Software',
      majorTopic: true,
      qualifiers: [],
    })
    expect(parseMeshHeading('Information Storage and Retrieval/*methods/*standards')).toEqual({
      descriptorName: 'Information Storage and Retrieval',
      majorTopic: false,
      qualifiers: [
        { name: 'methods', majorTopic: true },
        { name: 'standards', majorTopic: true },
      ],
    })
  })
})

describe('parsePublicationDate', () => {
  it('reads year, month and day, seasons and MedlineDate ranges', () => {
    expect(parsePublicationDate('2006')).toEqual({ year: 2006 })
    expect(parsePublicationDate('2002 Sep')).toEqual({ year: 2002, month: 9 })
    expect(parsePublicationDate('2006 Mar 1')).toEqual({ year: 2006, month: 3, day: 1 })
    expect(parsePublicationDate('2000 Spring')).toEqual({ year: 2000, season: 'Spring' })
    // Ranges are MedlineDates, normalised like the PubMed XML parser does.
    expect(parsePublicationDate('1998 Dec-1999 Jan')).toEqual({
      year: 1998,
      month: 12,
      medlineDate: '1998 Dec-1999 Jan',
    })
    expect(parsePublicationDate('2001 Foo')).toEqual({ year: 2001, medlineDate: '2001 Foo' })
  })
})

describe('readMedlineText', () => {
  it('reads pubmed_result1.txt into the article checked by hand', async () => {
    const expected: Article = {
      ...emptyArticle('12230038', 'pubmed'),
      title: 'The Bio* toolkits--a brief overview.',
      abstract: [
        {
          text:
            'Bioinformatics research is often difficult to do with commercial software. The Open Source BioPerl, ' +
            'BioPython and Biojava projects provide toolkits with multiple functionality that make it easier to ' +
            'create customised pipelines or analysis. This review briefly compares the quirks of the underlying ' +
            'languages and the functionality, documentation, utility and relative advantages of the Bio ' +
            'counterparts, particularly from the point of view of the beginning biologist programmer.',
        },
      ],
      owner: 'NLM',
      citationStatus: 'MEDLINE',
      dateCompleted: { year: 2003, month: 6, day: 6 },
      dateRevised: { year: 2004, month: 11, day: 17 },
      pubDate: { year: 2002, month: 9 },
      pagination: '296-302',
      journal: {
        issn: '1467-5463',
        issnType: 'Print',
        volume: '3',
        issue: '3',
        country: 'England',
        medlineTa: 'Brief Bioinform',
        title: 'Briefings in bioinformatics',
        nlmUniqueId: '100912837',
      },
      authors: [
        {
          lastName: 'Mangalam',
          foreName: 'Harry',
          initials: 'H',
          // The AD line comes before the author in this older record.
          affiliations: ['tacg Informatics, Irvine, CA 92612, USA. hjm@tacgi.com'],
          identifiers: [],
          valid: true,
        },
      ],
      languages: ['eng'],
      publicationTypes: [{ name: 'Journal Article' }],
      mesh: [
        { descriptorName: 'Computational Biology', majorTopic: true, qualifiers: [] },
        { descriptorName: 'Computer Systems', majorTopic: false, qualifiers: [] },
        { descriptorName: 'Humans', majorTopic: false, qualifiers: [] },
        { descriptorName: 'Internet', majorTopic: false, qualifiers: [] },
        { descriptorName: 'Programming Languages', majorTopic: true, qualifiers: [] },
        { descriptorName: 'Software', majorTopic: true, qualifiers: [] },
        { descriptorName: 'User-Computer Interface', majorTopic: false, qualifiers: [] },
      ],
      publicationStatus: 'ppublish',
    }
    expect(await articles(join(dir, 'pubmed_result1.txt'))).toEqual([expected])
  })

  it('reads the four records of pubmed_result2.txt', async () => {
    const list = await articles(join(dir, 'pubmed_result2.txt'))
    expect(list.map((article) => article.id)).toEqual([
      '16403221',
      '16377612',
      '14871861',
      '14630660',
    ])
    const [scop, , , pdb] = list
    expect(scop?.title).toBe('A high level interface to SCOP and ASTRAL implemented in python.')
    expect(
      scop?.authors.map((author) => [author.lastName, author.foreName, author.initials]),
    ).toEqual([
      ['Casbon', 'James A', 'JA'],
      ['Crooks', 'Gavin E', 'GE'],
      ['Saqi', 'Mansoor A S', 'MA'],
    ])
    expect(scop?.authors[0]?.affiliations).toEqual([
      'Bioinformatics, Institute of Cell and Molecular Science, School of Medicine and Dentistry, Queen Mary, ' +
        'University of London, London EC1 6BQ, UK. j.a.casbon@qmul.ac.uk',
    ])
    expect(scop?.articleIds).toEqual([
      { type: 'pmc', value: 'PMC1373603' },
      { type: 'pii', value: '1471-2105-7-10' },
      { type: 'doi', value: '10.1186/1471-2105-7-10' },
    ])
    expect(scop?.history).toEqual([
      { status: 'received', date: { year: 2005, month: 6, day: 17 } },
      { status: 'accepted', date: { year: 2006, month: 1, day: 10 } },
      { status: 'aheadofprint', date: { year: 2006, month: 1, day: 10 } },
    ])
    expect(scop?.electronicDate).toEqual({ year: 2006, month: 1, day: 10 })
    expect(scop?.pubDate).toEqual({ year: 2006 })
    expect(scop?.mesh).toHaveLength(9)
    expect(
      scop?.abstract[0]?.text.startsWith(
        'BACKGROUND: Benchmarking algorithms in structural bioinformatics',
      ),
    ).toBe(true)
    expect(
      scop?.abstract[0]?.text.endsWith('use in structural genomics easier and more principled.'),
    ).toBe(true)
    expect(pdb?.chemicals).toEqual([{ registryNumber: '0', name: 'Macromolecular Substances' }])
    expect(pdb?.publicationTypes).toHaveLength(5)
    expect(pdb?.mesh[3]).toEqual({
      descriptorName: 'Information Storage and Retrieval',
      majorTopic: false,
      qualifiers: [
        { name: 'methods', majorTopic: true },
        { name: 'standards', majorTopic: true },
      ],
    })
    expect(pdb?.pubDate).toEqual({ year: 2003, month: 11, day: 22 })
  })

  it('joins continuation lines of MeSH headings and titles, and dedupes LID/AID ids', async () => {
    const [hifu] = await articles(join(dir, 'pubmed_result3.txt'))
    expect(hifu?.id).toBe('23039619')
    expect(hifu?.mesh[1]).toEqual({
      descriptorName: 'High-Intensity Focused Ultrasound Ablation',
      majorTopic: false,
      qualifiers: [
        { name: 'adverse effects', majorTopic: false },
        { name: 'instrumentation', majorTopic: false },
        { name: 'methods', majorTopic: true },
      ],
    })
    expect(hifu?.journal).toMatchObject({
      issn: '0094-2405',
      issnType: 'Print',
      issnLinking: '0094-2405',
    })
    expect(hifu?.articleIds).toEqual([{ type: 'doi', value: '10.1118/1.4748329' }])
    const [glucose] = await articles(join(dir, 'pubmed_result4.txt'))
    expect(glucose?.title).toBe(
      'High extracellular glucose promotes cell motility by modulating cell deformability and contractility via cAMP-RhoA-ROCK axis in human breast cancer cells.',
    )
    expect(glucose?.citationStatus).toBe('Publisher')
    expect(glucose?.authors.map((author) => author.affiliations.length)).toEqual([1, 2, 1, 2])
    expect(glucose?.history.map((entry) => entry.status)).toEqual(['medline', 'pubmed', 'entrez'])
  })

  it('separates records that lack a blank line and reports a record without a PMID', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'pubmatch-medline-'))
    try {
      const path = join(tmp, 'records.txt')
      await writeFile(
        path,
        [
          'PMID- 1',
          'TI  - One',
          'PMID- 2',
          'TI  - Two',
          '      continued',
          '',
          'TI  - Orphan',
          'AB  - x',
          '',
        ].join('\n'),
      )
      const records = await collect(path)
      expect(records.map((record) => record.kind)).toEqual(['article', 'article', 'error'])
      expect(records[1]).toMatchObject({ article: { id: '2', title: 'Two continued' } })
      const error = records[2]?.kind === 'error' ? records[2].error : undefined
      expect(error?.code).toBe('MISSING_FIELD')
      expect(error?.message).toMatchInlineSnapshot(
        `"records.txt, line 7: MEDLINE record has no PMID: "TI - Orphan AB - x""`,
      )
    } finally {
      await rm(tmp, { recursive: true, force: true })
    }
  })
})
