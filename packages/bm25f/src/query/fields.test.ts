import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sharedDataPath } from '@pubmatch/core/testing'
import { describe, expect, it } from 'vitest'
import { PUBMED_FIELDS, fieldInfo, isDateField, isProximityField, lookupField } from './fields.ts'

/** The `<Field>` entries of a real EInfo response for PubMed. */
const einfoFields = (file: string): { name: string; fullName: string; isDate: boolean }[] => {
  const list = readFileSync(file, 'utf8').split('<FieldList>')[1]?.split('</FieldList>')[0] ?? ''
  return [...list.matchAll(/<Field>([\s\S]*?)<\/Field>/g)].map(([, body = '']) => ({
    name: /<Name>(.*?)<\/Name>/.exec(body)?.[1] ?? '',
    fullName: /<FullName>(.*?)<\/FullName>/.exec(body)?.[1] ?? '',
    isDate: /<IsDate>Y<\/IsDate>/.test(body),
  }))
}

/** The resolution of every field of a real EInfo response. */
const expectEveryFieldResolved = (file: string): void => {
  const fields = einfoFields(file)
  expect(fields.length).toBeGreaterThanOrEqual(45)
  for (const { name, fullName, isDate } of fields) {
    const byName = lookupField(name)
    expect(byName, name).toBeDefined()
    expect(lookupField(fullName), fullName).toBeDefined()
    expect(byName?.date, name).toBe(isDate)
  }
}

/** The 2014 and 2017 EInfo responses of the real data set (2025's is committed). */
const EINFO_FILES = ['biopython/einfo3.xml', 'klortho/einfo.pubmed.xml']

describe('lookupField', () => {
  it('resolves every field Name and FullName of the real 2025 EInfo response (committed einfo2.xml)', () => {
    expectEveryFieldResolved(
      fileURLToPath(new URL('../../test/fixtures/eutils/einfo2.xml', import.meta.url)),
    )
  })

  it.each(EINFO_FILES)(
    'resolves every field Name and FullName of the real EInfo response %s',
    { tags: ['real-data'] },
    (path) => {
      expectEveryFieldResolved(sharedDataPath('eutils', path))
    },
  )

  it('maps EInfo names and the PubMed spellings to the same field', () => {
    const pairs: [string, string][] = [
      ['TIAB', 'tiab'],
      ['Title/Abstract', 'tiab'],
      ['PDAT', 'dp'],
      ['Date - Publication', 'dp'],
      ['Publication Date', 'dp'],
      ['EDAT', 'edat'],
      ['Entrez Date', 'edat'],
      ['Date - Entrez', 'edat'],
      ['FAUT', '1au'],
      ['First Author', '1au'],
      ['AUTH', 'au'],
      ['JOUR', 'ta'],
      ['MESH', 'mh'],
      ['MeSH Terms', 'mh'],
      ['SUBH', 'sh'],
      ['PTYP', 'pt'],
      ['UID', 'pmid'],
      ['WORD', 'tw'],
      ['FILT', 'filter'],
      ['sb', 'filter'],
      ['ECNO', 'rn'],
    ]
    for (const [name, tag] of pairs) {
      expect(lookupField(name)?.tag, name).toBe(tag)
    }
  })

  it('ignores case and extra spaces, and knows no made-up tags', () => {
    expect(lookupField('  mesh   TERMS ')?.tag).toBe('mh')
    expect(lookupField('tm')).toBeUndefined()
    expect(lookupField('')).toBeUndefined()
  })

  it('gives every field a distinct canonical tag', () => {
    const tags = PUBMED_FIELDS.map((info) => info.tag)
    expect(new Set(tags).size).toBe(tags.length)
    for (const info of PUBMED_FIELDS) {
      expect(fieldInfo(info.tag)).toBe(info)
    }
  })
})

describe('isDateField / isProximityField', () => {
  it('marks date and proximity fields', () => {
    expect(isDateField('dp')).toBe(true)
    expect(isDateField('crdt')).toBe(true)
    expect(isDateField('tiab')).toBe(false)
    expect(
      ['ti', 'tiab', 'ab', 'ad', 'tw', 'mh'].map((tag) => isProximityField(tag as 'ti')),
    ).toEqual([true, true, true, true, false, false])
  })
})
