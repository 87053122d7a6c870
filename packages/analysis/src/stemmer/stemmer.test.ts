import { describe, expect, it } from 'vitest'
import { createCachedStemmer } from './stemmer.ts'

function countingStemmer(): { stem: (word: string) => string; calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    stem: (word) => {
      calls.push(word)
      return word.slice(0, 3)
    },
  }
}

describe('createCachedStemmer', () => {
  it('calls the wrapped stemmer once per distinct word', () => {
    const inner = countingStemmer()
    const stem = createCachedStemmer(inner.stem, 10)
    expect(['cells', 'cells', 'genes', 'cells'].map(stem)).toEqual(['cel', 'cel', 'gen', 'cel'])
    expect(inner.calls).toEqual(['cells', 'genes'])
  })

  it('evicts the oldest word when full', () => {
    const inner = countingStemmer()
    const stem = createCachedStemmer(inner.stem, 2)
    for (const word of ['aaa', 'bbb', 'ccc', 'bbb', 'aaa']) {
      stem(word)
    }
    // ccc evicts aaa; bbb is still cached; aaa must be stemmed again.
    expect(inner.calls).toEqual(['aaa', 'bbb', 'ccc', 'aaa'])
  })

  it('returns the stemmer itself for capacity 0 and rejects a negative capacity', () => {
    const inner = countingStemmer()
    expect(createCachedStemmer(inner.stem, 0)).toBe(inner.stem)
    expect(() => createCachedStemmer(inner.stem, -1)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: stem cache capacity must be a non-negative integer, got -1]`,
    )
  })
})
