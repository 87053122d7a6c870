import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { loadLightGbm } from '../lightgbm.ts'
import type { LightGbmParams } from '../params.ts'
import { createSyntheticRankingSet } from '../synthetic.ts'
import {
  lightGbmWorkerOptions,
  unwrapWorkerOutcome,
  type TrainTask,
  type TrainTaskResult,
  type WorkerOutcome,
  type WorkerTask,
} from '../worker-task.ts'

// Workers load the built dist (CONTRIBUTING.md, "Public API"): `pnpm build` first (turbo's test
// task does).
const workerFile = fileURLToPath(new URL('../../dist/workers/lightgbm.worker.js', import.meta.url))

const params: LightGbmParams = {
  objective: 'lambdarank',
  metric: 'ndcg',
  eval_at: [10],
  num_leaves: 15,
  min_data_in_leaf: 5,
  force_col_wise: true,
  verbosity: -1,
}
const folds = [31, 32, 33, 34].map((seed) => ({
  train: createSyntheticRankingSet({ numQueries: 60, docsPerQuery: [10, 30], numFeatures: 16, seed }),
  valid: createSyntheticRankingSet({ numQueries: 20, docsPerQuery: [10, 30], numFeatures: 16, seed: seed + 100 }),
}))
const trainTask = (fold: (typeof folds)[number]): TrainTask => ({
  kind: 'train',
  params,
  train: fold.train,
  valid: [{ name: 'valid', data: fold.valid }],
  numBoostRound: 30,
  earlyStoppingRounds: 5,
})

let pool: Piscina<WorkerTask, WorkerOutcome>
beforeAll(() => {
  expect(existsSync(workerFile), `${workerFile} is missing: run pnpm build`).toBe(true)
  // execArgv: [] so the workers do not inherit vitest's `--conditions @pubmatch/source`
  // (plain Node cannot load the .ts sources it points at).
  pool = new Piscina({ filename: workerFile, minThreads: 2, maxThreads: 2, execArgv: [] })
})
afterAll(async () => {
  await pool.destroy()
})

describe('lightgbm.worker', () => {
  it('trains folds in parallel workers to the same models as in-process training', async () => {
    const outcomes = await Promise.all(folds.map((fold) => pool.run(trainTask(fold))))
    const results = outcomes.map((outcome) => unwrapWorkerOutcome(outcome) as TrainTaskResult)
    const lightgbm = await loadLightGbm()
    folds.forEach((fold, i) => {
      const local = lightgbm.train({ ...trainTask(fold), valid: [{ name: 'valid', data: fold.valid }] })
      expect(results[i]?.modelText).toBe(local.booster.saveModel())
      expect(results[i]?.bestIteration).toBe(local.bestIteration)
      expect(results[i]?.importance.split).toEqual(local.booster.featureImportance('split'))
      expect(results[i]?.stats).toMatchObject({ liveDatasets: 0, liveBoosters: 0 })
      local.booster.free()
    })
    expect(pool.threads.length).toBe(2)
  })

  it('predicts in a worker with a model trained in another', async () => {
    const fold = folds[0]!
    const trained = unwrapWorkerOutcome(await pool.run(trainTask(fold))) as TrainTaskResult
    const outcome = await pool.run({ kind: 'predict', modelText: trained.modelText, features: fold.valid.features })
    const lightgbm = await loadLightGbm()
    const booster = lightgbm.loadModel(trained.modelText)
    expect(unwrapWorkerOutcome(outcome)).toEqual({ kind: 'predict', scores: booster.predict(fold.valid.features) })
    booster.free()
  })

  it('brings a failure back as a PubmatchError with its code', async () => {
    const fold = folds[0]!
    const outcome = await pool.run({ ...trainTask(fold), train: { ...fold.train, groups: [1, 2, 3] } })
    expect(outcome.ok).toBe(false)
    try {
      unwrapWorkerOutcome(outcome)
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
      expect((error as Error).message).toMatch(/query group sizes sum to 6/)
    }
  })
})

describe('lightgbm.worker with workerData { threads: 2 }', () => {
  it('trains on a team of two threads inside a piscina worker, to the single-threaded model', async () => {
    // deterministic + col-wise: the two-thread model text equals the one-thread one (threads.test.ts).
    const task: TrainTask = { ...trainTask(folds[0]!), params: { ...params, deterministic: true } }
    const threadedPool = new Piscina<WorkerTask, WorkerOutcome>({
      filename: workerFile,
      minThreads: 1,
      maxThreads: 1,
      execArgv: [],
      workerData: { threads: 2 },
    })
    try {
      const result = unwrapWorkerOutcome(await threadedPool.run(task)) as TrainTaskResult
      expect(result.stats).toMatchObject({ liveDatasets: 0, liveBoosters: 0, largestTeam: 2 })
      expect(result.stats.parallelRegions).toBeGreaterThan(0)
      const lightgbm = await loadLightGbm()
      const local = lightgbm.train({ ...task, valid: [{ name: 'valid', data: folds[0]!.valid }] })
      expect(result.modelText).toBe(local.booster.saveModel())
      local.booster.free()
    } finally {
      // Ends the worker and, with it, the nested worker thread of its instance.
      await threadedPool.destroy()
    }
    expect(threadedPool.threads.length).toBe(0)
  })

  it('reads the thread count from workerData and ignores anything else', () => {
    expect(lightGbmWorkerOptions({ threads: 2 })).toEqual({ threads: 2 })
    expect(lightGbmWorkerOptions({ threads: undefined })).toEqual({})
    expect(lightGbmWorkerOptions(undefined)).toEqual({})
    expect(lightGbmWorkerOptions(null)).toEqual({})
    expect(lightGbmWorkerOptions('2')).toEqual({})
  })
})
