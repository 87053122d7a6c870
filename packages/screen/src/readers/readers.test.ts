import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { parseCohenCsv, readCohenReview } from './cohen.ts'
import { parseCsv } from './csv.ts'
import { invertedIndexText, parseSynergyReview, readSynergyReview } from './synergy.ts'

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const rows = parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n3,\n')
    expect(rows.map((r) => r.fields)).toEqual([['a', 'b'], ['x, y', 'say "hi"\nthere'], ['3', '']])
    expect(rows.map((r) => r.line)).toEqual([1, 2, 4])
  })
  it('throws TRUNCATED_INPUT for an unclosed quote', () => {
    expect(() => parseCsv('a\n"open', 'f.csv')).toThrow(/line 2 is never closed/)
  })
})

const HEADER = 'record_id,pubmedID,title,keywords,authors,abstract,label_abstract_screening,label_included\n'

describe('parseCohenCsv', () => {
  it('maps a row to an article with MeSH, authors and both labels', () => {
    const text = `${HEADER}1,10051933,Clonidine in children.,"Child; Clonidine; Pain, Postoperative","Reimer, E J; Dunn, G S",To compare.; This study.,1,0\n`
    const { records, errors } = parseCohenCsv(text, 'ADHD')
    expect(errors).toEqual([])
    const [r] = records
    expect(r).toMatchObject({ key: '1', label: 0, abstractLabel: 1 })
    expect(r!.article.id).toBe('10051933')
    expect(r!.article.title).toBe('Clonidine in children.')
    expect(r!.article.abstract).toEqual([{ text: 'To compare.; This study.' }])
    expect(r!.article.mesh.map((m) => m.descriptorName)).toEqual(['Child', 'Clonidine', 'Pain, Postoperative'])
    expect(r!.article.authors.map((a) => [a.lastName, a.initials])).toEqual([['Reimer', 'EJ'], ['Dunn', 'GS']])
  })
  it('reports each bad row as a typed error and keeps reading', () => {
    const text = `${HEADER}1,12,A,,,,0,0\n2,abc,B,,,,0,0\n3,14,C,,,,0,2\n4,15,D\n5,,E,,,,1,1\n`
    const { records, errors } = parseCohenCsv(text, 'X')
    expect(records.map((r) => r.article.id)).toEqual(['12', '5'])
    expect(errors.map((e) => [e.code, e.details.record])).toEqual([
      ['MISSING_FIELD', '2'],
      ['MISSING_FIELD', '3'],
      ['MISSING_FIELD', '4'],
    ])
    expect(errors[0]!.message).toMatch(/pubmedID "abc" is not a PMID/)
    expect(errors[2]!.message).toMatch(/expected 8 fields, got 3/)
  })
  it('throws MISSING_FIELD for a header without a column', () => {
    expect(() => parseCohenCsv('record_id,title\n', 'X')).toThrow(/lacks the column\(s\) pubmedID/)
  })
})

const work = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: `https://openalex.org/${id}`,
  title: 'Safety of<scp>rFVII</scp>a',
  publication_year: 2019,
  ids: { openalex: `https://openalex.org/${id}`, doi: 'https://doi.org/10.1111/jth.14491', pmid: 'https://pubmed.ncbi.nlm.nih.gov/31124272' },
  type: 'journal-article',
  host_venue: { display_name: 'Journal of Thrombosis and Haemostasis', issn_l: '1538-7836' },
  authorships: [{ author: { display_name: 'Gallia G. Levy' } }],
  mesh: [
    { descriptor_ui: 'D006467', descriptor_name: 'Hemophilia A', qualifier_ui: 'Q000188', qualifier_name: 'drug therapy', is_major_topic: true },
    { descriptor_ui: 'D006467', descriptor_name: 'Hemophilia A', qualifier_ui: '', qualifier_name: null, is_major_topic: false },
  ],
  abstract_inverted_index: { is: [1], Recombinant: [0], a: [2, 4], agent: [3] },
  ...extra,
})

const archive = (files: Record<string, unknown>): { name: string; bytes: Uint8Array } => ({
  name: 'works_1.zip',
  bytes: zipSync(Object.fromEntries(Object.entries(files).map(([name, value]) => [name, new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value))]))),
})

