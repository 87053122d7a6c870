import { describe, expect, it } from 'vitest'
import { createRng, createXoshiro128, hashString, mix32 } from './random.ts'

describe('createXoshiro128', () => {
  it('matches the reference C implementation (prng.di.unimi.it/xoshiro128starstar.c) from state {1, 2, 3, 4}', () => {
    // Printed by the reference next() compiled with gcc: the first 8 outputs and the 1001st.
    const rng = createXoshiro128([1, 2, 3, 4])
    const first = Array.from({ length: 8 }, () => rng.next())
    expect(first).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
    ])
    for (let i = 0; i < 992; i++) {
      rng.next()
    }
    expect(rng.next()).toBe(136054147)
  })

  it('rejects the all-zero state', () => {
    expect(() => createXoshiro128([0, 0, 0, 0])).toThrow(RangeError)
  })
})

describe('mix32', () => {
  it('is MurmurHash3 fmix32 (values from the C finaliser)', () => {
    expect(mix32(0)).toBe(0)
    expect(mix32(1)).toBe(1364076727)
    expect(mix32(0xdeadbeef)).toBe(233162409)
  })
})

describe('hashString', () => {
  it('is fmix32 of 32-bit FNV-1a (FNV test vectors a = e40c292c, foobar = bf9cf968)', () => {
    expect(hashString('a')).toBe(mix32(0xe40c292c))
    expect(hashString('foobar')).toBe(mix32(0xbf9cf968))
    expect(hashString('a')).toBe(444641715)
    expect(hashString('')).toBe(2872998923)
  })
})

describe('createRng', () => {
  it('gives the same stream for the same seed and stream', () => {
    const a = createRng(7, 3)
    const b = createRng(7, 3)
    expect(Array.from({ length: 50 }, () => a.next())).toEqual(
      Array.from({ length: 50 }, () => b.next()),
    )
  })

  it('gives different streams for neighbouring seeds and stream indexes', () => {
    const first = (seed: number, stream: number): number[] => {
      const rng = createRng(seed, stream)
      return Array.from({ length: 4 }, () => rng.next())
    }
    expect(first(1, 0)).not.toEqual(first(2, 0))
    expect(first(1, 0)).not.toEqual(first(1, 1))
    expect(first(1, 1)).not.toEqual(first(2, 0))
  })

  it('draws floats in [0, 1), integers in [0, n) and standard normals', () => {
    const rng = createRng(11)
    let sum = 0
    let sumSquares = 0
    let outOfRange = 0
    const n = 100_000
    for (let i = 0; i < n; i++) {
      const u = rng.float()
      const k = rng.int(6)
      if (!(u >= 0 && u < 1) || !Number.isInteger(k) || k < 0 || k >= 6) {
        outOfRange++
      }
      const z = rng.normal()
      sum += z
      sumSquares += z * z
    }
    expect(outOfRange).toBe(0)
    // Mean 0 (standard error 0.003) and variance 1 (standard error 0.0045).
    expect(Math.abs(sum / n)).toBeLessThan(0.015)
    expect(Math.abs(sumSquares / n - 1)).toBeLessThan(0.025)
  })
})
