import { emptyArticle } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { defaultStoredDocument } from './pubmed-fields.ts'

describe('the stored record of an article derived from a PMC full text', () => {
  it('says so (derivedFrom), while a citation’s record has no such key', () => {
    const derived = {
      ...emptyArticle('PMC11500582', 'pmc'),
      title: 'Identification of a novel Golgi-localized putative glycosyltransferase protein in Arabidopsis thaliana',
      articleIds: [{ type: 'pmc', value: 'PMC11500582' }],
      derivedFrom: 'bioc' as const,
    }
    expect(defaultStoredDocument(derived)).toEqual({
      id: 'PMC11500582',
      title: derived.title,
      authors: [],
      authorCount: 0,
      pubTypes: [],
      languages: [],
      pmcid: 'PMC11500582',
      derivedFrom: 'bioc',
    })
    expect(Object.keys(defaultStoredDocument(emptyArticle('1')))).not.toContain('derivedFrom')
  })
})
