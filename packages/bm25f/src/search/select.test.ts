import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { selectAscending, selectTop, type TieBetter } from './select.ts'

/** The reference: every candidate sorted by score descending, then the tie-break, cut at k. */
function reference(
  docScores: Float64Array,
  candidates: number[],
  k: number,
  tie: TieBetter,
): [number, number][] {
  return candidates
    .map((d): [number, number] => [d, docScores[d]!])
    .sort(([da, sa], [db, sb]) =>
      sa !== sb ? sb - sa : (tie === null ? da < db : tie(da, db)) ? -1 : 1,
    )
    .slice(0, k)
}

const descendingIds: TieBetter = (a, b) => String(a) > String(b) // string order, not numeric

describe('selectAscending', () => {
  it('finds the value of each rank, ties and signed zeros included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(-1, -0, 0, 0.5, 1, 2, 3.25), { minLength: 1, maxLength: 200 }),
        fc.nat(),
        (values, at) => {
          const t = at % values.length
          const sorted = [...values].sort((a, b) => a - b)
          expect(selectAscending(Float64Array.from(values), values.length, t) === sorted[t]).toBe(
            true,
          )
        },
      ),
      { numRuns: 300, seed: 28 },
    )
  })
})

describe('selectTop', () => {
  it('gives the k best in the order of a full sort, for both tie-breaks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(0, -0, 1, 2.5), fc.double({ min: -5, max: 50, noNaN: true })),
          { minLength: 1, maxLength: 600 },
        ),
        // from k ≥ n (all in) through selection to the heap (n > 8k)
        fc.integer({ min: 0, max: 700 }),
        fc.boolean(),
        fc.integer(),
        (values, k, idOrder, seed) => {
          const docScores = Float64Array.from(values)
          // candidates in a shuffled order, some documents left out
          const candidates = values.map((_, d) => d).filter((d) => (d * 7 + seed) % 5 !== 0)
          candidates.sort((a, b) => ((a * 31 + seed) % 17) - ((b * 31 + seed) % 17))
          const tie = idOrder ? descendingIds : null
          const n = candidates.length
          const out = selectTop(docScores, Int32Array.from(candidates), n, k, tie, {
            values: new Float64Array(n),
            ties: new Int32Array(n),
          })
          const expected = reference(docScores, candidates, k, tie)
          expect([...out.docs]).toEqual(expected.map(([d]) => d))
          expect([...out.scores].every((s, i) => Object.is(s, expected[i]![1]))).toBe(true)
        },
      ),
      { numRuns: 400, seed: 1128 },
    )
  })

  it('takes both paths: selection and heap give the same hits', () => {
    const docScores = Float64Array.from({ length: 2000 }, (_, d) => (d * 7919) % 101)
    const candidates = Int32Array.from({ length: 2000 }, (_, i) => (i * 1237) % 2000)
    const scratch = { values: new Float64Array(2000), ties: new Int32Array(2000) }
    for (const k of [10, 249, 250, 251, 1000]) {
      // 2000 candidates: k < 250 goes through the heap, k ≥ 250 through selection
      const out = selectTop(docScores, candidates, 2000, k, null, scratch)
      const expected = reference(docScores, [...candidates], k, null)
      expect([...out.docs]).toEqual(expected.map(([d]) => d))
    }
  })

  it('breaks a tie at the k-th score by the tie-break (hand-checked case)', () => {
    // scores by document: 0→1, 1→3, 2→1, 3→2, 4→1; k = 3 → 1 (3), 3 (2), then the best of 0, 2, 4 at 1
    const docScores = Float64Array.from([1, 3, 1, 2, 1])
    const candidates = Int32Array.from([4, 2, 0, 3, 1])
    const scratch = { values: new Float64Array(5), ties: new Int32Array(5) }
    expect([...selectTop(docScores, candidates, 5, 3, null, scratch).docs]).toEqual([1, 3, 0])
    expect([...selectTop(docScores, candidates, 5, 3, (a, b) => a > b, scratch).docs]).toEqual([
      1, 3, 4,
    ])
    expect([...selectTop(docScores, candidates, 5, 3, null, scratch).scores]).toEqual([3, 2, 1])
  })
})
