import { describe, expect, it } from 'vitest'
import { relativeDifference, renderFeatureParity } from './nfcorpus-parity.ts'

describe('relativeDifference', () => {
  it('divides by the larger magnitude (hand-computed)', () => {
    // |3 − 4| / 4
    expect(relativeDifference(3, 4)).toBe(0.25)
    // |−2 − 2| / 2
    expect(relativeDifference(-2, 2)).toBe(2)
    expect(relativeDifference(0, 0)).toBe(0)
    expect(relativeDifference(0, -0)).toBe(0)
    expect(relativeDifference(1e-300, 0)).toBe(1)
  })
})

describe('renderFeatureParity', () => {
  it('counts the bit-identical columns and names each one that is not, with its worst row', () => {
    const text = renderFeatureParity({
      queries: 2,
      rows: 10,
      missing: 0,
      modelScoreMaxRelative: 0,
      floatScoreMaxRelative: 3e-8,
      columns: [
        { feature: 'F1', identical: 10, maxRelative: 0 },
        { feature: 'F150', identical: 9, maxRelative: 2e-16, worst: { query: 'q', id: 'D1', solr: 1, embedded: 1 + 2e-16 } },
        { feature: 'F143', identical: 8, maxRelative: 1e-3, worst: { query: 'vitamin d', id: 'D2', solr: 2.001, embedded: 2 } },
      ],
    })
    expect(text).toContain('bit-identical on every row: **1 of 3** columns')
    expect(text).toContain('within 1e-9 relative: 1 (F150 2.00e-16)')
    expect(text).toContain('beyond 1e-9 relative: 1 (F143: 1.00e-3 on 2 rows, worst `vitamin d` D2: Solr 2.001, embedded 2)')
    expect(text).toContain('(32-bit float): 3.00e-8')
  })
})
