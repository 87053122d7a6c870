import { describe, expect, it } from 'vitest'
import { formatQuery } from './format.ts'
import { parseQuery } from './parse.ts'
import { mapQueryTerms, type TermMappingLookup } from './term-mapping.ts'

// Real MeSH 2014 records of the bundled sample (packages/sample-data/corpus/mesh/desc-samples.xml):
// UI, preferred name, tree numbers and entry terms as NLM gives them
const DESCRIPTORS = [
  {
    ui: 'D000082',
    name: 'Acetaminophen',
    trees: ['D02.065.199.092.040'],
    terms: [
      'Acetaminophen',
      'Hydroxyacetanilide',
      'Paracetamol',
      'Acetominophen',
      'N-Acetyl-p-aminophenol',
    ],
  },
  {
    ui: 'D009369',
    name: 'Neoplasms',
    trees: ['C04'],
    terms: ['Neoplasms', 'Neoplasm', 'Tumors', 'Tumor', 'Neoplasia', 'Cancer'],
  },
  {
    ui: 'D003920',
    name: 'Diabetes Mellitus',
    trees: ['C18.452.394.750', 'C19.246'],
    terms: ['Diabetes Mellitus'],
  },
  {
    ui: 'D048909',
    name: 'Diabetes Complications',
    trees: ['C19.246.099'],
    terms: [
      'Diabetes Complications',
      'Diabetes Complication',
      'Diabetes-Related Complications',
      'Diabetic Complications',
    ],
  },
  {
    ui: 'D006801',
    name: 'Humans',
    trees: ['B01.050.150.900.649.801.400.112.400.400'],
    terms: ['Humans', 'Modern Man', 'Homo sapiens', 'Human'],
  },
]

const lookup: TermMappingLookup = {
  mesh: {
    descriptorsForTerm: (term) =>
      DESCRIPTORS.filter((d) => d.terms.some((t) => t.toLowerCase() === term.toLowerCase())).map(
        (d) => d.ui,
      ),
    explode: (ui) => {
      const trees = DESCRIPTORS.find((d) => d.ui === ui)?.trees ?? []
      return DESCRIPTORS.filter((d) =>
        d.trees.some((t) => trees.some((top) => t === top || t.startsWith(`${top}.`))),
      ).map((d) => d.ui)
    },
    descriptorName: (ui) => DESCRIPTORS.find((d) => d.ui === ui)?.name,
  },
  // the bundled MEDLINE sample's Nucleic Acids Res
  journal: (text) =>
    text.toLowerCase() === 'nucleic acids res' || text.toLowerCase() === 'nucleic acids research'
      ? 'Nucleic Acids Res'
      : undefined,
}

const translate = (query: string, combine: 'and' | 'or' = 'and'): string =>
  formatQuery(mapQueryTerms(parseQuery(query), lookup, { combine }).query)

describe('mapQueryTerms', () => {
  it('maps an entry term to its descriptor, searched as MeSH, as the descriptor’s words and as typed', () => {
    expect(translate('paracetamol')).toBe('"Acetaminophen"[mh] OR Acetaminophen OR paracetamol')
    expect(translate('Cancer')).toBe('"Neoplasms"[mh] OR Neoplasms OR Cancer')
    // the preferred name itself is not repeated
    expect(translate('neoplasms')).toBe('"Neoplasms"[mh] OR neoplasms')
    expect(mapQueryTerms(parseQuery('homo sapiens'), lookup).mappings).toEqual([
      { text: 'homo sapiens', kind: 'mesh', to: ['Humans'] },
    ])
  })

  it('maps the longest runs of words left to right and keeps the rest as typed', () => {
    expect(translate('diabetic complications in children')).toBe(
      '("Diabetes Complications"[mh] OR Diabetes Complications OR diabetic complications) AND in children',
    )
    expect(translate('paracetamol tumor toxicity')).toBe(
      '("Acetaminophen"[mh] OR Acetaminophen OR paracetamol) AND ("Neoplasms"[mh] OR Neoplasms OR tumor) AND toxicity',
    )
    // ranked retrieval over any word: the runs are alternatives
    expect(translate('paracetamol toxicity', 'or')).toBe(
      '"Acetaminophen"[mh] OR Acetaminophen OR paracetamol OR toxicity',
    )
  })

  it('maps a whole term that names a journal', () => {
    expect(translate('nucleic acids research')).toBe(
      '"Nucleic Acids Res"[ta] OR nucleic acids research',
    )
    expect(
      mapQueryTerms(parseQuery('nucleic acids research'), lookup, { journalTag: false }).mappings,
    ).toEqual([])
  })

  it('maps a whole term written as an author that names one to the author alone', () => {
    // medsamp2006's Saunders NF, and a Saunders N the lookup also knows
    const authors: TermMappingLookup = {
      ...lookup,
      author: (text) => ['saunders nf', 'saunders n'].includes(text.toLowerCase()),
    }
    expect(formatQuery(mapQueryTerms(parseQuery('saunders nf'), authors).query)).toBe(
      'saunders nf[au]',
    )
    expect(mapQueryTerms(parseQuery('saunders n'), authors).mappings).toEqual([
      { text: 'saunders n', kind: 'author', to: ['saunders n'] },
    ])
    // not written as an author, or no such author, or no [au] field
    for (const query of ['saunders', 'saunders nitrite', 'smith j']) {
      expect(mapQueryTerms(parseQuery(query), authors).mappings, query).toEqual([])
    }
    expect(
      mapQueryTerms(parseQuery('saunders nf'), authors, { authorTag: false }).mappings,
    ).toEqual([])
  })

  it('leaves tagged, quoted, truncated and excluded terms, and unknown words, alone', () => {
    for (const query of ['cancer[tiab]', '"cancer"', 'cancer*', 'toxicity', 'cancer[mh]']) {
      expect(translate(query), query).toBe(formatQuery(parseQuery(query)))
    }
    expect(translate('toxicity NOT paracetamol')).toBe('toxicity NOT paracetamol')
    expect(translate('toxicity AND (cancer OR "tumor")')).toBe(
      'toxicity AND ("Neoplasms"[mh] OR Neoplasms OR cancer OR "tumor")',
    )
  })

  it('adds only the descriptor’s words when the index has no MeSH field', () => {
    expect(
      formatQuery(mapQueryTerms(parseQuery('paracetamol'), lookup, { meshTag: false }).query),
    ).toBe('Acetaminophen OR paracetamol')
  })

  it('round-trips: the translation parses back to the tree it prints', () => {
    const mapped = mapQueryTerms(parseQuery('paracetamol tumor toxicity'), lookup).query
    expect(parseQuery(formatQuery(mapped))).toEqual(mapped)
  })
})
