import { beforeAll, describe, expect, it } from 'vitest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { articleTitles, readText } from '../../test/texts.ts'
import { render } from '../../test/render.ts'
import { whitespaceAnalyzer } from './whitespace.ts'

describe('whitespaceAnalyzer', () => {
  it('splits only, by default', () => {
    const analyzer = whitespaceAnalyzer()
    expect(analyzer.name).toBe('whitespace')
    expect(render(analyzer.analyze('Cells the low-level'))).toEqual([
      'Cells@0',
      'the@1',
      'low-level@2',
    ])
  })

  it('stems lower-case ASCII words with stem: true and keeps the rest', () => {
    const analyzer = whitespaceAnalyzer({ stem: true })
    expect(analyzer.name).toBe('whitespace:stem')
    expect(
      analyzer.analyze('flame retardants low-level Cells').map((t) => [t.term, t.original]),
    ).toEqual([
      ['flame', 'flame'],
      ['retard', 'retardants'],
      ['low-level', 'low-level'],
      ['Cells', 'Cells'],
    ])
  })

  it('accepts a custom stemmer and names itself whitespace:custom', () => {
    const analyzer = whitespaceAnalyzer({ stem: (word) => word.slice(0, 4) })
    expect(analyzer.name).toBe('whitespace:custom')
    expect(analyzer.analyze('neurobehavioral').map((t) => t.term)).toEqual(['neur'])
  })

  it('produces as many tokens as there are white-space separated words in the sample corpus titles', () => {
    const titles = articleTitles(readText(samplePath('pubmed', 'medline16n0902.xml.gz')))
    expect(titles).toHaveLength(604)
    const analyzer = whitespaceAnalyzer()
    for (const title of titles) {
      expect(analyzer.analyze(title).length, title).toBe(title.split(/\s+/).filter(Boolean).length)
    }
  })

  describe('on NFCorpus (corpus.docs)', { tags: ['real-data'] }, () => {
    let lines: string[] = []
    const text = (line: string): string => line.slice(line.indexOf('\t') + 1)

    beforeAll(() => {
      lines = readText(sharedDataPath('nfcorpus', 'corpus.docs')).split('\n').filter(Boolean)
    })

    it('pins the first document MED-1000', () => {
      expect(lines[0]!.startsWith('MED-1000\t')).toBe(true)
      const tokens = whitespaceAnalyzer({ stem: true }).analyze(text(lines[0]!))
      expect(render(tokens.slice(0, 11))).toEqual([
        'neurobehavior@0',
        'function@1',
        'low-level@2',
        'exposur@3',
        'bromin@4',
        'flame@5',
        'retard@6',
        'adolesc@7',
        'cross-sectional@8',
        'studi@9',
        'abstract@10',
      ])
    })

    it('produces as many tokens as there are white-space separated words in the corpus', () => {
      const analyzer = whitespaceAnalyzer()
      let tokens = 0
      let words = 0
      for (const line of lines) {
        tokens += analyzer.analyze(text(line)).length
        words += text(line).split(/\s+/).filter(Boolean).length
      }
      expect(lines).toHaveLength(3394)
      expect(tokens).toBe(words)
      expect(tokens).toBe(495285)
    })
  })
})
