import { describe, expect, it } from 'vitest'
import { createStemFilter } from './stem.ts'

// A stand-in stemmer whose effect is obvious: strip one trailing "s".
const calls: string[] = []
const stripS = (word: string): string => {
  calls.push(word)
  return word.endsWith('s') ? word.slice(0, -1) : word
}

describe('createStemFilter', () => {
  it('stems lower-case ASCII words with the injected stemmer and keeps the unstemmed original', () => {
    const filter = createStemFilter(stripS)
    expect(filter({ term: 'cells', position: 4, original: 'cells' })).toEqual({
      term: 'cell',
      position: 4,
      original: 'cells',
    })
    expect(filter({ term: 'genes', position: 0 })).toEqual({
      term: 'gene',
      position: 0,
      original: 'genes',
    })
  })

  it('leaves numbers, alphanumerics, short words and other scripts to pass unchanged', () => {
    calls.length = 0
    const filter = createStemFilter(stripS)
    for (const term of ['cox2s', '2.5s', 'is', 'CELLS', 'клетках', 'tnf-s']) {
      const token = { term, position: 0, original: term }
      expect(filter(token)).toBe(token)
    }
    expect(calls).toEqual([])
  })

  it('returns the same token when the stem equals the term and original is set', () => {
    const filter = createStemFilter(stripS)
    const token = { term: 'cell', position: 0, original: 'cell' }
    expect(filter(token)).toBe(token)
    expect(filter({ term: 'cell', position: 0 })).toEqual({
      term: 'cell',
      position: 0,
      original: 'cell',
    })
  })

  it('honours minLength', () => {
    const filter = createStemFilter(stripS, { minLength: 6 })
    expect(filter({ term: 'cells', position: 0 })?.term).toBe('cells')
    expect(filter({ term: 'tumors', position: 0 })?.term).toBe('tumor')
    expect(() => createStemFilter(stripS, { minLength: -1 })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: minLength must be a non-negative integer, got -1]`,
    )
  })
})
