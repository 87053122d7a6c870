import { describe, expect, it } from 'vitest'
import { createAnalyzer } from './analyzer.ts'
import { biomedicalAnalyzer } from './analyzers/biomedical.ts'
import { BUILTIN_ANALYZER_NAMES, createAnalyzerRegistry, getAnalyzer } from './registry.ts'
import { whitespaceTokenize } from './tokenizer/whitespace-tokenizer.ts'

describe('getAnalyzer', () => {
  it('returns one shared analyzer per built-in name, carrying that name', () => {
    for (const name of BUILTIN_ANALYZER_NAMES) {
      const analyzer = getAnalyzer(name)
      expect(analyzer.name).toBe(name)
      expect(getAnalyzer(name)).toBe(analyzer)
    }
    expect(BUILTIN_ANALYZER_NAMES).toEqual([
      'biomedical',
      'biomedical:nostem',
      'biomedical:nostop',
      'biomedical:nostem:nostop',
      'whitespace',
      'whitespace:stem',
    ])
  })

  it('analyzes a query the same way as the analyzer an index recorded', () => {
    const indexed = biomedicalAnalyzer()
    const query = getAnalyzer(indexed.name)
    const text = 'Effects of COX-2 inhibitors on IL-1β'
    expect(query.analyze(text)).toEqual(indexed.analyze(text))
  })

  it('throws NOT_FOUND for an unknown name', () => {
    expect(() => getAnalyzer('english')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: unknown analyzer "english" (known: biomedical, biomedical:nostem, biomedical:nostop, biomedical:nostem:nostop, whitespace, whitespace:stem)]`,
    )
  })
})

describe('createAnalyzerRegistry', () => {
  it('adds custom analyzers next to the built-ins and creates each once', () => {
    let made = 0
    const registry = createAnalyzerRegistry({
      'biomedical:nogreek': () => {
        made++
        return biomedicalAnalyzer({ greek: false, name: 'biomedical:nogreek' })
      },
    })
    expect(registry.names()).toEqual([...BUILTIN_ANALYZER_NAMES, 'biomedical:nogreek'])
    expect(registry.has('biomedical:nogreek')).toBe(true)
    expect(registry.has('nope')).toBe(false)
    const analyzer = registry.get('biomedical:nogreek')
    expect(registry.get('biomedical:nogreek')).toBe(analyzer)
    expect(made).toBe(1)
    expect(analyzer.analyze('TNF-α').map((t) => t.term)).toEqual(['tnfα', 'tnf', 'α'])
  })

  it('refuses to redefine a built-in name', () => {
    expect(() =>
      createAnalyzerRegistry({
        biomedical: () => createAnalyzer('biomedical', whitespaceTokenize, []),
      }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: analyzer name "biomedical" is built in and cannot be registered again]`,
    )
  })

  it('refuses an analyzer whose name differs from its registry name', () => {
    const registry = createAnalyzerRegistry({
      mine: () => createAnalyzer('other', whitespaceTokenize, []),
    })
    expect(() => registry.get('mine')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the factory registered as "mine" made an analyzer named "other"]`,
    )
  })
})
