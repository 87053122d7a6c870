import { describe, expect, it } from 'vitest'
import { getAnalyzer } from '@pubmatch/analysis'
import { createHighlighter } from './highlight.ts'

const highlighter = createHighlighter({ analyzer: getAnalyzer('biomedical'), snippetChars: 60 })

describe('createHighlighter', () => {
  it('takes the analysed terms of a query, without field tags, operators or stop words, and the prefixes of truncated words', () => {
    const terms = highlighter.terms('"breast cancers"[tiab] AND (child* OR the) NOT review[pt]')
    // Porter2: cancers → cancer; "the" is a PubMed stop word; review[pt] is a filter word too
    expect([...terms.terms].sort()).toEqual(['breast', 'cancer', 'review'])
    expect(terms.prefixes).toEqual(['child'])
  })

  it('marks every word whose analysed form is a query term, by UTF-16 offsets', () => {
    const terms = highlighter.terms('breast cancer child*')
    const text = 'Cancer of the breast in children: a cancer registry'
    // Cancer 0–6, breast 14–20, children 24–32, cancer 36–42
    expect(highlighter.highlight(text, terms)).toEqual({
      text,
      matches: [
        [0, 6],
        [14, 20],
        [24, 32],
        [36, 42],
      ],
    })
  })

  it('cuts a long text to the passage with the most distinct query terms, at word boundaries', () => {
    const terms = highlighter.terms('asthma inhaler')
    const text =
      'Background words here that say nothing at all about it. ' + // 0–55
      'Asthma patients used an inhaler daily in this trial. ' + // 56–108
      'More filler text follows the result section here.'
    const snippet = highlighter.snippet(text, terms)
    // hits: Asthma 56–62, inhaler 80–87 (text length 159). Windows of 60 start 40 before a hit:
    // from 16 holds Asthma only; from 40 holds both (2 distinct terms) and wins. Snapped to the
    // next word start, 42 ("all"); the last whole word ending by 102 is "this" (97–101).
    expect(snippet.text).toBe('…all about it. Asthma patients used an inhaler daily in this…')
    const marked = snippet.matches.map(([a, b]) => snippet.text.slice(a, b))
    expect(marked).toEqual(['Asthma', 'inhaler'])
    expect(snippet.matches).toEqual([
      [15, 21],
      [39, 46],
    ])
    // a text that fits is returned whole
    expect(highlighter.snippet('Asthma inhaler use', terms)).toEqual({ text: 'Asthma inhaler use', matches: [[0, 6], [7, 14]] })
  })

  it('starts at the beginning when nothing matches', () => {
    const snippet = highlighter.snippet('x '.repeat(60), highlighter.terms('asthma'))
    expect(snippet.text.startsWith('x x')).toBe(true)
    expect(snippet.text.endsWith('…')).toBe(true)
    expect(snippet.matches).toEqual([])
  })
})

describe('createHighlighter’s word cache', () => {
  it('analyses each word once while it is in use, through more distinct words than one cache generation holds', () => {
    const biomedical = getAnalyzer('biomedical')
    let analysed = 0
    const counting = createHighlighter({
      analyzer: {
        ...biomedical,
        analyze: (text: string) => {
          analysed++
          return biomedical.analyze(text)
        },
      },
    })
    const terms = counting.terms('cancers')
    const text = 'Cancers of the breast'
    const first = counting.highlight(text, terms)
    const before = analysed
    // 120,000 other words: more than two generations of 50,000
    for (let i = 0; i < 120_000; i++) {
      counting.highlight(`x${i}`, terms)
      if (i % 10_000 === 0) {
        // the title's words stay in use, so they are not analysed again
        expect(counting.highlight(text, terms)).toEqual(first)
      }
    }
    expect(analysed - before).toBe(120_000)
    expect(counting.highlight(text, terms)).toEqual({ text, matches: [[0, 7]] })
    expect(highlighter.highlight(text, highlighter.terms('cancers'))).toEqual(first)
  })
})
