import { describe, expect, it } from 'vitest'
import { render } from '../../test/render.ts'
import { whitespaceTokenize } from './whitespace-tokenizer.ts'

describe('whitespaceTokenize', () => {
  it('splits on white space only and keeps case and punctuation', () => {
    expect(render(whitespaceTokenize('low-level exposure pg/ml COX-2, Num.'))).toEqual([
      'low-level@0',
      'exposure@1',
      'pg/ml@2',
      'COX-2,@3',
      'Num.@4',
    ])
  })

  it('treats runs of tabs, newlines and Unicode spaces as one separator', () => {
    const tokens = whitespaceTokenize('\t a\n\nb\u00a0c\u2003d\u3000e ')
    expect(render(tokens)).toEqual(['a@0', 'b@1', 'c@2', 'd@3', 'e@4'])
    expect(tokens.every((t) => t.original === t.term)).toBe(true)
  })

  it('returns nothing for blank text', () => {
    expect(whitespaceTokenize(' \n\t ')).toEqual([])
  })
})
