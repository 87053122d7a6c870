import { describe, expect, it } from 'vitest'
import {
  createAnalyzer,
  isJoinedToken,
  phraseTokens,
  textTerms,
  withTerm,
  type AnalyzedToken,
  type TokenFilter,
} from './analyzer.ts'
import { whitespaceTokenize } from './tokenizer/whitespace-tokenizer.ts'

const upper: TokenFilter = (token) => withTerm(token, token.term.toUpperCase())
const dropShort: TokenFilter = (token) => (token.term.length < 3 ? null : token)

describe('createAnalyzer', () => {
  it('applies the filters left to right and drops tokens a filter returns null for', () => {
    const seen: string[] = []
    const spy: TokenFilter = (token) => {
      seen.push(token.term)
      return token
    }
    const analyzer = createAnalyzer('test', whitespaceTokenize, [dropShort, spy, upper])
    expect(analyzer.analyze('an old cat')).toEqual([
      { term: 'OLD', position: 1, original: 'old' },
      { term: 'CAT', position: 2, original: 'cat' },
    ])
    // The spy runs after dropShort, so it never sees "an".
    expect(seen).toEqual(['old', 'cat'])
  })

  it('returns the tokenizer output when there are no filters', () => {
    const analyzer = createAnalyzer('plain', whitespaceTokenize, [])
    expect(analyzer.name).toBe('plain')
    expect(analyzer.analyze(' a  b ')).toEqual([
      { term: 'a', position: 0, original: 'a' },
      { term: 'b', position: 1, original: 'b' },
    ])
  })

  it('rejects an empty name', () => {
    expect(() => createAnalyzer('', whitespaceTokenize, [])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: an analyzer needs a non-empty name]`,
    )
  })
})

describe('withTerm', () => {
  it('keeps position, original and positionLength', () => {
    const joined: AnalyzedToken = {
      term: 'cox2',
      position: 4,
      original: 'cox-2',
      positionLength: 2,
    }
    expect(withTerm(joined, 'x')).toEqual({
      term: 'x',
      position: 4,
      original: 'cox-2',
      positionLength: 2,
    })
    expect(withTerm({ term: 'run', position: 1 }, 'x')).toEqual({
      term: 'x',
      position: 1,
      original: 'run',
    })
  })
})

describe('phraseTokens', () => {
  it('keeps the one-position tokens and drops joined forms', () => {
    const tokens: AnalyzedToken[] = [
      { term: 'cox2', position: 0, original: 'cox-2', positionLength: 2 },
      { term: 'cox', position: 0, original: 'cox' },
      { term: '2', position: 1, original: '2' },
    ]
    expect(tokens.map(isJoinedToken)).toEqual([true, false, false])
    expect(phraseTokens(tokens).map((t) => t.term)).toEqual(['cox', '2'])
  })
})

describe('textTerms', () => {
  it('keeps every one-position term in order, duplicates too, and drops joined forms', () => {
    const analyzer = createAnalyzer('test', () => [
      { term: 'cox2', position: 0, original: 'cox-2', positionLength: 2 },
      { term: 'cox', position: 0, original: 'cox' },
      { term: '2', position: 1, original: '2' },
      { term: 'cox', position: 2, original: 'cox' },
    ], [])
    expect(textTerms(analyzer, 'cox-2 cox')).toEqual(['cox', '2', 'cox'])
  })
})
