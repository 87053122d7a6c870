import { describe, expect, it } from 'vitest'
import { markdownTable, percentile, replaceSection, summarize } from './report.ts'

describe('percentile and summarize', () => {
  it('uses the nearest rank', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    expect(percentile(sorted, 50)).toBe(5)
    expect(percentile(sorted, 90)).toBe(9)
    expect(percentile(sorted, 99)).toBe(10)
    expect(percentile([], 50)).toBeNaN()
  })
  it('summarises an unsorted sample', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ n: 4, p50: 2, p90: 4, p99: 4, mean: 2.5, max: 4 })
  })
})

describe('markdownTable', () => {
  it('right-aligns every column but the first', () => {
    expect(markdownTable(['a', 'b'], [['x', '1']])).toBe('| a | b |\n| --- | ---: |\n| x | 1 |')
  })
})

describe('replaceSection', () => {
  it('replaces one section, keeps the others in the given order, and renews the header', () => {
    const before =
      '# old\n\n<!-- begin erf -->\nold erf\n<!-- end erf -->\n\n<!-- begin prf -->\nprf\n<!-- end prf -->\n'
    expect(replaceSection(before, '# new', 'erf', 'new erf', ['prf', 'erf', 'latency'])).toBe(
      '# new\n\n<!-- begin prf -->\nprf\n<!-- end prf -->\n\n<!-- begin erf -->\nnew erf\n<!-- end erf -->\n',
    )
  })
  it('starts a new file', () => {
    expect(replaceSection('', '# h', 'latency', 'x\n\n', ['prf'])).toBe(
      '# h\n\n<!-- begin latency -->\nx\n<!-- end latency -->\n',
    )
  })
})
