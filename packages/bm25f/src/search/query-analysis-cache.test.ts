import { createAnalyzer, getAnalyzer, type Analyzer } from '@pubmatch/analysis'
import { describe, expect, it } from 'vitest'
import { QueryAnalysisCache } from './query-analysis-cache.ts'

/** A built-in analyzer that counts how often it analyses (the same object `getAnalyzer` returns). */
function counted(analyzer: Analyzer): { calls: () => number; restore: () => void } {
  const original = analyzer.analyze
  let calls = 0
  ;(analyzer as { analyze: Analyzer['analyze'] }).analyze = (text: string) => {
    calls++
    return original.call(analyzer, text)
  }
  return { calls: () => calls, restore: () => ((analyzer as { analyze: Analyzer['analyze'] }).analyze = original) }
}

describe('QueryAnalysisCache', () => {
  it('analyses a repeated text with a built-in analyzer once, giving the same tokens', () => {
    const analyzer = getAnalyzer('biomedical')
    const expected = analyzer.analyze('Oral cancers of the COX-2 kind')
    const spy = counted(analyzer)
    try {
      const cache = new QueryAnalysisCache()
      const first = cache.analyze(analyzer, 'Oral cancers of the COX-2 kind')
      const second = cache.analyze(analyzer, 'Oral cancers of the COX-2 kind')
      expect(first).toEqual(expected)
      expect(second).toBe(first)
      expect(spy.calls()).toBe(1)
      expect(Object.isFrozen(first) && first.every((token) => Object.isFrozen(token))).toBe(true)
    } finally {
      spy.restore()
    }
  })

  it('analyses every time with an analyzer that is not built in', () => {
    let calls = 0
    const custom = createAnalyzer('biomedical', (text) => {
      calls++
      return text.split(' ').map((term, position) => ({ term, position }))
    }, [])
    const cache = new QueryAnalysisCache()
    expect(cache.analyze(custom, 'a b')).toEqual([
      { term: 'a', position: 0 },
      { term: 'b', position: 1 },
    ])
    cache.analyze(custom, 'a b')
    expect(calls).toBe(2)
    expect(cache.count).toBe(0)
  })

  it('keeps at most its capacity, dropping the least recently used text first', () => {
    const analyzer = getAnalyzer('biomedical')
    const spy = counted(analyzer)
    try {
      const cache = new QueryAnalysisCache(2)
      cache.analyze(analyzer, 'alpha')
      cache.analyze(analyzer, 'beta')
      cache.analyze(analyzer, 'alpha') // alpha is now the most recent
      cache.analyze(analyzer, 'gamma') // drops beta
      expect(cache.count).toBe(2)
      expect(spy.calls()).toBe(3)
      cache.analyze(analyzer, 'alpha')
      expect(spy.calls()).toBe(3)
      cache.analyze(analyzer, 'beta')
      expect(spy.calls()).toBe(4)
    } finally {
      spy.restore()
    }
  })
})
