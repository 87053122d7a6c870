import { emptyArticle, type Article } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { extractDocument } from '../document/extract.ts'
import { authorDisplayName, normalizeKeyword } from './keyword.ts'
import {
  PUBMED_TAG_FIELDS,
  defaultPubmedFields,
  defaultStoredDocument,
  sortableDate,
  testCollectionFields,
} from './pubmed-fields.ts'
import { resolveConfig } from './schema.ts'

function pubmedArticle(): Article {
  const a = emptyArticle('31511694')
  a.title = 'Selective COX-2 inhibitors in Crohn’s disease'
  a.abstract = [
    { label: 'BACKGROUND', text: 'First section.' },
    { label: 'RESULTS', text: 'Second section.' },
  ]
  a.languages = ['eng', 'ger']
  a.pubDate = { year: 2019, month: 9 }
  a.journal = { medlineTa: 'N Engl J Med', isoAbbreviation: 'N. Engl. J. Med.', title: 'The New England journal of medicine', issn: '0028-4793' }
  a.authors = [
    { lastName: 'Smith', initials: 'JA', affiliations: [], identifiers: [], valid: true },
    { lastName: 'Müller', foreName: 'Hans-Peter', affiliations: [], identifiers: [], valid: true },
    { collectiveName: 'COVID Study Group', affiliations: [], identifiers: [], valid: true },
    { lastName: 'Doe', initials: 'J', affiliations: [], identifiers: [], valid: true },
  ]
  a.mesh = [
    { descriptorUi: 'D003424', descriptorName: 'Crohn Disease', majorTopic: false, qualifiers: [{ name: 'drug therapy', majorTopic: true }] },
    { descriptorUi: 'D006801', descriptorName: 'Humans', majorTopic: false, qualifiers: [] },
  ]
  a.keywords = [{ text: 'COX-2', majorTopic: false }]
  a.publicationTypes = [{ name: 'Journal Article' }, { name: 'Randomized Controlled Trial' }]
  a.chemicals = [{ name: 'Cyclooxygenase 2 Inhibitors' }]
  return a
}

describe('normalizeKeyword', () => {
  it('lower-cases, folds diacritics and reduces punctuation runs to one space', () => {
    expect(normalizeKeyword('Journal Article')).toBe('journal article')
    expect(normalizeKeyword('J. Biol. Chem.')).toBe('j biol chem')
    expect(normalizeKeyword('Receptors, Tumor Necrosis Factor')).toBe('receptors tumor necrosis factor')
    expect(normalizeKeyword('  Müller  HP ')).toBe('muller hp')
    expect(normalizeKeyword('0028-4793')).toBe('0028 4793')
    expect(normalizeKeyword('—')).toBe('')
  })
})

describe('authorDisplayName', () => {
  it('writes PubMed [au] form: last name, space, initials (from the fore name if needed)', () => {
    const [smith, muller, group, doe] = pubmedArticle().authors
    expect(authorDisplayName(smith!)).toBe('Smith JA')
    expect(authorDisplayName(muller!)).toBe('Müller HP')
    expect(authorDisplayName(group!)).toBe('COVID Study Group')
    expect(authorDisplayName(doe!)).toBe('Doe J')
    expect(authorDisplayName({ affiliations: [], identifiers: [], valid: true })).toBeUndefined()
  })
})

describe('sortableDate', () => {
  it('packs year, month and day into YYYYMMDD with 00 for unknown parts', () => {
    expect(sortableDate({ year: 2016, month: 3 })).toBe(20160300)
    expect(sortableDate({ year: 1998, month: 12, day: 31 })).toBe(19981231)
    expect(sortableDate({ medlineDate: '1998 Dec-1999 Jan' })).toBeUndefined()
  })
})

