import { describe, expect, it } from 'vitest'
import {
  citationRecordOf,
  createCitationMatcher,
  foldCitationText,
  journalVariants,
  type CitationRecord,
} from './citation.ts'
import { encodeCitationTable, openCitationTable } from './citation-table.ts'

// Three real citations of NLM's medsamp2006.xml (the bundled sample), as PubMed XML gives them
const SAUNDERS: CitationRecord = {
  id: '10540283',
  title:
    'Transcription regulation of the nir gene cluster encoding nitrite reductase of Paracoccus denitrificans involves NNR and NirI, a novel type of membrane protein.',
  journal: {
    title: 'Molecular microbiology.',
    isoAbbreviation: 'Mol. Microbiol.',
    medlineTa: 'Mol Microbiol',
  },
  year: 1999,
  volume: '34',
  issue: '1',
  pagination: '24-36',
  firstAuthor: { lastName: 'Saunders', initials: 'NF' },
}
const COLEMAN: CitationRecord = {
  id: '14744982',
  title:
    "Superior 5' homogeneity of RNA from ATP-initiated transcription under the T7 phi 2.5 promoter.",
  journal: {
    title: 'Nucleic acids research.',
    isoAbbreviation: 'Nucleic Acids Res.',
    medlineTa: 'Nucleic Acids Res',
  },
  year: 2004,
  volume: '32',
  issue: '1',
  pagination: 'e14',
  firstAuthor: { lastName: 'Coleman', initials: 'TM' },
}
const WIRTH: CitationRecord = {
  id: '13072632',
  title:
    '[Pharmacology of phosphoric acid esters; diethylthiophosphoric acid ester of ethylthioglycol.]',
  journal: {
    title: 'Naunyn-Schmiedebergs Archiv für experimentelle Pathologie und Pharmakologie.',
    medlineTa: 'Naunyn Schmiedebergs Arch Exp Pathol Pharmakol',
  },
  year: 1953,
  volume: '217',
  issue: '2',
  pagination: '144-52',
  firstAuthor: { lastName: 'WIRTH', initials: 'W' },
}
// a second article of the same journal, year and issue as SAUNDERS (hand-made), and a short title
const SAUNDERS_NEIGHBOUR: CitationRecord = {
  id: '1',
  title: 'Obesity.',
  journal: SAUNDERS.journal!,
  year: 1999,
  volume: '34',
  issue: '1',
  pagination: '37-49',
  firstAuthor: { lastName: 'Smith', initials: 'J' },
}

describe('foldCitationText', () => {
  it('drops diacritics, case and punctuation', () => {
    expect(foldCitationText('Archiv für Pathologie & Pharmakologie.')).toBe(
      'archiv fur pathologie and pharmakologie',
    )
    expect(foldCitationText('Nature 2001;409(6822):860-921')).toBe('nature 2001 409 6822 860 921')
  })

  it('names a journal by MedlineTA, ISO abbreviation and title without "the" or a place', () => {
    expect(
      journalVariants({
        title: 'Lancet (London, England)',
        isoAbbreviation: 'Lancet',
        medlineTa: 'Lancet',
      }).sort(),
    ).toEqual(['lancet', 'lancet london england'])
    expect(
      journalVariants({
        title: 'The New England journal of medicine',
        isoAbbreviation: 'N. Engl. J. Med.',
        medlineTa: 'N Engl J Med',
      }).sort(),
    ).toEqual([
      'n engl j med',
      'new england journal of medicine',
      'the new england journal of medicine',
    ])
  })

  it('drops a bracketed medium from a full title (real: Dermatol Online J)', () => {
    expect(
      journalVariants({
        title: 'Dermatology online journal [electronic resource]',
        medlineTa: 'Dermatol Online J',
      }).sort(),
    ).toEqual([
      'dermatol online j',
      'dermatology online journal',
      'dermatology online journal electronic resource',
    ])
  })
})

