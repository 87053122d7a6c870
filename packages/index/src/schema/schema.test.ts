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
      // the fields only a tag searches
      affiliation: [],
      corporate_author: ['COVID Study Group'],
      grant: [],
      cois: [],
      transliterated_title: [],
      publisher: [],
      book: [],
      authors_full: ['Smith JA', 'JA Smith', 'Müller Hans-Peter', 'Hans-Peter Müller', 'COVID Study Group', 'Doe J', 'J Doe'],
      first_author: ['Smith JA'],
      last_author: ['Doe J'],
      author_id: [],
      investigators: [],
      investigators_full: [],
      editors: [],
      personal_name: [],
      registry_number: [],
      mesh_subheading: ['drug therapy'],
      article_id: [],
      location_id: [],
      pmcid: [],
      isbn: [],
      issue: [],
      volume: [],
      pagination: [],
      journal_id: [],
      place: [],
      secondary_source: [],
      filter: ['hasabstract', 'humans', 'english'],
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

  it('extracts the data of the tag-only fields and the date doc values from a full record', () => {
    const a = pubmedArticle()
    a.authors[0]!.affiliations = ['Dept of Medicine, Harvard Medical School, Boston, MA, USA.']
    a.authors[0]!.identifiers = [{ source: 'ORCID', value: '0000-0002-5721-6764' }]
    a.grants = [{ grantId: 'R01 GM123456', acronym: 'GM', agency: 'NIGMS NIH HHS', country: 'United States' }]
    a.investigators = [{ lastName: 'Wong', foreName: 'Julia S', initials: 'JS', affiliations: [], identifiers: [], valid: true }]
    a.personalNameSubjects = [{ lastName: 'Sherrington', foreName: 'C S', initials: 'CS', affiliations: [], identifiers: [], valid: true }]
    a.dataBanks = [{ name: 'ClinicalTrials.gov', accessionNumbers: ['NCT00000419'] }]
    a.coiStatement = 'None declared.'
    a.vernacularTitle = 'Selektive COX-2-Hemmer'
    a.chemicals = [{ name: 'Cyclooxygenase 2 Inhibitors', registryNumber: '0' }, { name: 'Celecoxib', registryNumber: 'JCX84Q7J1L' }]
    a.articleIds = [{ type: 'pubmed', value: '31511694' }, { type: 'doi', value: '10.1056/NEJMoa1' }, { type: 'pmc', value: 'PMC6000000' }, { type: 'pii', value: 'S0140-6736(19)1' }]
    a.journal = { ...a.journal, volume: '381', issue: '12', nlmUniqueId: '0255562', country: 'United States' }
    a.pagination = '1123-30'
    a.citationStatus = 'MEDLINE'
    a.history = [
      { status: 'entrez', date: { year: 2019, month: 9, day: 12 } },
      { status: 'pubmed', date: { year: 2019, month: 9, day: 13 } },
      { status: 'medline', date: { year: 2019, month: 10, day: 1 } },
    ]
    a.dateCompleted = { year: 2019, month: 10, day: 2 }
    a.dateRevised = { year: 2020, month: 1, day: 5 }
    a.electronicDate = { year: 2019, month: 8, day: 30 }
    const config = resolveConfig({ fields: defaultPubmedFields() })
    const doc = extractDocument(a, config)
    const fields = Object.fromEntries(config.schema.fields.map((f, i) => [f.name, doc.fields[i]]))
    expect(fields).toMatchObject({
      affiliation: ['Dept of Medicine, Harvard Medical School, Boston, MA, USA.'],
      grant: ['R01 GM123456', 'GM', 'NIGMS NIH HHS'],
      cois: ['None declared.'],
      transliterated_title: ['Selektive COX-2-Hemmer'],
      author_id: ['0000-0002-5721-6764'],
      investigators: ['Wong JS'],
      investigators_full: ['Wong Julia S', 'Julia S Wong'],
      personal_name: ['Sherrington CS'],
      // RN 0 is MEDLINE's "no number"
      registry_number: ['JCX84Q7J1L'],
      article_id: ['10.1056/NEJMoa1', 'PMC6000000', 'S0140-6736(19)1'],
      location_id: ['10.1056/NEJMoa1', 'S0140-6736(19)1'],
      pmcid: ['PMC6000000'],
      issue: ['12'],
      volume: ['381'],
      pagination: ['1123-30', '1123'],
      journal_id: ['0255562'],
      place: ['United States'],
      secondary_source: ['ClinicalTrials.gov', 'ClinicalTrials.gov/NCT00000419', 'NCT00000419'],
      filter: ['hasabstract', 'medline', 'pubmed pmc', 'free full text', 'full text', 'humans', 'english'],
    })
    const numeric = Object.fromEntries(config.schema.numericDocValues.map((n, i) => [n, doc.numeric[i]]))
    expect(numeric).toMatchObject({
      edat: 20190913,
      crdt: 20190912,
      mhda: 20191001,
      dcom: 20191002,
      lr: 20200105,
      ppdat: 20190900,
      epdat: 20190830,
    })
  })

  it('indexes a book’s ISBNs, editors, publisher and place (PubMed book records)', () => {
    const a = emptyArticle('20301295', 'pubmed-book')
    a.book = {
      title: 'GeneReviews',
      publisher: 'University of Washington, Seattle',
      publisherLocation: 'Seattle (WA)',
      isbn: ['978-0-12-345678-9'],
      locationLabels: [],
      editors: [{ lastName: 'Adam', foreName: 'Margaret P', initials: 'MP', affiliations: [], identifiers: [], valid: true }],
    }
    const config = resolveConfig({ fields: defaultPubmedFields() })
    const doc = extractDocument(a, config)
    const fields = Object.fromEntries(config.schema.fields.map((f, i) => [f.name, doc.fields[i]]))
    expect(fields).toMatchObject({
      book: ['GeneReviews'],
      publisher: ['University of Washington, Seattle'],
      place: ['Seattle (WA)'],
      isbn: ['978-0-12-345678-9', '9780123456789'],
      editors: ['Adam MP'],
    })
  })

  it('maps every required PubMed tag to fields that exist', () => {
    const names = new Set(defaultPubmedFields().map((f) => f.name))
    for (const tag of Object.keys(PUBMED_TAG_FIELDS)) {
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
