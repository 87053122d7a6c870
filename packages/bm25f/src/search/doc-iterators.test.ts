import { NO_MORE_DOCS } from '@pubmatch/index/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ConjunctionIterator,
  DisjunctionIterator,
  DocListIterator,
  ExclusionIterator,
  PredicateIterator,
  type DocIterator,
} from './doc-iterators.ts'

const list = (docs: readonly number[]): DocListIterator =>
  new DocListIterator(Int32Array.from(docs))

/** All documents, advancing to targets that sometimes skip ahead. */
function drain(iterator: DocIterator, jumps: readonly number[]): number[] {
  const out: number[] = []
  let target = 0
  let j = 0
  for (let d = iterator.advance(target); d !== NO_MORE_DOCS; d = iterator.advance(target)) {
    out.push(d)
    target = d + 1 + (jumps[j++ % Math.max(1, jumps.length)] ?? 0)
  }
  return out
}

const sortedSet = fc
  .uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 60 })
  .map((a) => a.sort((x, y) => x - y))

describe('doc iterators', () => {
  it('intersect, unite and subtract like sets, also when targets skip ahead', () => {
    fc.assert(
      fc.property(
        fc.array(sortedSet, { minLength: 1, maxLength: 4 }),
        sortedSet,
        fc.array(fc.nat({ max: 5 })),
        (sets, minus, jumps) => {
          const and = new Set(sets[0]!.filter((d) => sets.every((s) => s.includes(d))))
          const or = new Set(sets.flat())
          // Reference: walk the expected set with the same jumps.
          const walk = (docs: readonly number[]): number[] => {
            const out: number[] = []
            let target = 0
            let j = 0
            for (;;) {
              const d = docs.find((x) => x >= target)
              if (d === undefined) {
                return out
              }
              out.push(d)
              target = d + 1 + (jumps[j++ % Math.max(1, jumps.length)] ?? 0)
            }
          }
          const sorted = (s: Set<number>): number[] => [...s].sort((a, b) => a - b)
          expect(drain(new ConjunctionIterator(sets.map(list)), jumps)).toEqual(walk(sorted(and)))
          expect(drain(new DisjunctionIterator(sets.map(list)), jumps)).toEqual(walk(sorted(or)))
          expect(
            drain(
              new ExclusionIterator(new DisjunctionIterator(sets.map(list)), list(minus)),
              jumps,
            ),
          ).toEqual(walk(sorted(or).filter((d) => !minus.includes(d))))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('filters documents by a predicate up to maxDoc', () => {
    expect(drain(new PredicateIterator(10, (d) => d % 3 === 0), [])).toEqual([0, 3, 6, 9])
    expect(new PredicateIterator(5, () => false).advance(0)).toBe(NO_MORE_DOCS)
  })
})
