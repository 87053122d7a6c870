import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SAMPLE_SIZE, selectAscending, selectTop, type TieBetter } from './select.ts'

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
        // from k ≥ n (all in) to k ≪ n
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

  it('gives the k best of more candidates than it samples (strided samples, many ties)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2 * SAMPLE_SIZE, max: 6 * SAMPLE_SIZE }),
        fc.integer({ min: 1, max: 3 * SAMPLE_SIZE }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        (n, k, distinct, seed) => {
          // few distinct scores: long runs of ties at the k-th score
          const docScores = Float64Array.from({ length: n }, (_, d) => ((d * 7919 + seed) % distinct) / 4)
          const candidates = Int32Array.from({ length: n }, (_, i) => (i * 1237 + seed) % n)
          const unique = new Set(candidates).size === n
          fc.pre(unique)
          const out = selectTop(docScores, candidates, n, k, null, {
            values: new Float64Array(n),
            ties: new Int32Array(n),
          })
          const expected = reference(docScores, [...candidates], k, null)
          expect([...out.docs]).toEqual(expected.map(([d]) => d))
          expect([...out.scores]).toEqual(expected.map(([, s]) => s))
        },
      ),
      { numRuns: 60, seed: 2811 },
    )
  })

  it('takes both paths: a sampled guess that lets at least k through, and the quickselect fallback', () => {
    const docScores = Float64Array.from({ length: 2000 }, (_, d) => (d * 7919) % 101)
    const candidates = Int32Array.from({ length: 2000 }, (_, i) => (i * 1237) % 2000)
    const scratch = { values: new Float64Array(2048), ties: new Int32Array(2048) }
    for (const k of [1, 10, 249, 250, 251, 1000, 1999]) {
      const out = selectTop(docScores, candidates, 2000, k, null, scratch)
      const expected = reference(docScores, [...candidates], k, null)
      expect([...out.docs]).toEqual(expected.map(([d]) => d))
    }
    // 2,048 candidates, sampled every (2,048 / SAMPLE_SIZE)th: the sampled ones score 100 + d, the
    // others d / 10, so the guess for k ≥ 1,000 lets through only the sampled ones that reach it
    // (1.25 · k · SAMPLE_SIZE / 2,048 < k of them): the fallback must find the hits
    const stride = 2048 / SAMPLE_SIZE
    expect(stride).toBeGreaterThanOrEqual(2)
    const skewed = Float64Array.from({ length: 2048 }, (_, d) => (d % stride === 0 ? 100 + d : d / 10))
    const all = Int32Array.from({ length: 2048 }, (_, d) => d)
    for (const k of [1000, 1100]) {
      const out = selectTop(skewed, all, 2048, k, null, scratch)
      const expected = reference(skewed, [...all], k, null)
      expect([...out.docs]).toEqual(expected.map(([d]) => d))
      expect([...out.scores]).toEqual(expected.map(([, s]) => s))
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
