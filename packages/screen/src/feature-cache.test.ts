import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cachedFeatures, decodeFeatures, encodeFeatures, featureCacheKey } from './feature-cache.ts'
import type { FeatureMatrix } from './features.ts'

const MATRIX: FeatureMatrix = {
  names: ['aspirin', 'mesh:stroke', 'stroke'],
  rows: [
    { indices: Int32Array.from([0, 2]), values: Float64Array.from([0.6, 0.8]) },
    { indices: new Int32Array(0), values: new Float64Array(0) },
    { indices: Int32Array.from([1]), values: Float64Array.from([1]) },
  ],
}

describe('the feature cache', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-features-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('decodes what it encodes, and nothing for another key', () => {
    const bytes = encodeFeatures(MATRIX, 'k')
    expect(decodeFeatures(bytes, 'k')).toEqual(MATRIX)
    expect(decodeFeatures(bytes, 'other')).toBeUndefined()
    expect(() => decodeFeatures(bytes.subarray(0, bytes.length - 1), 'k')).toThrow(/not a screening feature cache/)
    expect(() => decodeFeatures(Uint8Array.from([1, 0, 0, 0, 0x7b]), 'k')).toThrow(/header is not JSON/)
  })

  it('keys on the project text and the options', () => {
    expect(featureCacheKey('a', { bigrams: true })).not.toBe(featureCacheKey('b', { bigrams: true }))
    expect(featureCacheKey('a', { bigrams: true })).not.toBe(featureCacheKey('a', { bigrams: false }))
    expect(featureCacheKey('a', { bigrams: true })).toBe(featureCacheKey('a', { bigrams: true }))
  })

  it('builds once, then reads; rebuilds a damaged or stale file', async () => {
    const file = join(dir, 'features.bin')
    let builds = 0
    const build = (): FeatureMatrix => {
      builds++
      return MATRIX
    }
    expect((await cachedFeatures(file, 'k', build)).cached).toBe(false)
    const second = await cachedFeatures(file, 'k', build)
    expect([second.cached, builds]).toEqual([true, 1])
    expect(second.matrix).toEqual(MATRIX)
    await writeFile(file, 'garbage')
    expect((await cachedFeatures(file, 'k', build)).cached).toBe(false)
    expect((await cachedFeatures(file, 'k2', build)).cached).toBe(false)
    expect((await cachedFeatures(file, 'k2', build)).cached).toBe(true)
    expect(builds).toBe(3)
  })
})
