import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { loadLightGbm, type LightGbm } from './lightgbm.ts'
import type { LightGbmParams } from './params.ts'
import { parseLightGbmModel } from './scorer/parse-model.ts'
import { scoreRows } from './scorer/score.ts'
import { createSyntheticRankingSet } from './synthetic.ts'
import { lightGbmWorkerOptions } from './worker-task.ts'
import { runToEnd, stopChildren } from '../test/child-process.ts'

// The threaded build (wasm/threaded/, `pnpm build`): LightGBM's OpenMP loops on Emscripten
// pthreads through csrc/omp/pubmatch_omp.c.
const train = createSyntheticRankingSet({ numQueries: 150, docsPerQuery: [10, 40], numFeatures: 30, seed: 5 })
const valid = createSyntheticRankingSet({ numQueries: 40, docsPerQuery: [10, 40], numFeatures: 30, seed: 6 })
const params: LightGbmParams = {
  objective: 'lambdarank',
  metric: 'ndcg',
  eval_at: [10],
  num_leaves: 15,
  min_data_in_leaf: 5,
  deterministic: true,
  force_col_wise: true,
  seed: 1,
  verbosity: -1,
}

let single: LightGbm
let threaded: LightGbm
beforeAll(async () => {
  single = await loadLightGbm()
  threaded = await loadLightGbm({ threads: 2 })
})
afterAll(async () => {
  await threaded.terminate()
})