describe('defaultPubmedFields', () => {
  it('extracts every field of the PubMed field set, in schema order', () => {
    const config = resolveConfig({
      fields: defaultPubmedFields({ meshEntryTerms: (ui) => (ui === 'D003424' ? ['Crohn’s Enteritis', 'Ileitis, Regional'] : []) }),
    })
    const doc = extractDocument(pubmedArticle(), config)
    expect(Object.fromEntries(config.schema.fields.map((f, i) => [f.name, doc.fields[i]]))).toEqual({
      title: ['Selective COX-2 inhibitors in Crohn’s disease'],
      abstract: ['First section.', 'Second section.'],
      mesh: ['Crohn Disease', 'Crohn’s Enteritis', 'Ileitis, Regional', 'Humans'],
      keywords: ['COX-2'],
      mesh_heading: ['Crohn Disease', 'Humans'],
      mesh_major: ['Crohn Disease'],
      authors: ['Smith JA', 'Müller HP', 'COVID Study Group', 'Doe J'],
      journal: ['N Engl J Med', 'N. Engl. J. Med.', 'The New England journal of medicine', '0028-4793'],
      pubtype: ['Journal Article', 'Randomized Controlled Trial'],
      language: ['eng', 'ger'],
      substance: ['Cyclooxygenase 2 Inhibitors'],
    })
    const numeric = Object.fromEntries(config.schema.numericDocValues.map((n, i) => [n, doc.numeric[i]]))
    expect(numeric).toMatchObject({ year: 2019, pubdate: 20190900, author_count: 4, mesh_count: 2, major_mesh_count: 1, has_abstract: 1, abstract_sections: 2 })
    expect(doc.stored).toEqual({
      id: '31511694',
      title: 'Selective COX-2 inhibitors in Crohn’s disease',
      year: 2019,
      journal: 'N Engl J Med',
      authors: ['Smith JA', 'Müller HP', 'COVID Study Group'],
      authorCount: 4,
      pubTypes: ['Journal Article', 'Randomized Controlled Trial'],
      languages: ['eng', 'ger'],
      // the abstract's sections joined as abstractText joins them, for snippets
      abstract: 'First section. Second section.',
    })
    expect(defaultStoredDocument(emptyArticle('1'))).toEqual({ id: '1', title: '', authors: [], authorCount: 0, pubTypes: [], languages: [] })
    const withIds = { ...emptyArticle('2'), articleIds: [{ type: 'pmc', value: 'PMC6000000' }, { type: 'doi', value: '10.1056/x' }] }
    expect(defaultStoredDocument(withIds)).toMatchObject({ id: '2', pmcid: 'PMC6000000', doi: '10.1056/x' })
  })

  it('maps every required PubMed tag to fields that exist', () => {
    const names = new Set(defaultPubmedFields().map((f) => f.name))
    for (const tag of ['ti', 'ab', 'tiab', 'mh', 'majr', 'au', 'ta', 'pt', 'la']) {
      expect(PUBMED_TAG_FIELDS[tag]!.every((f) => names.has(f))).toBe(true)
    }
  })
})

describe('testCollectionFields', () => {
  it('has title and the joined abstract', () => {
    const config = resolveConfig({ fields: testCollectionFields({ analyzer: 'whitespace' }) })
    expect(config.schema.fields.map((f) => [f.name, f.analyzer])).toEqual([
      ['title', 'whitespace'],
      ['abstract', 'whitespace'],
    ])
    expect(extractDocument(pubmedArticle(), config).fields).toEqual([
      ['Selective COX-2 inhibitors in Crohn’s disease'],
      ['First section. Second section.'],
    ])
  })
})

describe('resolveConfig and extractDocument', () => {
  it('reject bad configs and documents with messages that name them', () => {
    const title = { name: 'title', source: (a: Article) => a.title }
    expect(() => resolveConfig({ fields: [] })).toThrow('an index needs at least one field')
    expect(() => resolveConfig({ fields: [title, title] })).toThrow('duplicate field name "title"')
    expect(() => resolveConfig({ fields: [{ ...title, analyzer: 'klingon' }] })).toThrow('field "title": unknown analyzer "klingon"')
    expect(() => resolveConfig({ fields: [title], codec: 'zip' as never })).toThrow('unknown codec "zip"')
    const config = resolveConfig({ fields: [title], numericDocValues: [{ name: 'score', source: () => 1.5 }] })
    expect(() => extractDocument(emptyArticle('77'), config)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: document 77: numeric doc value "score" must be a 32-bit integer, got 1.5]`,
    )
    expect(() => extractDocument(emptyArticle(''), config)).toThrow('an article without an id cannot be indexed')
  })

  it('defaults keyword fields to no positions and text fields to positions with a gap of 100', () => {
    const schema = resolveConfig({ fields: defaultPubmedFields() }).schema
    expect(schema.fields.find((f) => f.name === 'pubtype')).toEqual({ name: 'pubtype', analyzer: 'keyword', keyword: true, positions: false, positionGap: 100 })
    expect(schema.fields.find((f) => f.name === 'title')).toEqual({ name: 'title', analyzer: 'biomedical', keyword: false, positions: true, positionGap: 100 })
  })
})
