import { describe, expect, it } from 'vitest'
import { listedOrder, markdownTable, replaceSection } from './markdown.ts'

describe('markdownTable', () => {
  it('right-aligns all but the leading label columns and escapes pipes', () => {
    expect(
      markdownTable(
        ['corpus', 'docs'],
        [
          ['a', '1'],
          ['b|c', '22'],
        ],
      ),
    ).toBe('| corpus | docs |\n|---|---:|\n| a | 1 |\n| b\\|c | 22 |')
  })

  it('pads a short row and takes more label columns when asked', () => {
    expect(markdownTable(['x', 'y', 'z'], [['1']], 2)).toBe('| x | y | z |\n|---|---|---:|\n| 1 |  |  |')
  })

  it('rejects a row longer than the header', () => {
    expect(() => markdownTable(['a', 'b'], [['x', '1', '2']])).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: table row 0 has 3 cells, the header 2]`)
  })
})

describe('replaceSection', () => {
  it('replaces one section, keeps the others in the given order, and renews the header', () => {
    const before = '# old\n\n<!-- begin erf -->\nold erf\n<!-- end erf -->\n\n<!-- begin prf -->\nprf\n<!-- end prf -->\n'
    expect(replaceSection(before, '# new', 'erf', 'new erf', listedOrder(['prf', 'erf', 'latency']))).toBe(
      '# new\n\n<!-- begin prf -->\nprf\n<!-- end prf -->\n\n<!-- begin erf -->\nnew erf\n<!-- end erf -->\n',
    )
  })

  it('starts a new file', () => {
    expect(replaceSection('', '# h', 'latency', 'x\n\n', listedOrder(['prf']))).toBe('# h\n\n<!-- begin latency -->\nx\n<!-- end latency -->\n')
  })

  it('orders sections of equal place by name, unlisted ones last', () => {
    const text = ['b', 'a', 'z'].reduce((file, name) => replaceSection(file, '# h', name, name, listedOrder(['z'])), '')
    expect([...text.matchAll(/<!-- begin (\S+) -->/g)].map((m) => m[1])).toEqual(['z', 'a', 'b'])
    const byStudy = (name: string): number => (name.startsWith('variants') ? 0 : 1)
    const studies = ['memory-500', 'variants-100', 'memory-100'].reduce((file, name) => replaceSection(file, '# h', name, name, byStudy), '')
    expect([...studies.matchAll(/<!-- begin (\S+) -->/g)].map((m) => m[1])).toEqual(['variants-100', 'memory-100', 'memory-500'])
  })
})
