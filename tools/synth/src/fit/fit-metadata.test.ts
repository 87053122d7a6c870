import { describe, expect, it } from 'vitest'
import { pageCount, splitAffiliation, tally } from './fit-metadata.ts'

describe('splitAffiliation', () => {
  it('splits a leading department off and removes e-mail addresses', () => {
    // Real affiliations of medline16n0902.xml.gz.
    expect(
      splitAffiliation(
        'Department of Surgery, Washington University School of Medicine, St. Louis, Missouri 63110, USA.',
      ),
    ).toEqual({
      department: 'Department of Surgery',
      site: 'Washington University School of Medicine, St. Louis, Missouri 63110, USA.',
    })
    expect(
      splitAffiliation(
        'Massachusetts General Hospital Cancer Center, Boston, MA, USA. ashaw1@partners.org',
      ),
    ).toEqual({ site: 'Massachusetts General Hospital Cancer Center, Boston, MA, USA.' })
  })
})

describe('pageCount', () => {
  it('expands MEDLINE page ranges', () => {
    expect(pageCount('195-210')).toBe(16)
    expect(pageCount('332-40')).toBe(9)
    expect(pageCount('4935-43')).toBe(9)
    expect(pageCount('221-8')).toBe(8)
    expect(pageCount('10')).toBe(1)
    expect(pageCount('99ra86')).toBeUndefined()
    expect(pageCount('e9-18')).toBeUndefined()
  })
})

describe('tally', () => {
  it('counts by key, most frequent first', () => {
    const t = tally(['b', 'a', 'b', 'c', 'b', 'a'], (x) => x)
    expect(t.keys).toEqual(['b', 'a', 'c'])
    expect(t.weights).toEqual([3, 2, 1])
  })
})