async function caught(promise: Promise<unknown>): Promise<PubmatchError> {
  try {
    await promise
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

function trainModel(lightgbm: LightGbm, extra: LightGbmParams = {}): string {
  const { booster } = lightgbm.train({ params: { ...params, ...extra }, train, numBoostRound: 25 })
  const text = booster.saveModel()
  booster.free()
  return text
}

describe('loadLightGbm({ threads })', () => {
  it('loads the threaded build for more than one thread and the single-threaded one by default', () => {
    expect(threaded.threads).toBe(2)
    expect(threaded.build).toMatchObject({ variant: 'wasm-eh-simd-mt-fx', threaded: true })
    expect(single.threads).toBe(1)
    expect(single.build).toMatchObject({ variant: 'wasm-eh-simd-fx', threaded: false })
  })

  it('rejects a thread count that is not a whole number from 1 to 64', async () => {
    const error = await caught(loadLightGbm({ threads: 0 }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatchInlineSnapshot(`"threads must be a whole number from 1 to 64, got 0"`)
    expect((await caught(loadLightGbm({ threads: 1.5 }))).message).toMatch(/got 1\.5$/)
    expect((await caught(loadLightGbm({ threads: 65 }))).message).toMatch(/got 65$/)
  })

  it('rejects a spin count that is not a whole number from 0 to 2^31 − 1', async () => {
    const error = await caught(loadLightGbm({ threads: 2, spinPolls: -1 }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatchInlineSnapshot(`"spinPolls must be a whole number from 0 to 2147483647, got -1"`)
    expect((await caught(loadLightGbm({ threads: 2, spinPolls: 0.5 }))).message).toMatch(/got 0\.5$/)
  })

  it("passes a pool's workerData threads and spinPolls on to each worker's instance", () => {
    expect(lightGbmWorkerOptions({ threads: 2, spinPolls: 0 })).toEqual({ threads: 2, spinPolls: 0 })
    expect(lightGbmWorkerOptions({ threads: 2 })).toEqual({ threads: 2 })
    expect(lightGbmWorkerOptions(undefined)).toEqual({})
    expect(lightGbmWorkerOptions('x')).toEqual({})
  })

  it('refuses more than one thread with a single-threaded build', async () => {
    const error = await caught(loadLightGbm({ threads: 2, wasmDir: new URL('../wasm/', import.meta.url) }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatch(/^threads: 2 needs a threaded build, but .*wasm\/ holds the single-threaded build wasm-eh-simd-fx$/)
  })
})

describe('training with two threads', () => {
  it("runs LightGBM's parallel loops on a team of two threads", () => {
    const before = threaded.stats().parallelRegions
    trainModel(threaded)
    const stats = threaded.stats()
    expect(stats.parallelRegions).toBeGreaterThan(before)
    expect(stats.largestTeam).toBe(2)
    expect(single.stats()).toMatchObject({ parallelRegions: 0, largestTeam: 1 })
  })

  it('runs every region on one thread when num_threads is 1', () => {
    const before = threaded.stats().parallelRegions
    trainModel(threaded, { num_threads: 1 })
    expect(threaded.stats().parallelRegions).toBe(before)
  })

  it('trains the same model text as the single-threaded build (deterministic, col-wise)', () => {
    expect(trainModel(threaded)).toBe(trainModel(single))
  })

  it('trains models that score exactly as the TypeScript scorer does', () => {
    const { booster } = threaded.train({
      params: { ...params, deterministic: false, force_col_wise: false, force_row_wise: true },
      train,
      valid: [{ name: 'valid', data: valid }],
      numBoostRound: 25,
    })
    const wasmScores = booster.predict(valid.features, { kind: 'raw' })
    const tsScores = scoreRows(parseLightGbmModel(booster.saveModel()), valid.features, { raw: true })
    expect(wasmScores.length).toBe(valid.features.numRows)
    expect(Array.from(wasmScores).every((score, i) => Object.is(score, tsScores[i]))).toBe(true)
    booster.free()
  })

  it('trains the same model whether waiting threads poll or sleep at once (spinPolls: 0)', async () => {
    const passive = await loadLightGbm({ threads: 2, spinPolls: 0 })
    expect(trainModel(passive)).toBe(trainModel(single))
    expect(passive.stats().largestTeam).toBe(2)
    await passive.terminate()
  })

  it('runs the threaded build on one thread when loaded with threads: 1', async () => {
    const one = await loadLightGbm({ threads: 1, wasmDir: new URL('../wasm/threaded/', import.meta.url) })
    expect(one.build.threaded).toBe(true)
    expect(trainModel(one)).toBe(trainModel(single))
    expect(one.stats()).toMatchObject({ parallelRegions: 0, largestTeam: 1 })
    await one.terminate()
  })

  it("reports LightGBM's errors as PubmatchErrors and keeps working after them", () => {
    let error: unknown
    try {
      threaded.train({ params: { ...params, objective: 'nonsense' }, train, numBoostRound: 5 })
    } catch (caughtError) {
      error = caughtError
    }
    expect(isPubmatchError(error, 'LIGHTGBM')).toBe(true)
    expect((error as Error).message).toMatch(/Unknown objective type name: nonsense/)
    expect(threaded.stats()).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
    expect(trainModel(threaded)).toBe(trainModel(single))
  })

  it('frees every handle and returns the memory', () => {
    const heapBefore = threaded.stats().heapInUseBytes
    trainModel(threaded)
    const after = threaded.stats()
    expect(after).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
    expect(after.heapInUseBytes).toBeLessThanOrEqual(heapBefore + 64 * 1024)
  })
})

describe('threaded instance lifetime', () => {
  afterEach(async () => {
    await stopChildren()
  })

  // Plain Node loads the built dist (the sources are TypeScript): `pnpm build` first.
  const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url))
  const distTesting = fileURLToPath(new URL('../dist/testing.js', import.meta.url))

  it('does not keep the process alive after training', async () => {
    expect(existsSync(dist), `${dist} is missing: run pnpm build`).toBe(true)
    const script = `
      const m = await import(${JSON.stringify(dist)})
      const { createSyntheticRankingSet } = await import(${JSON.stringify(distTesting)})
      const lightgbm = await m.loadLightGbm({ threads: 2 })
      const set = createSyntheticRankingSet({ numQueries: 20, docsPerQuery: 20, numFeatures: 8, seed: 1 })
      const { booster } = lightgbm.train({ params: { objective: 'lambdarank', verbosity: -1 }, train: set, numBoostRound: 5 })
      booster.free()
      console.log('trained on', lightgbm.stats().largestTeam, 'threads')
    `
    // No time limit: a process kept alive never ends, and the suite's hang guard fails the test.
    const result = await runToEnd(process.execPath, ['--input-type=module', '-e', script])
    expect(result.signal).toBeNull()
    expect(result.stderr).toBe('')
    expect(result.stdout.trim()).toBe('trained on 2 threads')
    expect(result.status).toBe(0)
  })
})
