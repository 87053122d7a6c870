import { PubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { filtersOf } from './search.ts'

describe('filtersOf (--year, --pt, --la)', () => {
  it('reads --year with the one grammar the server also takes: YYYY, YYYY:YYYY, YYYY: and :YYYY', () => {
    const flags = { pt: [], la: [] }
    expect(filtersOf({ ...flags, year: '2019' })).toEqual({ years: [2019, 2019] })
    expect(filtersOf({ ...flags, year: '2015:2020' })).toEqual({ years: [2015, 2020] })
    expect(filtersOf({ ...flags, year: '2015:' })).toEqual({ years: [2015, 9999] })
    expect(filtersOf({ ...flags, year: ':2020' })).toEqual({ years: [0, 2020] })
    expect(filtersOf(flags)).toBeUndefined()
    expect(filtersOf({ pt: ['Review'], la: ['eng'] })).toEqual({ publicationTypes: ['Review'], languages: ['eng'] })
  })

  it('refuses another form with INVALID_ARGUMENT naming the text', () => {
    expect(() => filtersOf({ pt: [], la: [], year: '2015-2020' })).toThrow(
      new PubmatchError(
        'INVALID_ARGUMENT',
        'cannot read the year range "2015-2020" (expected YYYY, YYYY:YYYY, YYYY: or :YYYY, as 2015, 2015:2020, 2015: or :2020)',
        {
          details: { value: '2015-2020' },
        },
      ),
    )
    expect(() => filtersOf({ pt: [], la: [], year: '2020:2015' })).toThrow('the year range "2020:2015" starts after it ends (2020 > 2015)')
  })
})
