import { describe, expect, it } from 'vitest'
import { lowercaseFilter } from './lowercase.ts'

describe('lowercaseFilter', () => {
  it('lower-cases the term and keeps the surface form in original', () => {
    expect(lowercaseFilter({ term: 'BRCA1', position: 3 })).toEqual({
      term: 'brca1',
      position: 3,
      original: 'BRCA1',
    })
    expect(lowercaseFilter({ term: 'ΤΝF', position: 0, original: 'ΤΝF' })).toEqual({
      term: 'τνf',
      position: 0,
      original: 'ΤΝF',
    })
  })

  it('returns the same token when the term is already lower-case', () => {
    const token = { term: 'cox2', position: 0, original: 'cox2' }
    expect(lowercaseFilter(token)).toBe(token)
  })
})
