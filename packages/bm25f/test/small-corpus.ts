import { emptyArticle, type Article, type PartialDate } from '@pubmatch/core'
import type { SearchMeshLookup } from '../src/search/types.ts'

/** What a small test citation is made of. */
interface Citation {
  id: string
  title: string
  abstract?: string
  /** [name, descriptor UI, major topic] */
  mesh?: [string, string, boolean][]
  keywords?: string[]
  /** [last name, initials] */
  authors?: [string, string][]
  journal?: string
  pubTypes?: string[]
  languages?: string[]
  date?: PartialDate
}

function citation(c: Citation): Article {
  const a = emptyArticle(c.id, 'pubmed')
  a.title = c.title
  if (c.abstract !== undefined) {
    a.abstract = [{ text: c.abstract }]
  }
  a.mesh = (c.mesh ?? []).map(([descriptorName, descriptorUi, majorTopic]) => ({
    descriptorName,
    descriptorUi,
    majorTopic,
    qualifiers: [],
  }))
  a.keywords = (c.keywords ?? []).map((text) => ({ text, majorTopic: false }))
  a.authors = (c.authors ?? []).map(([lastName, initials]) => ({
    lastName,
    initials,
    affiliations: [],
    identifiers: [],
    valid: true,
  }))
  if (c.journal !== undefined) {
    a.journal = { medlineTa: c.journal }
  }
  a.publicationTypes = (c.pubTypes ?? ['Journal Article']).map((name) => ({ name }))
  a.languages = c.languages ?? ['eng']
  if (c.date !== undefined) {
    a.pubDate = c.date
  }
  return a
}

/**
 * Twelve citations, indexed with `defaultPubmedFields({ analyzer: 'biomedical:nostem' })` in the
 * tests (no stemming, so the expected matches can be read off the text; PubMed stop words drop
 * `the`, `of`, `a`, `and`, `in`, `is`, …, keeping their positions).
 */
export const SMALL_CORPUS: readonly Article[] = [
  citation({
    id: '101',
    title: 'Heart attack risk in women',
    abstract: 'Myocardial infarction, a heart attack, has several risk factors.',
    mesh: [
      ['Myocardial Infarction', 'D009203', true],
      ['Women', 'D014930', false],
    ],
    authors: [['Smith', 'JA']],
    journal: 'Lancet',
    pubTypes: ['Journal Article', 'Review'],
    date: { year: 2015, month: 3 },
  }),
  citation({
    id: '102',
    title: 'Attack of the heart: a review',
    abstract: 'We review cardiac events.',
    mesh: [['Heart Diseases', 'D006331', true]],
    authors: [['Jones', 'B']],
    journal: 'BMJ',
    date: { year: 2018 },
  }),
  citation({
    id: '103',
    title: 'Colorectal cancer screening',
    abstract: 'Colonoscopy finds colon cancer early. Colon polyps precede colorectal neoplasms.',
    mesh: [['Colorectal Neoplasms', 'D015179', true]],
    authors: [['Smith', 'JB']],
    journal: 'JAMA',
    pubTypes: ['Randomized Controlled Trial'],
    date: { year: 2020, month: 6, day: 15 },
  }),
  citation({
    id: '104',
    title: 'Breast cancer and hip pain',
    abstract: 'Patients reported pain in the hip after therapy.',
    mesh: [['Breast Neoplasms', 'D001943', true]],
    authors: [['Brown', 'C']],
    languages: ['fre'],
    date: { year: 2010 },
  }),
  citation({
    id: '105',
    title: 'Hip pain in runners',
    abstract: 'Hip joint pain is common in runners.',
    mesh: [['Pain', 'D010146', false]],
    date: { year: 2021 },
  }),
  citation({
    id: '106',
    title: 'COX-2 inhibitors and colon cancer',
    abstract: 'Selective inhibition of cox2 reduces colon tumours.',
    mesh: [['Colonic Neoplasms', 'D003110', true]],
    date: { year: 2019 },
  }),
  citation({
    id: '107',
    title: 'The pain of the hip',
    abstract: 'A narrative account.',
    date: { year: 2012 },
  }),
  citation({
    id: '108',
    title: 'Neoplasms overview',
    abstract: 'Tumours of many organs.',
    mesh: [['Neoplasms', 'D009369', false]],
    date: { year: 2005 },
  }),
  citation({
    id: '109',
    title: 'Diet and health',
    abstract: 'Vegetables every day.',
    keywords: ['heart attack', 'diet'],
    date: { year: 2016 },
  }),
  citation({
    id: '110',
    title: 'Vitamin D and bone health',
    abstract: 'Bone density in older adults.',
    pubTypes: ['Review'],
    date: { year: 2017 },
  }),
  // Two documents that score alike for `twin`, for tie-breaking.
  citation({ id: '111', title: 'twin study', abstract: 'twin data', date: { year: 2011 } }),
  citation({ id: '112', title: 'twin study', abstract: 'twin data', date: { year: 2011 } }),
]

/** A tiny MeSH vocabulary: `Neoplasms` explodes to the three neoplasm descriptors below it. */
export const SMALL_MESH: SearchMeshLookup = {
  descriptorsForTerm: (term) => {
    const key = term.toLowerCase()
    return key === 'neoplasms' || key === 'cancer'
      ? ['D009369']
      : key === 'colorectal neoplasms'
        ? ['D015179']
        : []
  },
  explode: (ui) =>
    ui === 'D009369'
      ? ['D009369', 'D001943', 'D015179', 'D003110']
      : ui === 'D015179'
        ? ['D015179']
        : [ui],
}

/** The same vocabulary with descriptor names. */
export const SMALL_MESH_WITH_NAMES: SearchMeshLookup = {
  ...SMALL_MESH,
  descriptorName: (ui) =>
    ({
      D009369: 'Neoplasms',
      D001943: 'Breast Neoplasms',
      D015179: 'Colorectal Neoplasms',
      D003110: 'Colonic Neoplasms',
    })[ui],
}
