import { describe, expect, it } from 'vitest'
import { abstractText, articleId, articleYear, emptyArticle } from './article.ts'

describe('article helpers', () => {
  it('prefers the issue year over the electronic year', () => {
    expect(articleYear({ pubDate: { year: 2001 }, electronicDate: { year: 2000 } })).toBe(2001)
    expect(articleYear({ electronicDate: { year: 2000 } })).toBe(2000)
    expect(articleYear({})).toBeUndefined()
  })

  it('joins abstract sections, optionally with labels', () => {
    const a = { abstract: [{ label: 'BACKGROUND', text: 'One.' }, { text: 'Two.' }] }
    expect(abstractText(a)).toBe('One. Two.')
    expect(abstractText(a, true)).toBe('BACKGROUND: One. Two.')
  })

  it('finds ids case-insensitively', () => {
    const a = { ...emptyArticle('1'), articleIds: [{ type: 'doi', value: '10.1/x' }] }
    expect(articleId(a, 'DOI')).toBe('10.1/x')
    expect(articleId(a, 'pmc')).toBeUndefined()
  })
})
