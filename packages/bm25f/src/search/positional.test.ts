import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nearMatch } from './positional.ts'

/** Brute force: some choice of one position per slot whose sorted neighbours are ≤ distance + 1 apart. */
function bruteNear(positions: readonly number[][], distance: number): boolean {
  const choose = (i: number, chosen: number[]): boolean => {
    if (i === positions.length) {
      const sorted = [...chosen].sort((a, b) => a - b)
      return sorted.every((p, j) => j === 0 || p - sorted[j - 1]! <= distance + 1)
    }
    return positions[i]!.some((p) => !chosen.includes(p) && choose(i + 1, [...chosen, p]))
  }
  return choose(0, [])
}

describe('nearMatch', () => {
  it('allows at most N other words between neighbours, in any order', () => {
    // "pain of the hip": pain@1, hip@4 → two words between.
    expect(nearMatch([Int32Array.of(4), Int32Array.of(1)], 2)).toBe(true)
    expect(nearMatch([Int32Array.of(4), Int32Array.of(1)], 1)).toBe(false)
    // Three words: a@0 b@3 c@6 chain with gaps of 2; a@0 c@6 alone would not be near.
    expect(nearMatch([Int32Array.of(0), Int32Array.of(3), Int32Array.of(6)], 2)).toBe(true)
    expect(nearMatch([Int32Array.of(0), Int32Array.of(6)], 2)).toBe(false)
  })

  it('needs a chain through every slot, not just a cluster of positions', () => {
    // A@0 B@3 A@6 A@9 C@12 with gaps ≤ 3 (distance 2): B must neighbour an A that neighbours C.
    expect(nearMatch([Int32Array.of(0, 6, 9), Int32Array.of(3), Int32Array.of(12)], 2)).toBe(false)
    expect(nearMatch([Int32Array.of(0, 6, 9), Int32Array.of(3), Int32Array.of(12)], 5)).toBe(true)
  })

  it('agrees with brute force on random positions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 5 }),
        (lists, distance) => {
          // Distinct terms never share a position: keep each position in one slot only.
          const owner = new Map<number, number>()
          lists.forEach((list, slot) => list.forEach((p) => owner.has(p) || owner.set(p, slot)))
          const slots = lists.map((list, slot) =>
            list.filter((p) => owner.get(p) === slot).sort((a, b) => a - b),
          )
          if (slots.some((s) => s.length === 0)) {
            return
          }
          expect(
            nearMatch(
              slots.map((s) => Int32Array.from(s)),
              distance,
            ),
          ).toBe(bruteNear(slots, distance))
        },
      ),
      { numRuns: 500 },
    )
  })
})
