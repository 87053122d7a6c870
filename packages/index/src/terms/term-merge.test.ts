import { compareCodePoints } from '@pubmatch/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TermMerge } from './term-merge.ts'

interface Entry {
  readonly term: string
  readonly list: number
}

/** Every step of a merge: the term and the (list, entry list) pairs holding it. */
function steps(lists: readonly (readonly string[])[]): [string, [number, number][]][] {
  const merge = new TermMerge<Entry>(
    lists.map((terms, list) => terms.map((term) => ({ term, list }))[Symbol.iterator]()),
  )
  const out: [string, [number, number][]][] = []
  while (merge.next()) {
    const held: [number, number][] = []
    for (let i = 0; i < merge.count; i++) {
      held.push([merge.sources[i]!, merge.entries[i]!.list])
    }
    out.push([merge.term, held])
  }
  return out
}

describe('TermMerge', () => {
  it('steps through the union of sorted lists, naming the lists that hold each term', () => {
    expect(steps([['b', 'd'], [], ['a', 'b', 'e'], ['d']])).toEqual([
      ['a', [[2, 2]]],
      [
        'b',
        [
          [0, 0],
          [2, 2],
        ],
      ],
      [
        'd',
        [
          [0, 0],
          [3, 3],
        ],
      ],
      ['e', [[2, 2]]],
    ])
  })

  it('orders terms by code point, not by UTF-16 unit (an astral letter after U+FFFD)', () => {
    // '𝛼' (U+1D6FC) is a surrogate pair starting 0xD835, below '\uFFFD' in UTF-16 but above it by code point
    expect(
      steps([
        ['z', '\uFFFD'],
        ['é', '𝛼'],
      ]).map(([term]) => term),
    ).toEqual(['z', 'é', '\uFFFD', '𝛼'])
  })

  it('ends at once without lists or with empty lists, and stays ended', () => {
    expect(steps([])).toEqual([])
    const merge = new TermMerge<Entry>([[][Symbol.iterator](), [][Symbol.iterator]()])
    expect(merge.next()).toBe(false)
    expect(merge.next()).toBe(false)
    expect(merge.count).toBe(0)
    expect(merge.term).toBe('')
  })

  it('gives the sorted union with every holder, for random lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 3 }), { maxLength: 12 }), {
          maxLength: 5,
        }),
        (raw) => {
          const lists = raw.map((terms) => [...terms].sort(compareCodePoints))
          const union = [...new Set(lists.flat())].sort(compareCodePoints)
          expect(steps(lists)).toEqual(
            union.map((term) => [
              term,
              lists.flatMap((terms, list) =>
                terms.includes(term) ? [[list, list] as [number, number]] : [],
              ),
            ]),
          )
        },
      ),
    )
  })
})
