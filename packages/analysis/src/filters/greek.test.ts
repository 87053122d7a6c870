import { describe, expect, it } from 'vitest'
import { GREEK_LETTER_NAMES } from '../greek-letters.ts'
import { greekFilter, spellGreekLetters } from './greek.ts'

describe('spellGreekLetters', () => {
  it('spells out all 24 small and capital letters in alphabet order', () => {
    const small = 'αβγδεζηθικλμνξοπρστυφχψω'
    const capital = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ'
    expect([...small].map(spellGreekLetters)).toEqual(GREEK_LETTER_NAMES)
    expect([...capital].map(spellGreekLetters)).toEqual(GREEK_LETTER_NAMES)
    expect(GREEK_LETTER_NAMES).toHaveLength(24)
  })

  it('handles final sigma and the symbol variants', () => {
    expect(spellGreekLetters('ς')).toBe('sigma')
    expect(['ϐ', 'ϑ', 'ϕ', 'ϖ', 'ϰ', 'ϱ', 'ϵ'].map(spellGreekLetters)).toEqual([
      'beta',
      'theta',
      'phi',
      'pi',
      'kappa',
      'rho',
      'epsilon',
    ])
  })

  it('replaces letters inside terms and leaves spelled-out names alone', () => {
    expect(spellGreekLetters('il1β')).toBe('il1beta')
    expect(spellGreekLetters('nfκb')).toBe('nfkappab')
    expect(spellGreekLetters('αvβ3')).toBe('alphavbeta3')
    expect(spellGreekLetters('alpha')).toBe('alpha')
    expect(spellGreekLetters('tnfalpha')).toBe('tnfalpha')
  })

  it('reads μ before a unit as the micro prefix u, elsewhere as mu', () => {
    expect(['μg', 'µg', '5μm', 'μmol', 'μ', 'μopioid', 'μg2'].map(spellGreekLetters)).toEqual([
      'ug',
      'ug',
      '5um',
      'umol',
      'mu',
      'muopioid',
      'ug2',
    ])
  })
})

describe('greekFilter', () => {
  it('rewrites the term and keeps the Greek form in original', () => {
    expect(
      greekFilter({ term: 'tnfα', position: 0, original: 'tnf-α', positionLength: 2 }),
    ).toEqual({
      term: 'tnfalpha',
      position: 0,
      original: 'tnf-α',
      positionLength: 2,
    })
  })

  it('returns the same token when there is no Greek letter', () => {
    const token = { term: 'beta', position: 1, original: 'beta' }
    expect(greekFilter(token)).toBe(token)
  })
})
