import { describe, expect, it } from 'vitest'
import { render } from '../../test/render.ts'
import { createAnalyzer } from '../analyzer.ts'
import { PUBMED_STOPWORDS } from '../stopwords/pubmed-stopwords.ts'
import { whitespaceTokenize } from '../tokenizer/whitespace-tokenizer.ts'
import { createStopwordFilter } from './stopwords.ts'

describe('PUBMED_STOPWORDS', () => {
  it("is NCBI's list of 133 distinct lower-case words in NCBI's (alphabetical) order", () => {
    expect(PUBMED_STOPWORDS).toHaveLength(133)
    expect(new Set(PUBMED_STOPWORDS).size).toBe(133)
    expect([...PUBMED_STOPWORDS].sort()).toEqual(PUBMED_STOPWORDS)
    expect(PUBMED_STOPWORDS.slice(0, 5)).toEqual(['a', 'about', 'again', 'all', 'almost'])
    expect(PUBMED_STOPWORDS.slice(-4)).toEqual(['with', 'within', 'without', 'would'])
    for (const word of [
      'pmid',
      'significantly',
      'kg',
      'km',
      'mg',
      'ml',
      'mm',
      'etc',
      'i',
      'obtained',
    ]) {
      expect(PUBMED_STOPWORDS).toContain(word)
    }
    // Common stop words that are NOT on PubMed's list.
    for (const word of ['not', 'or', 'he', 'she', 'you', 'will', 'more', 'other']) {
      expect(PUBMED_STOPWORDS).not.toContain(word)
    }
  })

  it('is frozen', () => {
    expect(Object.isFrozen(PUBMED_STOPWORDS)).toBe(true)
  })
})

describe('createStopwordFilter', () => {
  it('drops PubMed stop words and leaves their positions empty', () => {
    const analyzer = createAnalyzer('t', whitespaceTokenize, [createStopwordFilter()])
    expect(
      render(analyzer.analyze('the effect of 5 mg aspirin was not significantly different')),
    ).toEqual(['effect@1', '5@3', 'aspirin@5', 'not@7', 'different@9'])
  })

  it('uses a custom list when given one', () => {
    const filter = createStopwordFilter(['not'])
    expect(filter({ term: 'not', position: 0 })).toBeNull()
    const token = { term: 'the', position: 1 }
    expect(filter(token)).toBe(token)
  })
})
