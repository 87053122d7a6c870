import { emptyArticle } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { createAnalyzer } from './analyzer.ts'
import { getAnalyzer } from './registry.ts'
import { createTokenStreamer, TOKEN_DEFINITE, TOKEN_INDEFINITE, TOKEN_STOPWORD, tokenFlags, tokenStreamTexts } from './token-stream.ts'
import { whitespaceTokenize } from './tokenizer/whitespace-tokenizer.ts'

const stream = (analyzer: Parameters<typeof createTokenStreamer>[0], text: string): Array<[string | null, number]> => {
  const out: Array<[string | null, number]> = []
  createTokenStreamer(analyzer).tokens(text, (term, flags) => out.push([term, flags]))
  return out
}

describe('createTokenStreamer', () => {
  it('keeps the stop words of a biomedical index in place, without a term, and skips joined compounds', () => {
    expect(createTokenStreamer(getAnalyzer('biomedical')).tokenAnalyzer).toBe('biomedical:nostop')
    // The → 1 | 4 (no term); COX-2 → cox, 2 (the joined cox2 is skipped); of → 1; a → 1 | 2; Porter2 stems
    expect(stream(getAnalyzer('biomedical'), 'The role of COX-2 in a tumour')).toEqual([
      [null, 5], ['role', 0], [null, 1], ['cox', 0], ['2', 0], [null, 1], [null, 3], ['tumour', 0],
    ])
  })

  it('gives every word its term when the index keeps stop words (whitespace)', () => {
    expect(stream(getAnalyzer('whitespace'), 'The effect of diet')).toEqual([['The', 5], ['effect', 0], ['of', 1], ['diet', 0]])
  })

  it('fills the positions a custom analyzer leaves empty with stop words without a term', () => {
    const dropOf = createAnalyzer('custom-drop-of', whitespaceTokenize, [(t) => (t.term === 'of' ? null : t)])
    expect(stream(dropOf, 'effect of of diet')).toEqual([['effect', 0], [null, 1], [null, 1], ['diet', 0]])
  })
})

describe('tokenFlags', () => {
  it('flags PubMed stop words, a/an and the, case-insensitively', () => {
    expect([tokenFlags('The'), tokenFlags('AN'), tokenFlags('of'), tokenFlags('diet')]).toEqual([
      TOKEN_STOPWORD | TOKEN_DEFINITE,
      TOKEN_STOPWORD | TOKEN_INDEFINITE,
      TOKEN_STOPWORD,
      0,
    ])
  })
})

describe('tokenStreamTexts', () => {
  it('takes the title, the abstract sections joined by spaces and the MeSH descriptor names', () => {
    const article = {
      ...emptyArticle('1', 'pubmed'),
      title: 'T',
      abstract: [{ label: 'A', text: 'one.' }, { text: 'two.' }],
      mesh: [{ descriptorName: 'Cats', majorTopic: true, qualifiers: [] }],
    }
    expect(tokenStreamTexts(article)).toEqual({ title: 'T', abstract: 'one. two.', mesh: ['Cats'] })
  })
})
