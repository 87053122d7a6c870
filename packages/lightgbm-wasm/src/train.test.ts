import { beforeAll, describe, expect, it } from 'vitest'
import { loadLightGbm, type LightGbm } from './lightgbm.ts'
import { featureMatrixFromRows } from './matrix.ts'
import type { LightGbmParams } from './params.ts'
import { parseLightGbmModel } from './scorer/parse-model.ts'
import { createSyntheticRankingSet } from './synthetic.ts'

let lightgbm: LightGbm
beforeAll(async () => {
  lightgbm = await loadLightGbm()
})

/** Two queries, two documents each; one feature that separates relevant (1) from not (0). */
const tiny = {
  features: featureMatrixFromRows([[1], [0], [1], [0]]),
  labels: [1, 0, 1, 0],
  groups: [2, 2],
}
const tinyParams: LightGbmParams = {
  objective: 'lambdarank',
  num_leaves: 2,
  min_data_in_leaf: 1,
  min_data_in_bin: 1,
  learning_rate: 0.1,
  verbosity: -1,
}

describe('LightGbm.train on a hand-checked set', () => {
  it('puts ±lr·1/(1-p) in the leaves, as LambdaRank gradients say', () => {
    // Iteration 1, all scores 0, one pair per query: p = σ(0) = 0.5, |ΔNDCG| = 1 − 1/log2(3).
    // low doc:  g = +p·|ΔNDCG|, h = p(1−p)·|ΔNDCG| (both scaled by the same norm factor)
    // leaf = −Σg/Σh · lr = −1/(1−p) · 0.1 = −0.2 (relevant docs +0.2).
    const one = lightgbm.train({ params: tinyParams, train: tiny, numBoostRound: 1 })
    const p1 = one.booster.predict(tiny.features)
    expect(Array.from(p1).map((x) => Number(x.toFixed(6)))).toEqual([0.2, -0.2, 0.2, -0.2])
    one.booster.free()
    // Iteration 2: Δscore = 0.4, p = 1/(1+e^0.4) = 0.401312; leaf = ±lr·(1 + e^−0.4) = ±0.167032
    // (LightGBM reads p from a 2^20-bin sigmoid table, hence the 1e-5 tolerance).
    const two = lightgbm.train({ params: tinyParams, train: tiny, numBoostRound: 2 })
    const p2 = two.booster.predict(tiny.features)
    expect(p2[0]).toBeCloseTo(0.2 + 0.1 * (1 + Math.exp(-0.4)), 5)
    expect(p2[0]).toBeCloseTo(0.367032, 5)
    expect(p2[1]).toBeCloseTo(-0.367032, 5)
    two.booster.free()
  })

  it('scores NDCG@1 = 1 on the training data after one iteration', () => {
    const { booster, history } = lightgbm.train({
      params: { ...tinyParams, metric: 'ndcg', eval_at: [1] },
      train: tiny,
      valid: [{ name: 'train-again', data: tiny }],
      numBoostRound: 1,
    })
    expect(history).toEqual([
      { iteration: 1, evals: [{ dataName: 'train-again', metric: 'ndcg@1', value: 1, higherIsBetter: true }] },
    ])
    booster.free()
  })
})

