import { describe, expect, it } from 'vitest'
import { createAliasTable } from './alias.ts'
import { createRng } from './random.ts'

describe('createAliasTable', () => {
  it('draws each outcome with probability weight / total', () => {
    const weights = [5, 0, 1, 3, 1]
    const table = createAliasTable(weights)
    expect(table.total).toBe(10)
    const rng = createRng(3)
    const counts = new Array<number>(weights.length).fill(0)
    const n = 200_000
    for (let i = 0; i < n; i++) {
      counts[table.sample(rng)]!++
    }
    expect(counts[1]).toBe(0)
    for (let i = 0; i < weights.length; i++) {
      const p = weights[i]! / 10
      // Within 5 binomial standard errors.
      expect(Math.abs(counts[i]! / n - p)).toBeLessThanOrEqual(5 * Math.sqrt((p * (1 - p)) / n))
    }
  })

  it('maps uniform numbers deterministically and never past the last outcome', () => {
    const table = createAliasTable([1, 1, 2])
    // Vose by hand: scaled weights [0.75, 0.75, 1.5]; columns 1 then 0 keep 0.75 and give the
    // rest to outcome 2, whose own column is full. pick(u): column ⌊3u⌋, fraction 3u − ⌊3u⌋.
    expect(table.pick(0)).toBe(0)
    expect(table.pick(0.24)).toBe(0)
    expect(table.pick(0.3)).toBe(2)
    expect(table.pick(0.4)).toBe(1)
    expect(table.pick(1)).toBe(2)
  })

  it('rejects empty, negative and all-zero weights', () => {
    expect(() => createAliasTable([])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/synth: an alias table needs at least one positive weight (got 0 weights)]`,
    )
    expect(() => createAliasTable([1, -1])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/synth: alias table weight 1 is -1; weights must be finite and ≥ 0]`,
    )
    expect(() => createAliasTable([0, 0])).toThrow(/at least one positive weight/)
  })
})
