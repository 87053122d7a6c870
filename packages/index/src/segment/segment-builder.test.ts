import { describe, expect, it } from 'vitest'
import { ABSENT, SurfaceIds } from './segment-builder.ts'

describe('SurfaceIds', () => {
  it('tells apart two surface terms with the same 32-bit FNV-1a hash', () => {
    // FNV-1a("t7pfs") = FNV-1a("tovja") = 0xf7867fcf (found by search).
    const ids = new SurfaceIds()
    expect(ids.get('t7pfs')).toBe(ABSENT)
    ids.addMissed('t7pfs', 7)
    expect(ids.get('tovja')).toBe(ABSENT)
    ids.addMissed('tovja', -1)
    expect([ids.get('t7pfs'), ids.get('tovja'), ids.get('t7pft')]).toEqual([7, -1, ABSENT])
  })

  it('keeps every value through the table growing, as a Map does', () => {
    const ids = new SurfaceIds()
    const model = new Map<string, number>()
    for (let i = 0; i < 50_000; i++) {
      const surface = `w${(i * 7919) % 20_011}` // repeats after 20,011 distinct terms
      const found = ids.get(surface)
      if (found === ABSENT) {
        expect(model.has(surface)).toBe(false)
        ids.addMissed(surface, model.size)
        model.set(surface, model.size)
      } else {
        expect(found).toBe(model.get(surface))
      }
    }
    expect(model.size).toBe(20_011)
    for (const [surface, id] of model) {
      expect(ids.get(surface)).toBe(id)
    }
    expect(ids.get('')).toBe(ABSENT)
  })
})
