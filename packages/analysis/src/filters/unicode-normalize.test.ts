import { describe, expect, it } from 'vitest'
import { unicodeNormalizeFilter } from './unicode-normalize.ts'

describe('unicodeNormalizeFilter', () => {
  it('normalises the term like normalizeText', () => {
    expect(unicodeNormalizeFilter({ term: 'Naïve', position: 2, original: 'Naïve' })).toEqual({
      term: 'naive',
      position: 2,
      original: 'Naïve',
    })
    expect(unicodeNormalizeFilter({ term: 'ﬁbrosis', position: 0 })?.term).toBe('fibrosis')
  })

  it('returns the same token when nothing changes', () => {
    const token = { term: 'naive', position: 0, original: 'naive' }
    expect(unicodeNormalizeFilter(token)).toBe(token)
  })
})
