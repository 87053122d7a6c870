import { describe, expect, it } from 'vitest'
import { flameGraphSvg, flameTree, type CpuProfile } from './flame-graph.ts'

// (root) → a → b, (root) → c; samples b, b, c, a, (root)
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
    { id: 2, callFrame: { functionName: 'a', url: 'file:///x/y/a.js', lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: 'b', url: 'file:///x/y/a.js', lineNumber: 19 } },
    { id: 4, callFrame: { functionName: 'c', url: 'node:internal/c', lineNumber: 0 } },
  ],
  samples: [3, 3, 4, 2, 1],
  timeDeltas: [5, 10, 20, 30, 40],
}

describe('flameTree', () => {
  it('gives each sample the time until the next one (the last the mean) and sums callees (hand-computed)', () => {
    const root = flameTree(PROFILE)
    // b: 10 + 20; c: 30; a: 40 + b's 30; (root): the mean delta 105 / 5 = 21
    expect(root).toMatchObject({ name: 'all', self: 21, total: 121 })
    const [a, c] = root.children
    expect(a).toMatchObject({ name: 'a', place: 'y/a.js:10', self: 40, total: 70 })
    expect(a!.children[0]).toMatchObject({ name: 'b', place: 'y/a.js:20', self: 30, total: 30 })
    expect(c).toMatchObject({ name: 'c', self: 30, total: 30 })
  })

  it('refuses a profile whose samples and deltas differ in number, or a sample of no node', () => {
    expect(() => flameTree({ ...PROFILE, timeDeltas: [1] })).toThrow(/5 samples but 1 time deltas/)
    expect(() => flameTree({ ...PROFILE, samples: [3, 3, 4, 2, 9] })).toThrow(/node 9/)
  })
})

describe('flameGraphSvg', () => {
  it('draws each frame as wide as its time, callees above their caller', () => {
    const svg = flameGraphSvg(PROFILE, { title: 'slowest queries' })
    // 1,180 px for 121 µs: a 70 → 682.64, c 30 → 292.56 (right after a), b 30 above a; 3 levels:
    // height 40 + 3 × 16 + 10 = 98, a level's y = 98 − 10 − (level + 1) × 16 = 72, 56, 40
    expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="98"')
    expect(svg).toContain('<rect x="10.00" y="72" width="1180.00"')
    expect(svg).toContain('<rect x="10.00" y="56" width="682.64"')
    expect(svg).toContain('<rect x="692.64" y="56" width="292.56"')
    expect(svg).toContain('<rect x="10.00" y="40" width="292.56"')
    expect(svg).toContain('<title>a (y/a.js:10): 0.1 ms, 57.9 % (self 0.0 ms)</title>')
    expect(svg).toContain('slowest queries (0.1 ms sampled')
    expect(svg.startsWith('<?xml')).toBe(true)
  })

  it('leaves out frames narrower than the minimum and escapes names', () => {
    const svg = flameGraphSvg(
      { ...PROFILE, nodes: PROFILE.nodes.map((n) => (n.id === 4 ? { ...n, callFrame: { ...n.callFrame, functionName: '<c&d>' } } : n)) },
      { minWidth: 300 },
    )
    expect(svg).not.toContain('292.56')
    expect(flameGraphSvg({ ...PROFILE, nodes: PROFILE.nodes.map((n) => (n.id === 4 ? { ...n, callFrame: { ...n.callFrame, functionName: '<c&d>' } } : n)) })).toContain('&#60;c&#38;d&#62;')
  })
})
