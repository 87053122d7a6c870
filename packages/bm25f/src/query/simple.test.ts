import { describe, expect, it } from 'vitest'
import { parseQuery } from './parse.ts'
import { isSimpleQuery } from './simple.ts'

describe('isSimpleQuery', () => {
  it.each([
    ['ultrasound and chronic pancreatitis', true],
    ['estrogen receptor alpha, gene regulation, brain', true],
    ['(cancer)', true],
    ['Pinkerton* or Namazi* or lymphoma', false],
    ['"Rabbani F"[Author]', false],
    ['caffeine "gastroesophageal sphincter"', false],
    ['adenomectomy AND suprapubic', false],
    ['heparin NOT warfarin', false],
    ['#8', false],
    ['oger[au] venous', false],
    ['dtxR(E175K', false],
    ['exp glaucoma/', false],
    ['', false],
  ])('classifies %j as simple: %s', (query, simple) => {
    expect(isSimpleQuery(query)).toBe(simple)
  })

  it('accepts a tree', () => {
    expect(isSimpleQuery(parseQuery('kidney stones'))).toBe(true)
    expect(isSimpleQuery(parseQuery('kidney stones[tiab]'))).toBe(false)
  })
})
