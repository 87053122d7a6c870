import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { dateLowerBound, dateTermBounds, dateUpperBound } from './dates.ts'

describe('dateLowerBound / dateUpperBound', () => {
  it('spans a year, a month or a day as sortable YYYYMMDD, unknown parts as 00 and 99', () => {
    expect([dateLowerBound('2015'), dateUpperBound('2015')]).toEqual([20150000, 20159999])
    expect([dateLowerBound('2015/3'), dateUpperBound('2015/03')]).toEqual([20150300, 20150399])
    expect([dateLowerBound('2015/03/14'), dateUpperBound('2015/3/14')]).toEqual([
      20150314, 20150314,
    ])
    // PubMed's 00 month/day and 3000 "no upper bound", as in real log queries.
    expect([dateLowerBound('2002/00/00'), dateUpperBound('3000')]).toEqual([20020000, 30009999])
  })

  it('rejects what is not a PubMed date', () => {
    for (const text of ['15', '2015-03', '2015/13', '2015/01/32', 'May 2015']) {
      let error: unknown
      try {
        dateLowerBound(text)
      } catch (caught) {
        error = caught
      }
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    }
  })
})

describe('dateTermBounds', () => {
  it('reads a single date as its whole span', () => {
    expect(dateTermBounds('2001')).toEqual({ from: 20010000, to: 20019999 })
  })

  it('reads "last N years|months|days" back from now (UTC)', () => {
    const now = new Date(Date.UTC(2024, 1, 29)) // 2024-02-29
    expect(dateTermBounds('last 5 years', now)).toEqual({ from: 20190301, to: 20240229 })
    expect(dateTermBounds('Last 1 month', now)).toEqual({ from: 20240129, to: 20240229 })
    expect(dateTermBounds('last 30 days', now)).toEqual({ from: 20240130, to: 20240229 })
  })
})
