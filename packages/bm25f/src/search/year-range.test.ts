import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { EARLIEST_YEAR, LATEST_YEAR, parseYearRange, YEAR_RANGE_PATTERN } from './year-range.ts'

function failure(text: string): PubmatchError {
  try {
    parseYearRange(text)
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error(`"${text}" was accepted`)
}

describe('parseYearRange', () => {
  it('reads one year, a closed range and ranges open at either end (as PubMed 2015:3000[dp])', () => {
    expect(parseYearRange('2019')).toEqual([2019, 2019])
    expect(parseYearRange('2015:2020')).toEqual([2015, 2020])
    expect(parseYearRange('2015:2015')).toEqual([2015, 2015])
    expect(parseYearRange('2015:')).toEqual([2015, 9999])
    expect(parseYearRange(':2020')).toEqual([0, 2020])
    expect([EARLIEST_YEAR, LATEST_YEAR]).toEqual([0, 9999])
  })

  it('refuses anything else with INVALID_ARGUMENT naming the text', () => {
    for (const text of [
      '',
      ':',
      '15',
      '20150',
      '2015-2020',
      '2015 :2020',
      ' 2015',
      '2015:20',
      'x2015',
      '2015::2020',
      '2015:2020:',
    ]) {
      const error = failure(text)
      expect([text, error.code]).toEqual([text, 'INVALID_ARGUMENT'])
      expect(error.message).toBe(
        `cannot read the year range "${text.trim()}" (expected YYYY, YYYY:YYYY, YYYY: or :YYYY, as 2015, 2015:2020, 2015: or :2020)`,
      )
    }
  })

  it('refuses a range that starts after it ends', () => {
    const error = failure('2020:2015')
    expect([error.code, error.message]).toEqual([
      'INVALID_ARGUMENT',
      'the year range "2020:2015" starts after it ends (2020 > 2015)',
    ])
  })

  it('publishes its grammar as a pattern that accepts exactly what it reads', () => {
    const pattern = new RegExp(YEAR_RANGE_PATTERN)
    for (const text of ['2019', '2015:2020', '2015:', ':2020', '2020:2015']) {
      expect([text, pattern.test(text)]).toEqual([text, true])
    }
    for (const text of ['', ':', '15', '2015-2020', '2015:20']) {
      expect([text, pattern.test(text)]).toEqual([text, false])
    }
  })
})
