import { describe, expect, it } from 'vitest'
import { getAnalyzer } from '@pubmatch/analysis'
import { createReferenceHighlighter } from '../test/highlight-reference.ts'
import { createHighlighter, forEachWord } from './highlight.ts'

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

/** A deterministic pseudo-random generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// words of real abstracts, letters and numbers of other scripts (Greek, accented, an astral
// mathematical letter, an astral digit), joiners, and what is neither (punctuation, an emoji, lone
// surrogates, white space)
const PIECES = [
  'Cancer', 'cancers', 'breast', 'children', 'child', 'asthma', 'inhaler', 'the', 'of', 'and', 'Patients', 'IL-6', 'TNF-α',
  'β-blockers', 'Crohn’s', "Alzheimer's", 'naïve', 'Ångström', 'μg', '𝑥', '𝟙', '2019', 'COVID-19', 'x', 'é',
  '-', "'", '’', '--', ' ', ' ', ' ', '  ', '\n', '.', ',', '(', ')', '[', ']', '*', '"', '😀', '\ud800', '\udc00', '½', '٣',
]

function randomText(next: () => number, pieces: number): string {
  let text = ''
  for (let i = 0; i < pieces; i++) {
    text += PIECES[Math.floor(next() * PIECES.length)]!
  }
  return text
}

function randomQuery(next: () => number): string {
  const words = ['cancer', 'breast', 'child*', 'asthma', 'inhaler[tiab]', 'IL-6', 'AND', 'OR', 'NOT', '(patients', 'blockers)', '"naïve"', 'tnf-α', 'alzheimer*', 'covid-19', 'μg', 'x*', 'review[pt]', 'the']
  const n = 1 + Math.floor(next() * 5)
  return Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!).join(' ')
}

describe('forEachWord', () => {
  it('finds the words the regular expression [\\p{L}\\p{N}]+(?:[-\'’][\\p{L}\\p{N}]+)* finds, on 5,000 random texts', () => {
    const next = random(1)
    const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu
    for (let i = 0; i < 5000; i++) {
      const text = randomText(next, Math.floor(next() * 40))
      const found: Array<[number, number]> = []
      forEachWord(text, (start, end) => found.push([start, end]))
      const expected = [...text.matchAll(WORD)].map((match): [number, number] => [match.index, match.index + match[0].length])
      expect(found, JSON.stringify(text)).toEqual(expected)
    }
  })

  it('joins words with single hyphens and apostrophes only (hand-checked)', () => {
    const found: string[] = []
    const text = "TNF-α and Crohn’s--x 𝑥y 'a- b'"
    forEachWord(text, (start, end) => found.push(text.slice(start, end)))
    // "--" joins nothing; the astral letter 𝑥 (two code units) starts a word; a trailing "-" or "'" is not part of one
    expect(found).toEqual(['TNF-α', 'and', 'Crohn’s', 'x', '𝑥y', 'a', 'b'])
  })
})

describe('createHighlighter against the first implementation', () => {
  it('gives the same query terms, highlights and snippets on 1,000 random queries of 3 random texts each', () => {
    const next = random(2)
    for (const snippetChars of [20, 60, 320]) {
      const options = { analyzer: getAnalyzer('biomedical'), snippetChars }
      const fast = createHighlighter(options)
      const reference = createReferenceHighlighter(options)
      for (let i = 0; i < 1000; i++) {
        const query = randomQuery(next)
        const terms = fast.terms(query)
        const expected = reference.terms(query)
        expect({ terms: [...terms.terms], prefixes: terms.prefixes }, query).toEqual({ terms: [...expected.terms], prefixes: expected.prefixes })
        // several texts for one query, as a result page has (the highlighter remembers which words match it)
        for (let j = 0; j < 3; j++) {
          const text = randomText(next, Math.floor(next() * 200))
          expect(fast.highlight(text, terms), text).toEqual(reference.highlight(text, expected))
          expect(fast.snippet(text, terms), text).toEqual(reference.snippet(text, expected))
        }
      }
    }
  })

  it('gives the terms of the query asked last without analysing it again', () => {
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
    const first = counting.terms('breast cancer')
    const before = analysed
    expect(counting.terms('breast cancer')).toBe(first)
    expect(analysed).toBe(before)
    expect([...counting.terms('asthma').terms]).toEqual(['asthma'])
    expect([...counting.terms('breast cancer').terms]).toEqual([...first.terms])
  })
})
