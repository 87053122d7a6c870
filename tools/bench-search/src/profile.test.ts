import { describe, expect, it } from 'vitest'
import type { FlameFrame } from '@pubmatch/bench-kit'
import { selfTimes, slowestPercent, type QueryProfile } from './profile.ts'

const query = (id: string, medianMs: number): QueryProfile => ({ id, text: id, medianMs, docsScored: 0, postingsScored: 0, windows: 0, blocksSkipped: 0 })

describe('slowestPercent', () => {
  it('keeps the slowest 1 % (at least 4), slowest first, ties by id', () => {
    const many = Array.from({ length: 450 }, (_, i) => query(`q${String(i).padStart(3, '0')}`, i % 100))
    // 450 queries: ⌈4.5⌉ = 5; the medians 99 belong to q099, q199, q299, q399 (q499 does not exist), then 98: q098
    expect(slowestPercent(many).map((q) => q.id)).toEqual(['q099', 'q199', 'q299', 'q399', 'q098'])
    expect(slowestPercent([query('a', 1), query('b', 2)]).map((q) => q.id)).toEqual(['b', 'a'])
  })
})

describe('selfTimes', () => {
  it('sums a function’s own time over every place in the tree it appears', () => {
    const frame = (name: string, self: number, children: FlameFrame[] = []): FlameFrame => ({
      name,
      place: `${name}.js:1`,
      self,
      total: self + children.reduce((a, c) => a + c.total, 0),
      children,
    })
    const root = frame('all', 0, [frame('a', 10, [frame('c', 30)]), frame('b', 20, [frame('c', 40)])])
    // c: 30 + 40 of 100
    expect(selfTimes(root, 2)).toEqual([
      { name: 'c', place: 'c.js:1', us: 70, share: 0.7 },
      { name: 'b', place: 'b.js:1', us: 20, share: 0.2 },
    ])
  })
})
