import { describe, expect, it } from 'vitest'
import { emptyArticle, type Article } from '@pubmatch/core'
import { citationQueries } from './generate.ts'

// NLM's medsamp2006.xml, PMID 10540283 (the parts the generator reads)
const SAUNDERS: Article = {
  ...emptyArticle('10540283'),
  title:
    'Transcription regulation of the nir gene cluster encoding nitrite reductase of Paracoccus denitrificans involves NNR and NirI, a novel type of membrane protein.',
  journal: {
    title: 'Molecular microbiology.',
    isoAbbreviation: 'Mol. Microbiol.',
    medlineTa: 'Mol Microbiol',
    volume: '34',
    issue: '1',
  },
  pubDate: { year: 1999 },
  pagination: '24-36',
  authors: [
    {
      lastName: 'Saunders',
      initials: 'NF',
      foreName: 'N F',
      affiliations: [],
      identifiers: [],
      valid: true,
    },
  ],
}

describe('citationQueries', () => {
  it('writes every form of a complete record as people type it', () => {
    expect(citationQueries(SAUNDERS).map((q) => [q.form, q.text])).toEqual([
      ['TA vol page', 'Mol Microbiol 34 24'],
      ['TA year;vol:page', 'Mol Microbiol 1999;34:24'],
      ['TA. year;vol(issue):pages', 'Mol Microbiol. 1999;34(1):24-36'],
      ['ISO year;vol:page', 'Mol. Microbiol. 1999;34:24'],
      ['full title vol page', 'Molecular microbiology 34 24'],
      ['full title year vol page', 'Molecular microbiology 1999 34 24'],
      ['author year TA', 'saunders 1999 mol microbiol'],
      ['author initials year TA', 'Saunders NF 1999 Mol Microbiol'],
      ['author year full title', 'Saunders 1999 Molecular microbiology'],
      ['title whole', SAUNDERS.title],
      ['title without final period', SAUNDERS.title.slice(0, -1)],
    ])
  })

  it('leaves out the forms whose parts a record lacks', () => {
    const forms = citationQueries({
      ...SAUNDERS,
      journal: { title: 'Lancet (London, England)', medlineTa: 'Lancet', volume: '1' },
      authors: [],
    }).map((q) => q.text)
    expect(forms).toEqual([
      'Lancet 1 24',
      'Lancet 1999;1:24',
      'Lancet 1 24',
      'Lancet 1999 1 24',
      SAUNDERS.title,
      SAUNDERS.title.slice(0, -1),
    ])
  })
})