describe('SYNERGY', () => {
  it('rebuilds an abstract from an inverted index in position order', () => {
    expect(invertedIndexText({ is: [1], Recombinant: [0], a: [2, 4], agent: [3] })).toBe('Recombinant is a agent a')
    expect(() => invertedIndexText({ x: [-1] })).toThrow(/non-negative integers/)
  })
  it('maps works to articles with their labels, and reports bad works and unmatched labels', () => {
    const labels = 'openalex_id,doi,pmid,label_included\nhttps://openalex.org/W1,,,1\nhttps://openalex.org/W2,,,0\nhttps://openalex.org/W9,,,0\nhttps://openalex.org/W3,,,x\n'
    const data = parseSynergyReview('Donners_2021', labels, [
      archive({ 'works_0_2.json': [work('W1'), work('W2', { ids: {}, abstract_inverted_index: null, mesh: null })], 'works_2_3.json': [work('W7', { abstract_inverted_index: { x: 'no' } })], 'bad.json': '{' }),
    ])
    expect(data.records.map((r) => [r.key, r.article.id, r.label])).toEqual([
      ['W1', '31124272', 1],
      ['W2', 'W2', 0],
    ])
    const a = data.records[0]!.article
    expect(a.title).toBe('Safety ofrFVIIa')
    expect(a.abstract).toEqual([{ text: 'Recombinant is a agent a' }])
    expect(a.pubDate).toEqual({ year: 2019 })
    expect(a.journal).toEqual({ title: 'Journal of Thrombosis and Haemostasis', issn: '1538-7836' })
    expect(a.authors[0]).toMatchObject({ lastName: 'Levy', foreName: 'Gallia G.' })
    expect(a.mesh).toEqual([{ descriptorUi: 'D006467', descriptorName: 'Hemophilia A', majorTopic: false, qualifiers: [{ ui: 'Q000188', name: 'drug therapy', majorTopic: true }] }])
    expect(a.publicationTypes).toEqual([{ name: 'journal-article' }])
    expect(a.articleIds).toEqual([{ type: 'openalex', value: 'W1' }, { type: 'doi', value: '10.1111/jth.14491' }])
    expect(data.errors.map((e) => e.code)).toEqual(['MALFORMED_JSON', 'MALFORMED_JSON', 'NOT_FOUND', 'MISSING_FIELD'])
    expect(data.errors[1]!.details.record).toBe('W7')
  })
})

// SOURCE.md of shared/data/screening gives each review's record and include counts: the reference.
describe('the real data sets', { tags: ['real-data'] }, () => {
  it('reads every Cohen 2006 record of ADHD (851 records, 84 abstract-level and 20 final includes)', async () => {
    const data = await readCohenReview(sharedDataPath('screening', 'cohen2006', 'ADHD.csv'))
    expect(data.errors).toEqual([])
    expect(data.records).toHaveLength(851)
    expect(data.records.filter((r) => r.abstractLabel === 1)).toHaveLength(84)
    expect(data.records.filter((r) => r.label === 1)).toHaveLength(20)
    expect(data.records.every((r) => /^\d+$/.test(r.article.id))).toBe(true)
  })
  it('reads every SYNERGY record of Donners_2021 (258 records, 15 includes)', async () => {
    const data = await readSynergyReview(sharedDataPath('screening', 'synergy', 'Donners_2021'))
    expect(data.errors).toEqual([])
    expect(data.records).toHaveLength(258)
    expect(data.records.filter((r) => r.label === 1)).toHaveLength(15)
    expect(data.records.filter((r) => r.article.abstract.length > 0).length).toBeGreaterThan(200)
  })
})

describe('listScreeningReviews', { tags: ['real-data'] }, () => {
  it('finds the 13 Cohen 2006 and 9 SYNERGY reviews of shared/data/screening', async () => {
    const { listScreeningReviews } = await import('./datasets.ts')
    const reviews = await listScreeningReviews(sharedDataPath('screening'))
    expect(reviews.filter((r) => r.source === 'cohen2006')).toHaveLength(13)
    expect(reviews.filter((r) => r.source === 'synergy').map((r) => r.name)).toContain('van_der_Valk_2021')
    expect(reviews).toHaveLength(22)
  })
})