// the records in memory, and the same records through the compact table an engine opens
describe.each([
  { name: 'createCitationMatcher', create: createCitationMatcher },
  {
    name: 'openCitationTable',
    create: (records: CitationRecord[]) => openCitationTable(encodeCitationTable(records)),
  },
])('$name', ({ create }) => {
  const matcher = create([SAUNDERS, COLEMAN, WIRTH, SAUNDERS_NEIGHBOUR])

  it('finds journal volume page in the forms people type', () => {
    for (const query of [
      'Mol Microbiol 34 24',
      'Mol Microbiol 1999;34:24',
      'Mol Microbiol. 1999;34(1):24-36',
      'Mol. Microbiol. 1999 34 24-36',
      'molecular microbiology 34:24',
    ]) {
      expect(matcher.match(query)?.id, query).toBe('10540283')
    }
    expect(matcher.match('Mol Microbiol 1999;34(1):24-36')).toEqual({
      id: '10540283',
      form: 'citation',
      matched: { journal: 'mol microbiol', year: '1999', volume: '34', issue: '1', page: '24-36' },
    })
  })

  it('expands an abbreviated last page (144-52 is 144-152) and reads e-locators', () => {
    expect(
      matcher.match('Naunyn Schmiedebergs Arch Exp Pathol Pharmakol 1953 217 144-152')?.id,
    ).toBe('13072632')
    expect(matcher.match('Nucleic Acids Res 2004 32 e14')?.id).toBe('14744982')
  })

  it('reads a full journal title of any length (real: Am J Orthod Dentofacial Orthop)', () => {
    const ortho: CitationRecord = {
      id: '26432299',
      title: 'z',
      journal: {
        title:
          'American journal of orthodontics and dentofacial orthopedics : official publication of the American Association of Orthodontists, its constituent societies, and the American Board of Orthodontics',
        medlineTa: 'Am J Orthod Dentofacial Orthop',
      },
      year: 2015,
      volume: '148',
      pagination: '521',
    }
    const one = create([ortho])
    expect(one.match(`${ortho.journal!.title!} 148 521`)?.id).toBe('26432299')
    expect(
      one.match('American journal of orthodontics and dentofacial orthopedics 2015;148:521')?.id,
    ).toBe('26432299')
  })

  it('reads issue and volume ranges and roman-numbered pages (real MEDLINE values)', () => {
    // Acta Oncol 2001;40(2-3):175-84 and Emerg Med Clin North Am 1999;17(1):77-95, viii
    const oncol: CitationRecord = {
      id: '11441930',
      title: 'x',
      journal: { medlineTa: 'Acta Oncol' },
      year: 2001,
      volume: '40',
      issue: '2-3',
      pagination: '175-84',
    }
    const emerg: CitationRecord = {
      id: '10101342',
      title: 'y',
      journal: { medlineTa: 'Emerg Med Clin North Am' },
      year: 1999,
      volume: '17',
      issue: '1',
      pagination: '77-95, viii',
    }
    const both = create([oncol, emerg])
    expect(both.match('Acta Oncol. 2001;40(2-3):175-84')).toMatchObject({
      id: '11441930',
      matched: { issue: '2-3', page: '175-84' },
    })
    expect(both.match('Emerg Med Clin North Am. 1999;17(1):77-95, viii')?.id).toBe('10101342')
    // Gazz Int Med Chir 1963;68:SUPPL:4309: the supplement's page
    const gazz: CitationRecord = {
      id: '14177620',
      title: 'w',
      journal: { medlineTa: 'Gazz Int Med Chir' },
      year: 1963,
      volume: '68',
      pagination: 'SUPPL:4309',
    }
    expect(create([gazz]).match('Gazz Int Med Chir 1963;68:SUPPL:4309')?.matched).toMatchObject({
      page: 'SUPPL:4309',
    })
    // a roman numeral before any page is no page
    expect(both.match('Emerg Med Clin North Am 1999 17 viii')).toBeUndefined()
  })

  it('finds author year journal, with or without initials', () => {
    expect(matcher.match('saunders 1999 mol microbiol')?.matched).toEqual({
      author: 'Saunders NF',
      year: '1999',
      journal: 'mol microbiol',
    })
    expect(matcher.match('Saunders NF et al. Mol Microbiol 1999')?.id).toBe('10540283')
    expect(matcher.match('wirth w 1953 naunyn schmiedebergs arch exp pathol pharmakol')?.id).toBe(
      '13072632',
    )
    // initials that are not the first author's
    expect(matcher.match('saunders j 1999 mol microbiol')).toBeUndefined()
  })

  it('finds a title pasted whole, with or without its final period', () => {
    expect(matcher.match(SAUNDERS.title)).toEqual({
      id: '10540283',
      form: 'title',
      matched: { title: SAUNDERS.title },
    })
    expect(matcher.match(SAUNDERS.title.slice(0, -1))?.id).toBe('10540283')
    expect(
      matcher.match(
        'pharmacology of phosphoric acid esters diethylthiophosphoric acid ester of ethylthioglycol',
      )?.id,
    ).toBe('13072632')
    // MEDLINE's brackets around a translated title
    expect(matcher.match(WIRTH.title)?.id).toBe('13072632')
    expect(matcher.match('[Obesity, diet and exercise in adults].')).toBeUndefined()
  })

  it('leaves topical queries, partial citations and ambiguous ones alone', () => {
    // a title shorter than four words is an ordinary query
    expect(matcher.match('obesity')).toBeUndefined()
    // journal and year name the whole issue: two articles
    expect(matcher.match('Mol Microbiol 1999')).toBeUndefined()
    expect(matcher.match('Mol Microbiol 1999 34')).toBeUndefined()
    // a word that is no part of the citation
    expect(matcher.match('Mol Microbiol 1999 34 24 nitrite')).toBeUndefined()
    // a number that is no part of it
    expect(matcher.match('Mol Microbiol 1999 34 25')).toBeUndefined()
    // PubMed syntax is a search, not a citation
    expect(matcher.match('Mol Microbiol[ta] AND 34[vi] AND 24[pg]')).toBeUndefined()
    expect(matcher.match('nitrite reductase transcription regulation')).toBeUndefined()
  })
})