describe('LightGbm.train on a synthetic ranking set', () => {
  const params: LightGbmParams = {
    objective: 'lambdarank',
    metric: 'ndcg',
    eval_at: [10],
    num_leaves: 15,
    learning_rate: 0.1,
    min_data_in_leaf: 10,
    feature_fraction: 0.9,
    seed: 7,
    verbosity: -1,
  }
  const train = createSyntheticRankingSet({ numQueries: 120, docsPerQuery: [10, 40], numFeatures: 30, seed: 11, missingRate: 0.05 })
  const valid = createSyntheticRankingSet({ numQueries: 40, docsPerQuery: [10, 40], numFeatures: 30, seed: 12, missingRate: 0.05 })

  it('improves validation NDCG@10 over the iterations', () => {
    const { booster, history } = lightgbm.train({ params, train, valid: [{ name: 'valid', data: valid }], numBoostRound: 40 })
    const ndcg = history.map((event) => event.evals[0]?.value ?? Number.NaN)
    expect(history).toHaveLength(40)
    expect(history[0]?.evals[0]?.metric).toBe('ndcg@10')
    const firstFive = ndcg.slice(0, 5).reduce((a, b) => a + b) / 5
    const lastFive = ndcg.slice(-5).reduce((a, b) => a + b) / 5
    expect(lastFive).toBeGreaterThan(firstFive + 0.02)
    booster.free()
  })

  it('stops early at the best iteration and cuts the model there', () => {
    const { booster, bestIteration, bestScores, stoppedEarly, history } = lightgbm.train({
      params: { ...params, learning_rate: 0.3, num_leaves: 31, min_data_in_leaf: 2 },
      train,
      valid: [{ name: 'valid', data: valid }],
      numBoostRound: 500,
      earlyStoppingRounds: 5,
    })
    const ndcg = history.map((event) => event.evals[0]?.value ?? Number.NaN)
    expect(stoppedEarly).toBe(true)
    expect(history.length).toBe(bestIteration + 5)
    const best = ndcg[bestIteration - 1] ?? Number.NaN
    expect(ndcg.slice(0, bestIteration - 1).every((value) => value < best)).toBe(true)
    expect(ndcg.slice(bestIteration).every((value) => value <= best)).toBe(true)
    expect(bestScores[0]?.value).toBe(best)
    expect(booster.currentIteration).toBe(bestIteration)
    // predictions of the cut model equal those of the first `bestIteration` trees
    const kept = lightgbm.train({ params: { ...params, learning_rate: 0.3, num_leaves: 31, min_data_in_leaf: 2 }, train, numBoostRound: bestIteration })
    expect(booster.predict(valid.features)).toEqual(kept.booster.predict(valid.features))
    kept.booster.free()
    booster.free()
  })

  it('stops where onIteration returns false', () => {
    const seen: number[] = []
    const { booster, stoppedEarly } = lightgbm.train({
      params,
      train,
      numBoostRound: 50,
      onIteration: ({ iteration }) => {
        seen.push(iteration)
        return iteration < 3
      },
    })
    expect(seen).toEqual([1, 2, 3])
    expect(stoppedEarly).toBe(true)
    expect(booster.currentIteration).toBe(3)
    booster.free()
  })

  it('saves and loads a model that predicts the same scores', () => {
    const { booster } = lightgbm.train({ params, train, numBoostRound: 25 })
    const text = booster.saveModel()
    const loaded = lightgbm.loadModel(text)
    expect(loaded.currentIteration).toBe(25)
    expect(loaded.predict(valid.features)).toEqual(booster.predict(valid.features))
    expect(loaded.saveModel()).toBe(text)
    loaded.free()
    booster.free()
  })

  it('trains the same model from Float32 and Float64 features holding the same values', () => {
    const f32 = createSyntheticRankingSet({ numQueries: 30, docsPerQuery: 20, numFeatures: 8, seed: 5, dtype: 'float32' })
    const f64 = { ...f32, features: { ...f32.features, data: Float64Array.from(f32.features.data) } }
    const a = lightgbm.train({ params, train: f32, numBoostRound: 10 })
    const b = lightgbm.train({ params, train: f64, numBoostRound: 10 })
    expect(a.booster.saveModel()).toBe(b.booster.saveModel())
    a.booster.free()
    b.booster.free()
  })

  it('reports split and gain importance that match the trees', () => {
    const { booster } = lightgbm.train({ params, train, numBoostRound: 20 })
    const model = parseLightGbmModel(booster.saveModel())
    const splits = new Float64Array(model.numFeatures)
    for (const tree of model.trees) {
      for (const feature of tree.splitFeature) {
        splits[feature] = (splits[feature] ?? 0) + 1
      }
    }
    expect(booster.featureImportance('split')).toEqual(splits)
    const gainText = booster.saveModel().split('\n').filter((line) => line.startsWith('split_gain='))
    const gains = new Float64Array(model.numFeatures)
    gainText.forEach((line, t) => {
      line
        .slice('split_gain='.length)
        .split(' ')
        .forEach((gain, node) => {
          const feature = model.trees[t]?.splitFeature[node] ?? 0
          gains[feature] = (gains[feature] ?? 0) + Number(gain)
        })
    })
    const gain = booster.featureImportance('gain')
    gain.forEach((value, feature) => expect(value).toBeCloseTo(gains[feature] ?? 0, 3))
    expect(booster.featureNames()).toEqual(Array.from({ length: 30 }, (_, i) => `Column_${i}`))
    booster.free()
  })
})
