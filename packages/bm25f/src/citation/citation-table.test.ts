import fc from 'fast-check'
import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { createCitationMatcher, type CitationRecord } from './citation.ts'
import { encodeCitationTable, openCitationTable, openCitationTableInSteps } from './citation-table.ts'

// small pools, so that records share journals, years, volumes, pages, authors and titles
const JOURNALS = [
  {
    title: 'Molecular microbiology.',
    isoAbbreviation: 'Mol. Microbiol.',
    medlineTa: 'Mol Microbiol',
  },
  { title: 'The Lancet (London, England)', medlineTa: 'Lancet' },
  { title: 'Microbiology : official journal', isoAbbreviation: 'Microbiology' },
  { medlineTa: 'Acta Oncol' },
  { title: 'Archiv für Pathologie & Pharmakologie', medlineTa: 'Arch Pathol' },
  { medlineTa: 'Mol Microbiol' },
  {},
] as const
const WORDS = ['gene', 'cluster', 'nitrite', 'reductase', 'obesity', 'lancet', 'smith', 'é']
const NAMES = [
  { lastName: 'Smith', initials: 'J' },
  { lastName: 'Smith', initials: 'JA' },
  { lastName: 'van der Berg', initials: 'P' },
  { lastName: 'Lancet' },
  { lastName: '' },
]
const VOLUMES = ['34', '25-26', '12 Suppl 2', 'A', '1']
const PAGES = ['24-36', '24-9', 'e14', '77-95, viii', 'SUPPL:4309', 'xii', '1']

const record: fc.Arbitrary<Omit<CitationRecord, 'id'>> = fc.record(
  {
    title: fc
      .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
      .map((w) => w.join(' ')),
    journal: fc.constantFrom(...JOURNALS),
    year: fc.constantFrom(1999, 2001, 1),
    volume: fc.constantFrom(...VOLUMES),
    issue: fc.constantFrom(...VOLUMES),
    pagination: fc.constantFrom(...PAGES),
    firstAuthor: fc.constantFrom(...NAMES),
  },
  { requiredKeys: ['title'] },
)

const records: fc.Arbitrary<CitationRecord[]> = fc
  .array(record, { maxLength: 40 })
  .map((list) => list.map((r, i) => ({ id: String(i + 1), ...r })))

/** Queries made of the records' own parts, in the forms people type, and stray words and numbers. */
function queries(list: readonly CitationRecord[]): fc.Arbitrary<string[]> {
  const parts = list.flatMap((r) => [
    r.title,
    r.journal?.medlineTa,
    r.journal?.title,
    r.journal?.isoAbbreviation,
    r.year === undefined ? undefined : String(r.year),
    r.volume,
    r.issue,
    r.pagination,
    r.firstAuthor?.lastName,
    r.firstAuthor?.initials,
  ])
  const pool = [
    ...parts.filter((p): p is string => p !== undefined && p !== ''),
    ...WORDS,
    '24',
    '36',
    '2',
    'et al',
    'AND',
    'vol',
  ]
  const query = fc
    .array(fc.constantFrom(...pool), { minLength: 1, maxLength: 6 })
    .chain((words) =>
      fc.constantFrom(words.join(' '), words.join('; '), words.join(':'), words.join('.')),
    )
  return fc.array(query, { minLength: 1, maxLength: 20 })
}