describe('citationRecordOf', () => {
  it('keeps the first personal author and the journal names', () => {
    const record = citationRecordOf({
      id: '7',
      version: 1,
      source: 'pubmed',
      title: 'A title.',
      abstract: [],
      otherAbstracts: [],
      languages: ['eng'],
      journal: {
        title: 'Nature',
        isoAbbreviation: 'Nature',
        medlineTa: 'Nature',
        volume: '409',
        issue: '6822',
      },
      pubDate: { year: 2001, month: 2 },
      history: [],
      pagination: '860-921',
      authors: [
        {
          collectiveName: 'International Human Genome Sequencing Consortium',
          affiliations: [],
          identifiers: [],
          valid: true,
        },
        { lastName: 'Lander', initials: 'ES', affiliations: [], identifiers: [], valid: true },
      ],
      authorListComplete: true,
      mesh: [],
      supplementaryConcepts: [],
      chemicals: [],
      keywords: [],
      publicationTypes: [],
      articleIds: [],
      commentsCorrections: [],
    })
    expect(record).toEqual({
      id: '7',
      title: 'A title.',
      journal: { title: 'Nature', isoAbbreviation: 'Nature', medlineTa: 'Nature' },
      year: 2001,
      volume: '409',
      issue: '6822',
      pagination: '860-921',
      firstAuthor: { lastName: 'Lander', initials: 'ES' },
    })
    expect(createCitationMatcher([record]).match('Nature 2001;409:860')?.id).toBe('7')
  })
})
