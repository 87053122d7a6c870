import { describe, expect, it } from 'vitest'
import type { StoredDocument } from '@pubmatch/index'
import { createRecordCache } from './record-cache.ts'

/** A reader of made-up records that counts its reads. */
function counting(): { read: (doc: number) => StoredDocument; reads: number[] } {
  const reads: number[] = []
  return {
    reads,
    read: (doc) => {
      reads.push(doc)
      return { id: String(doc), title: `record ${doc}`, authors: [], authorCount: 0, pubTypes: [], languages: [] }
    },
  }
}

describe('createRecordCache', () => {
  it('reads a record once while it is kept, and drops the least recently used one when full', () => {
    const source = counting()
    const cache = createRecordCache(source.read, 3)
    const first = cache.get(1)
    expect(first.title).toBe('record 1')
    cache.get(2)
    cache.get(3)
    expect(cache.get(1)).toBe(first) // 1 is now the most recent: order 2, 3, 1
    cache.get(4) // full: drops 2, the least recently used
    expect(cache.size).toBe(3)
    cache.get(3)
    cache.get(1)
    cache.get(2) // read again; drops 4 (order was 4, 3, 1)
    cache.get(4) // read again; drops 3
    expect(source.reads).toEqual([1, 2, 3, 4, 2, 4])
    expect(cache.stats).toEqual({ hits: 3, misses: 6 })
    expect(cache.size).toBe(3)
  })

  it('keeps nothing with a capacity of 0', () => {
    const source = counting()
    const cache = createRecordCache(source.read, 0)
    cache.get(7)
    cache.get(7)
    expect(source.reads).toEqual([7, 7])
    expect(cache.size).toBe(0)
  })

  it('refuses a capacity that is not a non-negative whole number', () => {
    for (const capacity of [-1, 1.5, Number.NaN, Infinity]) {
      expect(() => createRecordCache(counting().read, capacity)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }
  })
})
