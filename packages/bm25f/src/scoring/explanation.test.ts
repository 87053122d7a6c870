import { describe, expect, it } from 'vitest'
import { explanation, formatExplanation } from './explanation.ts'

describe('explanation', () => {
  it('leaves the formula out of input nodes', () => {
    expect(explanation('N', 3394)).toEqual({ label: 'N', value: 3394, details: [] })
    expect(Object.keys(explanation('N', 3394))).toEqual(['label', 'value', 'details'])
  })

  it('keeps the formula and the details of computed nodes', () => {
    const node = explanation('idf', 2, '1 + ln(N / (n + 1))', [
      explanation('N', 9),
      explanation('n', 2),
    ])
    expect(node.formula).toBe('1 + ln(N / (n + 1))')
    expect(node.details.map((detail) => detail.label)).toEqual(['N', 'n'])
  })
})

describe('formatExplanation', () => {
  it('writes one node a line, indented by depth', () => {
    const tree = explanation('cancer', 1.5, 'a · b', [
      explanation('a', 3, 'x / y', [explanation('x', 6), explanation('y', 2)]),
      explanation('b', 0.5),
    ])
    expect(formatExplanation(tree)).toMatchInlineSnapshot(`
      "1.5  cancer = a · b
        3  a = x / y
          6  x
          2  y
        0.5  b"
    `)
    expect(formatExplanation(explanation('k1', 1.2), 4)).toBe('    1.2  k1')
  })
})
