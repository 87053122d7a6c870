import { describe, expect, it } from 'vitest'
import {
  analyzeTerms,
  createAnalyzer,
  isJoinedToken,
  phraseTokens,
  textTerms,
  withTerm,
  withTermStep,
  type AnalyzedToken,
  type TokenFilter,
} from './analyzer.ts'
import { whitespaceTokenize } from './tokenizer/whitespace-tokenizer.ts'
import { biomedicalAnalyzer } from './analyzers/biomedical.ts'
import { BUILTIN_ANALYZER_NAMES, getAnalyzer } from './registry.ts'

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

describe('termStream and analyzeTerms', () => {
  const collect = (analyzer: ReturnType<typeof createAnalyzer>, text: string): string[] => {
    const out: string[] = []
    analyzeTerms(analyzer, text, (term, position, span) => out.push(`${term}@${position}/${span}`))
    return out
  }

  it('gives the terms, positions and spans of analyze without token objects (hand-checked biomedical example)', () => {
    const analyzer = biomedicalAnalyzer()
    expect(analyzer.termStream).toBeDefined()
    // "the" and "of" are stop words (positions 0 and 4 stay empty); COX-2 gives its joined form
    // cox2 over 2 positions, then cox and 2; genes stems to gene; TNF-α spells α out.
    const expected = ['cox2@1/2', 'cox@1/1', '2@2/1', 'gene@3/1', 'tnfalpha@5/2', 'tnf@5/1', 'alpha@6/1']
    expect(collect(analyzer, 'The COX-2 genes of TNF-α')).toEqual(expected)
    expect(
      analyzer.analyze('The COX-2 genes of TNF-α').map((t) => `${t.term}@${t.position}/${t.positionLength ?? 1}`),
    ).toEqual(expected)
  })

  it('runs the filter chain once per distinct surface term, within the cache size', () => {
    const seen: string[] = []
    const spy = withTermStep(
      (token) => token,
      (term) => {
        seen.push(term)
        return term === 'drop' ? null : term.toUpperCase()
      },
    )
    const analyzer = createAnalyzer('spy', whitespaceTokenize, [spy], { termCacheSize: 2 })
    const stream = analyzer.termStream!
    expect([stream.term('a'), stream.term('a'), stream.term('drop'), stream.term('drop')]).toEqual(['A', 'A', null, null])
    expect(seen).toEqual(['a', 'drop'])
    // A third term evicts the oldest ("a"), which is then run again.
    expect([stream.term('b'), stream.term('a')]).toEqual(['B', 'A'])
    expect(seen).toEqual(['a', 'drop', 'b', 'a'])
    expect(collect(analyzer, 'x drop y')).toEqual(['X@0/1', 'Y@2/1'])
    const uncached = createAnalyzer('spy', whitespaceTokenize, [spy], { termCacheSize: 0 })
    seen.length = 0
    uncached.termStream!.term('q')
    uncached.termStream!.term('q')
    expect(seen).toEqual(['q', 'q'])
  })

  it('has no term stream when a filter has no term step, and analyzeTerms then reads analyze', () => {
    const analyzer = createAnalyzer('test', whitespaceTokenize, [dropShort, upper])
    expect(analyzer.termStream).toBeUndefined()
    expect(collect(analyzer, 'an old cat')).toEqual(['OLD@1/1', 'CAT@2/1'])
  })

  it('refuses a term cache size that is not a non-negative integer', () => {
    for (const size of [-1, 1.5, Number.NaN]) {
      expect(() => createAnalyzer('x', whitespaceTokenize, [], { termCacheSize: size })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      )
    }
  })

  it('gives every built-in analyzer the same terms through analyzeTerms as through analyze', () => {
    const text =
      "IL-6-induced STAT3 in 5μg/ml of β-catenin (p<0.05); Smith's o'brien 3'UTR x\u{1F600}y naïve café COX-2 cox2 cox 2"
    for (const name of BUILTIN_ANALYZER_NAMES) {
      const analyzer = getAnalyzer(name)
      expect(analyzer.termStream, name).toBeDefined()
      expect(collect(analyzer, text), name).toEqual(
        analyzer.analyze(text).map((t) => `${t.term}@${t.position}/${t.positionLength ?? 1}`),
      )
    }
  })
})
