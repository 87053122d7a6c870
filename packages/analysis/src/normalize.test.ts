import { describe, expect, it } from 'vitest'
import { normalizeText } from './normalize.ts'

describe('normalizeText', () => {
  it('only lower-cases ASCII text', () => {
    expect(normalizeText('COX-2 Inhibitors (n=12)')).toBe('cox-2 inhibitors (n=12)')
  })

  it('applies NFKC: full-width forms, ligatures, superscripts, the micro sign', () => {
    expect(normalizeText('ＣＯＸ－２')).toBe('cox-2')
    expect(normalizeText('ﬁbrosis')).toBe('fibrosis')
    expect(normalizeText('m² Ca²⁺')).toBe('m2 ca2+')
    // U+00B5 MICRO SIGN becomes U+03BC GREEK SMALL LETTER MU.
    expect(normalizeText('5 \u00b5g')).toBe('5 \u03bcg')
  })

  it('removes diacritics and folds letters without a decomposition', () => {
    expect(normalizeText('Naïve Café Ångström Ærøskøbing Straße Łódź')).toBe(
      'naive cafe angstrom aeroskobing strasse lodz',
    )
    // Greek tonos goes too; the letters stay Greek.
    expect(normalizeText('Άλφα')).toBe('αλφα')
  })

  it('lower-cases capitals that compatibility decomposition produces', () => {
    expect(normalizeText('37 \u2103')).toBe('37 °c')
  })

  it('turns ©, ® and ™ into spaces so that they do not glue to the word', () => {
    expect(normalizeText('Prozac™ and Zoloft®')).toBe('prozac  and zoloft ')
  })
})
