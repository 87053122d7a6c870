import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { isPubmatchError, type Article, type PubmatchError } from '@pubmatch/core'
import { sharedDataDir, sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EUTILS_FIXTURES } from '../../test/eutils-fixtures.ts'
import type { IngestRecord } from '../records.ts'
import type { XmlScanStats } from '../xml/scanner.ts'
import { parsePubmedXmlString, readPubmedXml, type PubmedXmlOptions } from './reader.ts'

/** The real data set's PubMed XML and E-utilities folders (only in tests tagged `real-data`). */
const PUBMED = sharedDataPath('pubmed-xml')
const BIOPYTHON = sharedDataPath('eutils', 'biopython')
const KLORTHO = sharedDataPath('eutils', 'klortho')
const dir = mkdtempSync(join(tmpdir(), 'pubmatch-pubmed-'))

afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function readAll(input: string, options?: PubmedXmlOptions): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of readPubmedXml(input, options)) {
    out.push(record)
  }
  return out
}

async function readFailure(input: string): Promise<PubmatchError> {
  try {
    await readAll(input)
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

const articles = (records: readonly IngestRecord[]): Article[] =>
  records.flatMap((r) => (r.kind === 'article' ? [r.article] : []))
const errors = (records: readonly IngestRecord[]): PubmatchError[] =>
  records.flatMap((r) => (r.kind === 'error' ? [r.error] : []))

function parseFile(path: string): IngestRecord[] {
  return parsePubmedXmlString(readFileSync(path, 'utf8'), { file: path })
}

function byId(records: readonly IngestRecord[], id: string): Article {
  const found = articles(records).find((a) => a.id === id)
  if (found === undefined) {
    throw new Error(`no article ${id}`)
  }
  return found
}

function count<T>(values: readonly T[]): Map<T, number> {
  const out = new Map<T, number>()
  for (const v of values) {
    out.set(v, (out.get(v) ?? 0) + 1)
  }
  return out
}

const MEDLINE16 = samplePath('pubmed', 'medline16n0902.xml.gz')
const MEDSAMP = samplePath('pubmed', 'medsamp2006.xml')
const medline16Stats: XmlScanStats = {
  chars: 0,
  records: 0,
  maxBufferedChars: 0,
  maxRecordChars: 0,
}
let medline16: Promise<IngestRecord[]> | undefined
/** The baseline chunk, read once for the whole file (with the stats hook). */
const readMedline16 = (): Promise<IngestRecord[]> =>
  (medline16 ??= readAll(MEDLINE16, { stats: medline16Stats }))

describe('readPubmedXml on the 2016 MEDLINE baseline chunk (medline16n0902.xml.gz)', () => {
  const text = gunzipSync(readFileSync(MEDLINE16)).toString('utf8')
  const stats = medline16Stats
  let records: IngestRecord[] = []

  beforeAll(async () => {
    records = await readMedline16()
  })

  it('yields its 604 citations and the final DeleteCitation, with no errors', () => {
    expect(errors(records)).toEqual([])
    expect(articles(records)).toHaveLength(604)
    expect(new Set(articles(records).map((a) => a.id)).size).toBe(604)
    expect(records.at(-1)).toEqual({ kind: 'delete', deleted: [{ id: '26432306', version: 1 }] })
  })

  it('matches counts taken from the raw XML', () => {
    const all = articles(records)
    expect(count(all.flatMap((a) => a.languages))).toEqual(
      new Map([
        ['eng', 586],
        ['ita', 18],
      ]),
    )
    expect(count(all.map((a) => a.citationStatus))).toEqual(
      new Map([
        ['MEDLINE', 94],
        ['PubMed-not-MEDLINE', 254],
        ['In-Process', 181],
        ['In-Data-Review', 75],
      ]),
    )
    expect(all.filter((a) => a.abstract.length > 0)).toHaveLength(526)
    expect(all.filter((a) => a.abstract.some((s) => s.nlmCategory !== undefined))).toHaveLength(215)
    expect(all.filter((a) => a.pubDate?.medlineDate !== undefined)).toHaveLength(62)
    expect(all.flatMap((a) => a.commentsCorrections)).toHaveLength(3620)
    expect(all.filter((a) => a.articleIds.some((id) => id.type === 'pmc'))).toHaveLength(368)
    expect(
      all.flatMap((a) => a.authors).filter((au) => au.collectiveName !== undefined),
    ).toHaveLength(8)
    const orcids = all
      .flatMap((a) => a.authors)
      .flatMap((au) => au.identifiers)
      .filter((i) => i.source === 'ORCID')
    expect(orcids).toHaveLength(122)
    expect(orcids.every((i) => /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(i.value))).toBe(true)
  })

  it('reads a structured abstract with labels and NLM categories (PMID 17942999)', () => {
    const article = byId(records, '17942999')
    expect(article.abstract.map((s) => [s.label, s.nlmCategory])).toEqual([
      ['PURPOSE', 'OBJECTIVE'],
      ['METHODS', 'METHODS'],
      ['RESULTS', 'RESULTS'],
      ['CONCLUSIONS', 'CONCLUSIONS'],
    ])
    expect(article.abstract[0]?.text).toBe(
      'An auditory electrophysiological study was conducted to explore the influence of language experience on the saliency of dimensions underlying cortical pitch processing.',
    )
    expect(article.authors[0]?.affiliations).toEqual([
      'Department of Speech Language & Hearing Sciences, Purdue University, West Lafayette, IN 47907-2038, USA.',
    ])
    expect(article.journal).toMatchObject({
      issn: '0922-6028',
      issnType: 'Print',
      volume: '25',
      issue: '3-4',
    })
    expect(article.pubDate).toEqual({ year: 2007 })
    expect(article.dateCompleted).toEqual({ year: 2008, month: 2, day: 7 })
    expect(article.dateRevised).toEqual({ year: 2015, month: 12, day: 26 })
    expect(article.pagination).toBe('195-210')
  })

  it('reads SupplMeshList names with UI and type (PMID 25378401)', () => {
    expect(byId(records, '25378401').supplementaryConcepts).toEqual([
      { name: 'Nasopharyngeal carcinoma', ui: 'C538339', type: 'Disease' },
    ])
  })

  it('normalises the MedlineDate "2015 Oct-Dec" and maps NLM OtherIDs to pmc and mid ids (PMID 26109528)', () => {
    const dated = articles(records).find((a) => a.pubDate?.medlineDate === '2015 Oct-Dec')
    expect(dated?.pubDate).toEqual({ medlineDate: '2015 Oct-Dec', year: 2015, month: 10 })
    const last = byId(records, '26109528')
    expect(last.articleIds.filter((id) => id.type === 'pmc' || id.type === 'mid')).toEqual([
      { type: 'mid', value: 'NIHMS703885' },
      { type: 'pmc', value: 'PMC4688250' },
    ])
    expect(last.electronicDate).toEqual({ year: 2015, month: 6, day: 22 })
    expect(last.journal?.medlineTa).toBe('Wiley Interdiscip Rev Nanomed Nanobiotechnol')
  })

  it('never holds more than one record: the buffer peaks at the longest record', () => {
    // The longest <MedlineCitation> in the raw text, measured independently of the scanner.
    const longest = Math.max(
      ...(text.match(/<MedlineCitation [\s\S]*?<\/MedlineCitation>/g) ?? []).map((r) => r.length),
    )
    expect(longest).toBe(56_612)
    expect(stats.chars).toBe(text.length)
    expect(stats.records).toBe(605)
    expect(stats.maxRecordChars).toBe(longest)
    expect(stats.maxBufferedChars).toBeGreaterThanOrEqual(longest)
    expect(stats.maxBufferedChars).toBeLessThan(longest + 1024)
    expect(stats.maxBufferedChars * 60).toBeLessThan(text.length)
  })
})

describe("readPubmedXml on NLM's medsamp2006.xml", () => {
  const file = MEDSAMP
  let records: IngestRecord[] = []
  beforeAll(async () => {
    records = await readAll(file)
  })

  it('reads all 88 citations with every status and 9 languages', () => {
    expect(errors(records)).toEqual([])
    const all = articles(records)
    expect(all).toHaveLength(88)
    expect(count(all.map((a) => a.citationStatus))).toEqual(
      new Map([
        ['MEDLINE', 71],
        ['OLDMEDLINE', 5],
        ['PubMed-not-MEDLINE', 5],
        ['In-Process', 4],
        ['In-Data-Review', 3],
      ]),
    )
    expect(count(all.flatMap((a) => a.languages))).toEqual(
      new Map(
        [
          ['eng', 80],
          ['fre', 3],
          ['spa', 2],
          ['ger', 1],
          ['kor', 1],
          ['pol', 1],
          ['rus', 1],
          ['und', 1],
          ['ita', 1],
        ].map(([k, v]) => [k, v] as [string, number]),
      ),
    )
    expect(all.filter((a) => a.vernacularTitle !== undefined)).toHaveLength(7)
    expect(all.filter((a) => a.abstract.length > 0)).toHaveLength(54)
  })

  it('reads a retracted Polish article: vernacular title, old-style affiliation and CommentsCorrections (PMID 8655018)', () => {
    const article = byId(records, '8655018')
    expect(article).toMatchObject({
      title: '[Effect of fetal and neonatal growth on the occurrence of some diseases in adults]',
      vernacularTitle:
        'Wpływ przebiegu rozwoju płodu i noworodka na ujawnienie sie niektórych chorób okresu dorosłego.',
      languages: ['pol'],
      pubDate: { year: 1996, month: 1 },
      pagination: '34-6',
      citationStatus: 'MEDLINE',
      owner: 'NLM',
      journal: {
        title: 'Ginekologia polska.',
        isoAbbreviation: 'Ginekol. Pol.',
        country: 'POLAND',
        nlmUniqueId: '0374641',
        medlineTa: 'Ginekol Pol',
      },
    })
    expect(article.authors.map((a) => [a.lastName, a.affiliations])).toEqual([
      ['Jendryczko', ['Katedry i Zakładu Chemii i Analizy Leków, AM w Katowicach.']],
      ['Poreba', []],
    ])
    expect(article.commentsCorrections).toEqual([
      { refType: 'CommentIn', refSource: 'Ginekol Pol. 1998 Jul;69(7):561', pmid: '9867475' },
      { refType: 'RetractionIn', refSource: 'Ginekol Pol. 1998 Jul;69(7):559-60', pmid: '9867474' },
    ])
    expect(article.publicationTypes).toEqual([
      { name: 'Journal Article' },
      { name: 'Retracted Publication' },
      { name: 'Review' },
    ])
    expect(article.mesh[1]).toEqual({
      descriptorName: 'Cardiovascular Diseases',
      majorTopic: false,
      qualifiers: [
        { name: 'etiology', majorTopic: false },
        { name: 'mortality', majorTopic: true },
      ],
    })
  })

  it('reads author flags: ValidYN="N", CompleteYN="N", Suffix and a collective name (PMIDs 9634358, 9626910, 9575322, 11428848)', () => {
    expect(byId(records, '9634358').authors.at(-1)).toEqual({
      lastName: 'Whitely',
      foreName: 'R J',
      initials: 'RJ',
      affiliations: [],
      identifiers: [],
      valid: false,
    })
    const incomplete = byId(records, '9626910')
    expect(incomplete.authorListComplete).toBe(false)
    expect(incomplete.authors[0]).toMatchObject({
      lastName: 'Matsumori',
      affiliations: ['Kyoto University, Japan.'],
    })
    expect(byId(records, '9575322').authors.at(-1)).toMatchObject({
      lastName: 'Hardy',
      suffix: 'Jr',
      valid: true,
    })
    expect(byId(records, '11428848').authors.at(-1)?.collectiveName).toBe(
      'European Society of Cardiology. Working Group on Arrhythmias and Working Group on Cardiac Pacing',
    )
    expect(
      articles(records)
        .filter((a) => !a.authorListComplete)
        .map((a) => a.id),
    ).toEqual(['9626910'])
  })

  it('normalises a MedlineDate spanning two years and a Season (PMIDs 10188493, 15206831)', () => {
    expect(byId(records, '10188493').pubDate).toEqual({
      medlineDate: '1998 Dec-1999 Jan',
      year: 1998,
      month: 12,
    })
    expect(byId(records, '15206831').pubDate).toEqual({ year: 2003, season: 'Fall' })
  })

  it('reads the RetractionOf link of a retraction notice and a PIP OtherAbstract (PMIDs 9634358, 12179763)', () => {
    expect(
      byId(records, '9634358').commentsCorrections.find((c) => c.refType === 'RetractionOf'),
    ).toEqual({
      refType: 'RetractionOf',
      refSource:
        'Dunkel EC, de Freitas D, Scheer DI, Siegel ML, Zhu Q, Whitley RJ, Schaffer PA, Pavan-Langston D. J Infect Dis. 1993 Aug;168(2):336-44',
      pmid: '8393056',
    })
    const other = byId(records, '12179763').otherAbstracts
    expect(other).toHaveLength(1)
    expect(other[0]?.type).toBe('PIP')
    expect(other[0]?.sections[0]?.text.length).toBeGreaterThan(100)
  })
})

describe('PubMed XML of the current format', () => {
  it(
    'reads test_current_medline.xml.gz: copyright, NBSP, keywords, history, ids and chemicals (PMID 36400559)',
    { tags: ['real-data'] },
    async () => {
      const records = await readAll(join(PUBMED, 'test_current_medline.xml.gz'))
      expect(errors(records)).toEqual([])
      expect(articles(records).map((a) => a.id)).toEqual([
        '36400559',
        '2930949',
        '11446611',
        '28786991',
      ])
      const article = byId(records, '36400559')
      expect(article.copyright).toBe('Copyright © 2022 Elsevier Inc. All rights reserved.')
      expect(article.abstract[0]?.text).toContain('persists for greater than 6 weeks, imaging')
      expect(article.pubDate).toEqual({ year: 2023, month: 2 })
      expect(article.electronicDate).toEqual({ year: 2022, month: 10, day: 29 })
      expect(article.pagination).toBe('61-76')
      expect(article.journal).toEqual({
        title: 'Neurologic clinics',
        isoAbbreviation: 'Neurol Clin',
        medlineTa: 'Neurol Clin',
        issn: '1557-9875',
        issnType: 'Electronic',
        issnLinking: '0733-8619',
        nlmUniqueId: '8219232',
        country: 'United States',
        volume: '41',
        issue: '1',
      })
      expect(article.keywords).toEqual(
        ['Back pain', 'Diagnosis', 'Management', 'Outpatient'].map((text) => ({
          text,
          owner: 'NOTNLM',
          majorTopic: false,
        })),
      )
      expect(article.history).toEqual([
        { status: 'entrez', date: { year: 2022, month: 11, day: 18 } },
        { status: 'pubmed', date: { year: 2022, month: 11, day: 19 } },
        { status: 'medline', date: { year: 2022, month: 11, day: 23 } },
      ])
      expect(article.articleIds).toEqual([
        { type: 'pubmed', value: '36400559' },
        { type: 'doi', value: '10.1016/j.ncl.2022.07.002' },
        { type: 'pii', value: 'S0733-8619(22)00058-5' },
      ])
      expect(article.chemicals).toEqual([
        { name: 'Anti-Inflammatory Agents, Non-Steroidal', registryNumber: '0', ui: 'D000894' },
      ])
      expect(article.mesh[1]).toEqual({
        descriptorUi: 'D017116',
        descriptorName: 'Low Back Pain',
        majorTopic: true,
        qualifiers: [
          { ui: 'Q000175', name: 'diagnosis', majorTopic: false },
          { ui: 'Q000209', name: 'etiology', majorTopic: false },
          { ui: 'Q000628', name: 'therapy', majorTopic: false },
        ],
      })
      expect(article.publicationStatus).toBe('ppublish')
      expect(byId(records, '28786991').authors[0]?.identifiers).toEqual([
        { source: 'ORCID', value: '0000-0002-5721-6764' },
      ])
    },
  )

  it('reads grants, data banks and personal names as subject (medsamp2006.xml)', () => {
    const records = parseFile(MEDSAMP)
    expect(byId(records, '10972993').grants).toEqual([
      { grantId: 'C69453', agency: 'PHS' },
      { grantId: 'CA15576', acronym: 'CA', agency: 'NCI' },
      { grantId: 'CA62269', acronym: 'CA', agency: 'NCI' },
    ])
    expect(byId(records, '10540283').dataBanks).toEqual([
      { name: 'GENBANK', accessionNumbers: ['AF005358', 'U47133', 'U94899'] },
      { name: 'PDB', accessionNumbers: ['P33943'] },
    ])
    expect(byId(records, '12227380').personalNameSubjects?.map((p) => p.lastName)).toEqual([
      'Paracelsus',
      'Weber',
    ])
    const sherrington = byId(records, '12219757').personalNameSubjects
    expect(sherrington).toMatchObject([{ lastName: 'Sherrington', foreName: 'C S', initials: 'CS' }])
    // a record without any of them has none of the keys
    const plain = byId(records, '10854512')
    expect([plain.grants, plain.dataBanks, plain.investigators, plain.coiStatement]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  it(
    'reads the conflict of interest statement, a grant and a GEO data bank (pmid_38289659.xml)',
    { tags: ['real-data'] },
    () => {
      const article = byId(parseFile(join(PUBMED, 'pmid_38289659.xml')), '38289659')
      expect(article.coiStatement).toBe('RM, SR, GH No competing interests declared')
      expect(article.grants).toEqual([
        {
          grantId: 'BT/PR28450/MED/122/2018',
          agency: 'Department of Biotechnology, Ministry of Science and Technology, India',
        },
      ])
      expect(article.dataBanks).toEqual([
        { name: 'GEO', accessionNumbers: ['GSE230134', 'GSE47280', 'GSE47319'] },
      ])
    },
  )

  it('reads the investigators of a consortium paper (pmid_30078747.xml)', () => {
    const article = byId(parseFile(samplePath('pubmed', 'pmid_30078747.xml')), '30078747')
    expect(article.investigators).toHaveLength(725)
    expect(article.investigators?.[0]).toMatchObject({
      lastName: 'Caesar-Johnson',
      foreName: 'Samantha J',
      initials: 'SJ',
    })
  })

  it('reads a retracted article with its RetractionIn link (pmid_9500320.xml)', () => {
    const article = byId(parseFile(samplePath('pubmed', 'pmid_9500320.xml')), '9500320')
    expect(article.abstract.map((s) => s.label)).toEqual([
      'BACKGROUND',
      'METHODS',
      'FINDINGS',
      'INTERPRETATION',
    ])
    expect(article.publicationTypes).toContainEqual({
      ui: 'D016441',
      name: 'Retracted Publication',
    })
    expect(article.commentsCorrections).toContainEqual({
      refType: 'RetractionIn',
      refSource: 'Lancet. 2010 Feb 6;375(9713):445',
      pmid: '20137807',
    })
  })

  it('reads a collective author (pmid_30078747.xml) and a 1970s MedlineDate (pmid_151222.xml)', () => {
    const collective = byId(parseFile(samplePath('pubmed', 'pmid_30078747.xml')), '30078747')
    expect(collective.authors.filter((a) => a.collectiveName !== undefined)).toEqual([
      {
        collectiveName: 'Cancer Genome Atlas Research Network',
        affiliations: [],
        identifiers: [],
        valid: true,
      },
    ])
    expect(byId(parseFile(samplePath('pubmed', 'pmid_151222.xml')), '151222').pubDate).toEqual({
      medlineDate: '1978 Jul-Sep',
      year: 1978,
      month: 7,
    })
  })

  it(
    'flattens inline markup in titles and abstracts (title_with_html_tags.xml, PMID 27797938)',
    { tags: ['real-data'] },
    () => {
      const article = byId(parseFile(join(BIOPYTHON, 'title_with_html_tags.xml')), '27797938')
      expect(article.title).toBe(
        'Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.',
      )
      expect(article.abstract.map((s) => s.label)).toEqual([
        'OBJECTIVE',
        'DESIGN',
        'RESULTS',
        'CONCLUSIONS',
      ])
      expect(article.abstract[2]?.text).toContain('95% CI 1.07 to 2.78; ptrend=0.048). ')
      // No space is restored before "(": only word-to-word joins get one.
      expect(article.abstract[2]?.text).toContain(
        'Three SNPs at TERT(linkage disequilibrium r2<0.25) were associated',
      )
    },
  )

  it(
    'flattens MathML to text (pubmed6.xml PMID 30108519, pubmed7.xml PMID 29963580)',
    { tags: ['real-data'] },
    () => {
      const six = byId(parseFile(join(BIOPYTHON, 'pubmed6.xml')), '30108519')
      expect(six.title).toBe(
        'A "Blood Relationship" Between the Overlooked Minimum Lactate Equivalent and Maximal Lactate Steady State in Trained Runners. Back to the Old Days?',
      )
      expect(six.abstract[0]?.text).toContain(
        'Thirteen male endurance-trained [VMLSS 15.0 ± 1.1 km·h-1; maximal oxygen uptake ( VO2max ) 67.6 ± 4.1 ml·kg-1·min-1] homogeneous',
      )
      expect(six.abstract[0]?.text).toContain(
        'maximal ramp incremental running test for VO2max determination',
      )
      const seven = byId(parseFile(join(BIOPYTHON, 'pubmed7.xml')), '29963580')
      expect(seven.abstract[0]?.text).toContain(
        'included: (1) inhaled 3He/129Xe MRI ventilation and apparent diffusion coefficients',
      )
      expect(seven.abstract[0]?.text).toContain('(3) ultrashort echo-time 1H MRI proton density')
      expect(seven.authors[1]?.identifiers).toEqual([
        { source: 'ORCID', value: '0000-0002-4590-7461' },
      ])
      expect(seven.authors.at(-1)?.collectiveName).toBe('Canadian Respiratory Research Network')
    },
  )

  it('reads a Season date and non-NLM owners (pubmed1.xml PMID 12091962)', () => {
    const article = byId(parseFile(join(EUTILS_FIXTURES, 'biopython/pubmed1.xml')), '12091962')
    expect(article.pubDate).toEqual({ year: 1990, season: 'Spring' })
    expect(article.owner).toBe('KIE')
    expect(article.keywords[0]).toEqual({
      text: 'Health Care and Public Health',
      owner: 'KIE',
      majorTopic: false,
    })
  })

  it('reads a PubmedBookArticle (efetch.pubmedbook.xml)', { tags: ['real-data'] }, () => {
    const records = parseFile(join(KLORTHO, 'efetch.pubmedbook.xml'))
    expect(errors(records)).toEqual([])
    const book = byId(records, '20301295')
    expect(book).toMatchObject({
      source: 'pubmed-book',
      title: 'GeneReviews™',
      languages: ['eng'],
      pubDate: { year: 1993 },
      publicationStatus: 'ppublish',
      copyright: 'Copyright © 1993-2012, University of Washington, Seattle. All rights reserved.',
      articleIds: [
        { type: 'bookaccession', value: 'NBK1116' },
        { type: 'pubmed', value: '20301295' },
      ],
    })
    expect(book.book).toMatchObject({
      title: 'GeneReviews™',
      publisher: 'University of Washington, Seattle',
      publisherLocation: 'Seattle (WA)',
      isbn: [],
      locationLabels: [],
    })
    expect(book.book?.editors.map((e) => `${e.lastName} ${e.initials}`)).toEqual([
      'Pagon RA',
      'Bird TD',
      'Dolan CR',
      'Stephens K',
      'Adam MP',
    ])
    expect(book.history.map((h) => h.status)).toEqual(['pubmed', 'medline', 'entrez'])
  })

  it(
    'reads a mixed set of a PubmedArticle and a PubmedBookArticle (efetch.pubmedexample.xml)',
    { tags: ['real-data'] },
    () => {
      const records = parseFile(join(KLORTHO, 'efetch.pubmedexample.xml'))
      expect(errors(records)).toEqual([])
      expect(articles(records).map((a) => [a.id, a.source])).toEqual([
        ['17284678', 'pubmed'],
        ['20301295', 'pubmed-book'],
      ])
    },
  )

  it(
    'parses every PubMed XML file in the shared data without error',
    { tags: ['real-data'] },
    async () => {
      const files = [
        ...readdirSync(PUBMED)
          .filter((f) => /\.xml(\.gz)?$/.test(f))
          .map((f) => join(PUBMED, f)),
        ...readdirSync(BIOPYTHON)
          .filter((f) => /^(pubmed\d+|title_with_html_tags)\.xml$/.test(f))
          .map((f) => join(BIOPYTHON, f)),
        ...readdirSync(KLORTHO)
          .filter((f) => /^efetch\.pubmed.*\.xml$/.test(f))
          .map((f) => join(KLORTHO, f)),
      ]
      expect(files).toHaveLength(14 + 7 + 3)
      const totals: Record<string, number> = {}
      for (const file of files) {
        const records = await readAll(file)
        expect(errors(records), file).toEqual([])
        expect(articles(records).length, file).toBeGreaterThan(0)
        totals[relative(sharedDataDir(), file)] = articles(records).length
      }
      expect(totals).toMatchObject({
        'pubmed-xml/pmids.xml': 4,
        'eutils/klortho/efetch.pubmed.xml': 2,
        'eutils/biopython/pubmed2.xml': 2,
      })
    },
  )
})

describe('readPubmedXml resources', () => {
  it.skipIf(!existsSync('/proc/self/fd')).each([MEDLINE16, MEDSAMP])(
    'closes %s when the consumer stops after the first record',
    async (file) => {
      const openFiles = () => readdirSync('/proc/self/fd').length
      const before = openFiles()
      for await (const record of readPubmedXml(file, { chunkSize: 4096 })) {
        expect(record.kind).toBe('article')
        expect(openFiles()).toBeGreaterThan(before)
        break
      }
      // The stream closes its file asynchronously: wait while a file-system request (the
      // last read, then the close) is in flight; once none is, the descriptor must be gone.
      const inFlight = (): boolean =>
        process.getActiveResourcesInfo().some((resource) => resource.startsWith('FSReq'))
      while (openFiles() > before && inFlight()) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      expect(openFiles()).toBe(before)
    },
  )
})

describe('readPubmedXml on damaged and foreign inputs', () => {
  it(
    'rejects eutils files that are not PubMed XML with UNSUPPORTED_FORMAT',
    { tags: ['real-data'] },
    async () => {
      const html = await readFailure(join(BIOPYTHON, 'pubmed3.html'))
      expect(html.code).toBe('UNSUPPORTED_FORMAT')
      expect(html.message).toContain('an HTML page, not PubMed XML')
      for (const name of ['efetch3.xml', 'efetch4.xml', 'efetch_pmc.xml', 'efetch_schemas.xml']) {
        const error = await readFailure(join(BIOPYTHON, name))
        expect(error.code, name).toBe('UNSUPPORTED_FORMAT')
        expect(error.details.file).toBe(join(BIOPYTHON, name))
      }
      expect(() =>
        parsePubmedXmlString(readFileSync(join(BIOPYTHON, 'pubmed3.html'), 'utf8')),
      ).toThrow('an HTML page, not PubMed XML')
    },
  )

  it('rejects a PMC EFetch answer (biopython efetch_pmc.xml) with UNSUPPORTED_FORMAT', async () => {
    const file = join(EUTILS_FIXTURES, 'biopython/efetch_pmc.xml')
    const error = await readFailure(file)
    expect([error.code, error.details.file]).toEqual(['UNSUPPORTED_FORMAT', file])
  })

  it('keeps the records before the cut of a truncated .gz, then yields one TRUNCATED_INPUT error', async () => {
    const whole = readFileSync(MEDLINE16)
    const path = join(dir, 'half.xml.gz')
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)))
    const records = await readAll(path)
    const kept = articles(records)
    expect(kept.length).toBeGreaterThan(200)
    expect(kept.length).toBeLessThan(604)
    const full = articles(await readMedline16())
    expect(kept).toEqual(full.slice(0, kept.length))
    expect(errors(records)).toHaveLength(1)
    expect(records.at(-1)?.kind).toBe('error')
    expect(errors(records)[0]).toMatchObject({ code: 'TRUNCATED_INPUT', details: { file: path } })
  })

  it(
    'yields TRUNCATED_INPUT after the complete records when the last record is unclosed',
    { tags: ['real-data'] },
    async () => {
      const text = readFileSync(join(PUBMED, 'pmids.xml'), 'utf8')
      const path = join(dir, 'cut.xml')
      writeFileSync(path, text.slice(0, text.lastIndexOf('<PubmedArticle>') + 400))
      const records = await readAll(path)
      expect(articles(records)).toHaveLength(3)
      expect(errors(records).map((e) => e.code)).toEqual(['TRUNCATED_INPUT'])
      expect(errors(records)[0]?.message).toContain('inside record #4 <PubmedArticle>')
    },
  )

  it('rejects an empty file with EMPTY_INPUT and a binary file as not XML', async () => {
    const empty = join(dir, 'empty.xml')
    writeFileSync(empty, '')
    expect(await readFailure(empty)).toMatchObject({
      code: 'EMPTY_INPUT',
      details: { file: empty },
    })
    const binary = join(dir, 'binary.xml')
    writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, k) => (k * 73 + 41) % 256)))
    const error = await readFailure(binary)
    expect(error.code).toBe('UNSUPPORTED_FORMAT')
    expect(error.message).toContain('not XML: the input does not start with "<"')
  })

  it('reports a citation without its PMID as MISSING_FIELD naming its ordinal, and keeps the others', async () => {
    const text = readFileSync(MEDSAMP, 'utf8')
    let seen = 0
    const damaged = text.replace(/<MedlineCitation [^>]*>\s*<PMID>\d+<\/PMID>/g, (m) =>
      ++seen === 3 ? m.replace(/<PMID>\d+<\/PMID>/, '') : m,
    )
    const path = join(dir, 'no-pmid.xml')
    writeFileSync(path, damaged)
    const records = await readAll(path)
    expect(articles(records)).toHaveLength(87)
    expect(errors(records)).toHaveLength(1)
    const error = errors(records)[0]!
    expect(error.code).toBe('MISSING_FIELD')
    expect(error.details).toEqual({ file: path, record: '#3' })
    expect(error.message).toBe(`${path} record #3: <MedlineCitation> has no PMID`)
    expect(records[2]?.kind).toBe('error')
  })

  it('reports a malformed record as MALFORMED_XML naming its PMID, and keeps the others', () => {
    const text = readFileSync(MEDSAMP, 'utf8')
    const damaged = text.replace(
      '<ArticleTitle>[Effect of fetal',
      '<ArticleTitle><Oops>[Effect of fetal',
    )
    const records = parsePubmedXmlString(damaged, { file: 'medsamp-broken.xml' })
    expect(articles(records)).toHaveLength(87)
    const error = errors(records)[0]!
    expect(error.code).toBe('MALFORMED_XML')
    expect(error.details).toMatchObject({ file: 'medsamp-broken.xml', record: '8655018' })
    expect(error.message).toMatch(
      /^medsamp-broken\.xml record PMID 8655018 \(#\d+\): not well-formed XML/,
    )
  })

  it('reads EqualContrib and normalises every ORCID form', () => {
    const xml = `<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">5</PMID><Article><AuthorList>
      <Author EqualContrib="Y"><LastName>A</LastName><Identifier Source="ORCID">http://orcid.org/0000-0002-1694-233x</Identifier></Author>
      <Author EqualContrib="N"><LastName>B</LastName><Identifier Source="ORCID">0000000218250097</Identifier></Author>
      <Author><LastName>C</LastName><Identifier Source="ORCID">not an orcid</Identifier><Identifier Source="ISNI">0000 0001</Identifier></Author>
      </AuthorList></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>`
    const [record] = parsePubmedXmlString(xml)
    const authors = record?.kind === 'article' ? record.article.authors : []
    expect(authors.map((a) => [a.equalContrib, a.identifiers])).toEqual([
      [true, [{ source: 'ORCID', value: '0000-0002-1694-233X' }]],
      [false, [{ source: 'ORCID', value: '0000-0002-1825-0097' }]],
      [
        undefined,
        [
          { source: 'ORCID', value: 'not an orcid' },
          { source: 'ISNI', value: '0000 0001' },
        ],
      ],
    ])
  })

  it('reads a single bare record file and an empty set', () => {
    const single = parsePubmedXmlString(
      '<MedlineCitation Status="MEDLINE"><PMID Version="2">42</PMID></MedlineCitation>',
    )
    expect(single).toEqual([
      {
        kind: 'article',
        article: expect.objectContaining({
          id: '42',
          version: 2,
          citationStatus: 'MEDLINE',
        }) as Article,
      },
    ])
    expect(
      parsePubmedXmlString('<?xml version="1.0"?><PubmedArticleSet></PubmedArticleSet>'),
    ).toEqual([])
  })
})
