import { beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { loadLightGbm, type LightGbm } from './lightgbm.ts'
import { featureMatrixFromRows } from './matrix.ts'
import type { LightGbmParams } from './params.ts'
import { createSyntheticRankingSet } from './synthetic.ts'

let lightgbm: LightGbm
beforeAll(async () => {
  lightgbm = await loadLightGbm()
})

function caught(fn: () => unknown): PubmatchError {
  try {
    fn()
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

const small = createSyntheticRankingSet({ numQueries: 4, docsPerQuery: 10, numFeatures: 5, seed: 2 })
const smallParams: LightGbmParams = {
  objective: 'lambdarank',
  metric: 'ndcg',
  eval_at: [3],
  num_leaves: 4,
  min_data_in_leaf: 2,
  min_data_in_bin: 1,
  force_col_wise: true,
  verbosity: -1,
}

describe('loadLightGbm', () => {
  it('records the build it loaded', () => {
    expect(lightgbm.build.lightgbm).toMatch(/^4\.1\./)
    expect(lightgbm.build.wasmBytes).toBeGreaterThan(1_000_000)
  })

  it('gives each instance its own memory', async () => {
    const other = await loadLightGbm()
    const dataset = other.createDataset(small)
    expect(other.stats().liveDatasets).toBe(1)
    expect(lightgbm.stats().liveDatasets).toBe(0)
    expect(() => lightgbm.createBooster(dataset, smallParams)).toThrow(/another LightGBM instance/)
    dataset.free()
  })
})

describe('LightGbm.createDataset', () => {
  it('reports rows and features and keeps labels and groups', () => {
    const dataset = lightgbm.createDataset(small)
    expect(dataset.numRows).toBe(40)
    expect(dataset.numFeatures).toBe(5)
    expect(Array.from(dataset.groups ?? [])).toEqual([10, 10, 10, 10])
    expect(dataset.labels).toEqual(small.labels)
    dataset.free()
    expect(dataset.freed).toBe(true)
    dataset.free()
  })

  it('rejects query groups that do not sum to the rows', () => {
    const error = caught(() => lightgbm.createDataset({ ...small, groups: [10, 10, 10] }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatchInlineSnapshot(`"query group sizes sum to 30, but the data has 40 rows"`)
    expect(caught(() => lightgbm.createDataset({ ...small, groups: [10, 10, 20.5, -0.5] })).message).toMatch(
      /group 2 has size 20.5/,
    )
  })

  it('rejects labels of the wrong count or not finite', () => {
    expect(caught(() => lightgbm.createDataset({ ...small, labels: [1, 2] })).message).toMatchInlineSnapshot(
      `"2 labels for 40 rows"`,
    )
    const labels = Float32Array.from(small.labels)
    labels[7] = Number.NaN
    expect(caught(() => lightgbm.createDataset({ ...small, labels })).message).toMatch(/labels of row 7 is NaN/)
  })

  it('rejects a validation dataset whose feature count differs from its reference', () => {
    const train = lightgbm.createDataset(small)
    const narrow = createSyntheticRankingSet({ numQueries: 2, docsPerQuery: 5, numFeatures: 4, seed: 3 })
    const error = caught(() => lightgbm.createDataset(narrow, { reference: train }))
    expect(error.code).toBe('FEATURE_COUNT_MISMATCH')
    expect(error.message).toMatchInlineSnapshot(`"dataset has 4 features, its reference dataset 5"`)
    train.free()
  })

  it('refuses to free a dataset a live booster trains on', () => {
    const train = lightgbm.createDataset(small, { params: smallParams })
    const booster = lightgbm.createBooster(train, smallParams)
    expect(caught(() => train.free()).message).toMatch(/still used by 1 booster/)
    booster.free()
    train.free()
    expect(lightgbm.stats()).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
  })
})

describe('LightGbm.train input checks', () => {
  it('rejects ranking labels beyond label_gain', () => {
    const labels = Float32Array.from(small.labels)
    labels[3] = 5
    const error = caught(() =>
      lightgbm.train({ params: { ...smallParams, label_gain: [0, 1, 3, 7, 15] }, train: { ...small, labels }, numBoostRound: 1 }),
    )
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatchInlineSnapshot(
      `"training data label of row 3 is 5; ranking labels must be whole numbers from 0 to 4 (the length of label_gain minus one)"`,
    )
    const fractional = Float32Array.from(small.labels)
    fractional[0] = 0.5
    expect(caught(() => lightgbm.train({ params: smallParams, train: { ...small, labels: fractional } })).message).toMatch(
      /row 0 is 0.5/,
    )
    expect(lightgbm.stats()).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
  })

  it('rejects ranking data without query groups', () => {
    expect(
      caught(() => lightgbm.train({ params: smallParams, train: { features: small.features, labels: small.labels } })).message,
    ).toMatchInlineSnapshot(`"training data has no query groups, which ranking needs"`)
  })

  it('rejects early stopping without a validation set', () => {
    expect(caught(() => lightgbm.train({ params: smallParams, train: small, earlyStoppingRounds: 3 })).code).toBe(
      'INVALID_ARGUMENT',
    )
  })
})

describe('LightGBM errors', () => {
  it('surfaces LightGBM own message for an unknown objective', () => {
    const train = lightgbm.createDataset(small)
    const error = caught(() => lightgbm.createBooster(train, { objective: 'nonsense' }))
    expect(error.code).toBe('LIGHTGBM')
    expect(error.message).toMatchInlineSnapshot(`"LGBM_BoosterCreate failed: Unknown objective type name: nonsense"`)
    expect(error.details).toMatchObject({ function: 'LGBM_BoosterCreate' })
    train.free()
    expect(lightgbm.stats()).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
  })

  it('surfaces LightGBM own message for a parameter it refuses', () => {
    const error = caught(() => lightgbm.train({ params: { ...smallParams, num_leaves: 1 }, train: small, numBoostRound: 1 }))
    expect(error.code).toBe('LIGHTGBM')
    expect(error.message).toMatch(/^LGBM_(DatasetCreateFromMat|BoosterCreate) failed: .*num_leaves/)
    expect(lightgbm.stats()).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
  })

  it('surfaces LightGBM own message for a broken model text', () => {
    const error = caught(() => lightgbm.loadModel('tree\nversion=v4\nnot a model'))
    expect(error.code).toBe('LIGHTGBM')
    expect(error.message).toMatch(/^LGBM_BoosterLoadModelFromString failed: /)
  })

  it('rejects prediction rows with another feature count', () => {
    const { booster } = lightgbm.train({ params: smallParams, train: small, numBoostRound: 2 })
    const error = caught(() => booster.predict(featureMatrixFromRows([[1, 2, 3]])))
    expect(error.code).toBe('FEATURE_COUNT_MISMATCH')
    expect(error.message).toMatchInlineSnapshot(`"the model expects 5 features, the rows have 3"`)
    booster.free()
    expect(caught(() => booster.predict(small.features)).message).toMatch(/booster was freed/)
  })
})

describe('native memory', () => {
  const cycle = (objective: string): void => {
    const { booster } = lightgbm.train({
      params: { ...smallParams, objective },
      train: small,
      valid: [{ name: 'valid', data: small }],
      numBoostRound: 3,
    })
    booster.predict(small.features)
    lightgbm.loadModel(booster.saveModel()).free()
    booster.free()
  }
  const repeat = (objective: string, times: number): void => {
    for (let i = 0; i < times; i += 1) {
      cycle(objective)
    }
  }

  it('counts the memory a live dataset holds and gets it back on free', () => {
    const before = lightgbm.stats()
    const dataset = lightgbm.createDataset(small)
    expect(lightgbm.stats().heapInUseBytes).toBeGreaterThan(before.heapInUseBytes)
    dataset.free()
    expect(lightgbm.stats()).toEqual(before)
  })

  it('does not grow across 1,000 train/predict/save/load/free cycles', () => {
    // rank_xendcg: a ranking objective with groups and NDCG, without lambdarank's 2^20-entry
    // sigmoid table that takes ~0.1 s to fill per booster in WebAssembly.
    repeat('rank_xendcg', 20)
    const before = lightgbm.stats()
    repeat('rank_xendcg', 1000)
    const after = lightgbm.stats()
    expect(after).toEqual({ ...before, liveDatasets: 0, liveBoosters: 0 })
  })

  it('does not grow across lambdarank train/free cycles', () => {
    repeat('lambdarank', 5)
    const before = lightgbm.stats()
    repeat('lambdarank', 40)
    expect(lightgbm.stats()).toEqual({ ...before, liveDatasets: 0, liveBoosters: 0 })
  })
})
