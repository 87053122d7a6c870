import { describe, expect, it } from 'vitest'
import { parseXmlDocument } from '../xml/records.ts'
import { parseMedlineDate, parseMonth, parsePartialDate } from './dates.ts'

const date = (xml: string) => parsePartialDate(parseXmlDocument(xml).root)

describe('parseMonth', () => {
  it('reads numbers and English names', () => {
    expect(parseMonth('01')).toBe(1)
    expect(parseMonth('7')).toBe(7)
    expect(parseMonth('Dec')).toBe(12)
    expect(parseMonth('September')).toBe(9)
    expect(parseMonth('Sept')).toBe(9)
    expect(parseMonth('13')).toBeUndefined()
    expect(parseMonth('Spring')).toBeUndefined()
    expect(parseMonth(undefined)).toBeUndefined()
  })
})

describe('parseMedlineDate', () => {
  it('takes the first year and month and keeps the raw text', () => {
    expect(parseMedlineDate('1998 Dec-1999 Jan')).toEqual({
      medlineDate: '1998 Dec-1999 Jan',
      year: 1998,
      month: 12,
    })
    expect(parseMedlineDate('2015 Oct-Dec')).toEqual({
      medlineDate: '2015 Oct-Dec',
      year: 2015,
      month: 10,
    })
    expect(parseMedlineDate('1977-1978')).toEqual({ medlineDate: '1977-1978', year: 1977 })
  })

  it('takes a day that follows the month and names a season', () => {
    expect(parseMedlineDate('2004 Jun 1-15')).toEqual({
      medlineDate: '2004 Jun 1-15',
      year: 2004,
      month: 6,
      day: 1,
    })
    expect(parseMedlineDate('2000 Spring-Summer')).toEqual({
      medlineDate: '2000 Spring-Summer',
      year: 2000,
      season: 'Spring',
    })
  })
})

describe('parsePartialDate', () => {
  it('reads Year/Month/Day with month names or numbers', () => {
    expect(date('<PubDate><Year>2023</Year><Month>Feb</Month></PubDate>')).toEqual({
      year: 2023,
      month: 2,
    })
    expect(date('<D><Year>2022</Year><Month>11</Month><Day>22</Day></D>')).toEqual({
      year: 2022,
      month: 11,
      day: 22,
    })
  })

  it('keeps a Season and gives the first month of a month range written as a season', () => {
    expect(date('<PubDate><Year>2003</Year><Season>Fall</Season></PubDate>')).toEqual({
      year: 2003,
      season: 'Fall',
    })
    expect(date('<PubDate><Year>2001</Year><Season>May-Jun</Season></PubDate>')).toEqual({
      year: 2001,
      month: 5,
      season: 'May-Jun',
    })
  })

  it('prefers a MedlineDate and gives undefined for an empty element', () => {
    expect(date('<PubDate><MedlineDate>1978 Jul-Sep</MedlineDate></PubDate>')).toEqual({
      medlineDate: '1978 Jul-Sep',
      year: 1978,
      month: 7,
    })
    expect(date('<PubDate/>')).toBeUndefined()
    expect(parsePartialDate(undefined)).toBeUndefined()
  })
})