describe('openCitationTable', () => {
  it('matches as createCitationMatcher over the same records', () => {
    fc.assert(
      fc.property(
        records.chain((list) => fc.tuple(fc.constant(list), queries(list))),
        ([list, qs]) => {
          const reference = createCitationMatcher(list)
          const table = openCitationTable(encodeCitationTable(list))
          expect(table.size).toBe(reference.size)
          for (const query of [...qs, ...list.map((r) => r.title)]) {
            expect(table.match(query), query).toEqual(reference.match(query))
            expect(table.journal(query), query).toEqual(reference.journal(query))
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps its tag, and reads a table that is not 4-byte aligned', () => {
    const bytes = encodeCitationTable(
      [
        {
          id: '7',
          title: 'A title of four words.',
          journal: { medlineTa: 'Nature' },
          year: 2001,
          volume: '409',
          pagination: '860-921',
        },
      ],
      { tag: 'corpus abc, generation 3' },
    )
    const shifted = new Uint8Array(bytes.length + 1).subarray(1)
    shifted.set(bytes)
    for (const table of [openCitationTable(bytes), openCitationTable(shifted)]) {
      expect(table.tag).toBe('corpus abc, generation 3')
      expect(table.match('Nature 2001;409:860')?.id).toBe('7')
      expect(table.match('a title of four words')?.id).toBe('7')
      expect(table.journal('nature')).toBe('Nature')
    }
    expect(openCitationTable(encodeCitationTable([])).tag).toBeUndefined()
  })

  it('refuses damaged bytes with INDEX_CORRUPTED', () => {
    const bytes = encodeCitationTable([
      { id: '7', title: 'x', journal: { medlineTa: 'Nature' }, year: 2001, volume: '409' },
    ])
    const damaged = (change: (b: Uint8Array) => Uint8Array): unknown => {
      try {
        openCitationTable(change(bytes.slice()))
        return undefined
      } catch (error) {
        return error
      }
    }
    const isCorrupted = (error: unknown): boolean => isPubmatchError(error, 'INDEX_CORRUPTED')
    expect(isCorrupted(damaged((b) => b.subarray(0, b.length - 4)))).toBe(true)
    expect(isCorrupted(damaged((b) => b.subarray(0, 10)))).toBe(true)
    expect(
      isCorrupted(
        damaged((b) => {
          b[0] = 0
          return b
        }),
      ),
    ).toBe(true)
    // the first string's end offset (word 13) beyond the strings
    expect(
      isCorrupted(
        damaged((b) => {
          new DataView(b.buffer).setUint32(13 * 4, 1_000_000, true)
          return b
        }),
      ),
    ).toBe(true)
  })
})

describe('openCitationTableInSteps', () => {
  // 20,000 records: 220,000 column entries and as many strings, checked over several steps
  const many = Array.from({ length: 20_000 }, (_, i) => ({
    id: String(1000 + i),
    title: `Record number ${i} of the large table.`,
    journal: { medlineTa: `Journal ${i % 50}` },
    year: 1990 + (i % 30),
    volume: String(i % 70),
    pagination: `${i}-${i + 9}`,
  }))
  const bytes = encodeCitationTable(many, { tag: 'many' })

  it('opens the table openCitationTable opens, pausing between its steps', async () => {
    let pauses = 0
    const table = await openCitationTableInSteps(bytes, () => {
      pauses++
      return Promise.resolve()
    })
    // the records' 220,000 column entries alone are checked in steps of 5,957 records (65,536 entries)
    expect(pauses).toBeGreaterThanOrEqual(3)
    const whole = openCitationTable(bytes)
    expect(table.tag).toBe('many')
    expect(table.size).toBe(whole.size)
    for (const query of ['Journal 7 1997;7:7', 'record number 12345 of the large table', 'journal 3']) {
      expect(table.match(query)).toEqual(whole.match(query))
      expect(table.journal(query)).toEqual(whole.journal(query))
    }
    expect(table.match('Record number 12345 of the large table.')?.id).toBe('13345')
  })

  it('refuses damaged bytes as openCitationTable does', async () => {
    const damaged = bytes.slice()
    // record 15,000's third column naming a string beyond the table's (the columns follow the
    // 12 header words and the string offsets)
    const view = new DataView(damaged.buffer)
    const stringCount = view.getUint32(4 * 4, true)
    const columnsAt = (12 + stringCount + 1) * 4
    view.setUint32(columnsAt + (15_000 * 11 + 2) * 4, stringCount + 5, true)
    const inSteps = await openCitationTableInSteps(damaged, () => Promise.resolve()).catch((error: unknown) => error)
    const whole = (() => {
      try {
        return openCitationTable(damaged)
      } catch (error) {
        return error
      }
    })()
    expect(isPubmatchError(inSteps, 'INDEX_CORRUPTED')).toBe(true)
    expect((inSteps as Error).message).toBe((whole as Error).message)
    expect((inSteps as Error).message).toMatch(/record 15000 names string/)
  })
})
