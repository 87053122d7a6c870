import { beforeAll, describe, expect, it } from 'vitest'
import { loadLightGbm, type LightGbm } from '../lightgbm.ts'
import { featureMatrixFromRows, type FeatureMatrix } from '../matrix.ts'
import type { LightGbmParams } from '../params.ts'
import { createSyntheticRankingSet } from '../synthetic.ts'
import { compileModel } from './codegen.ts'
import { parseLightGbmModel, type LightGbmModel } from './parse-model.ts'
import { explainRow, scoreRows } from './score.ts'

let lightgbm: LightGbm
beforeAll(async () => {
  lightgbm = await loadLightGbm()
})

/**
 * One tree, written by hand. Node 0: feature `a` numerical, threshold 0.5, decision_type
 * 10 = NaN missing (2 << 2) + default left (2). Node 1: feature `b` categorical
 * (decision_type 1), bitset word 6 = categories {1, 2} go left.
 *        a <= 0.5 (NaN → left)
 *        /               \
 *   b ∈ {1,2}          leaf 1: 0.2
 *    /      \
 * leaf 0: 0.1  leaf 2: 0.3
 */
const HAND_MODEL = `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=1
objective=lambdarank
feature_names=a b
feature_infos=none none

Tree=0
num_leaves=3
num_cat=1
split_feature=0 1
split_gain=1 1
threshold=0.5 0
decision_type=10 1
left_child=1 -1
right_child=-2 -3
leaf_value=0.10000000000000001 0.20000000000000001 0.29999999999999999
leaf_weight=1 1 1
leaf_count=1 1 1
internal_value=0 0
internal_weight=0 0
internal_count=3 2
cat_boundaries=0 1
cat_threshold=6
is_linear=0
shrinkage=1


end of trees
`

const HAND_ROWS: [number[], number][] = [
  [[0.3, 1], 0.1], // left, category 1 in {1, 2}
  [[0.3, 3], 0.3], // left, category 3 not in the set
  [[Number.NaN, 2], 0.1], // NaN goes left by default, category 2
  [[0.7, 1], 0.2], // right
  [[0.5, 2], 0.1], // equal to the threshold: left
  [[0.3, Number.NaN], 0.3], // NaN category: right
  [[0.3, -1], 0.3], // negative category: right
  [[0.3, 2.9], 0.1], // categories truncate: 2
  [[0.3, 40], 0.3], // beyond the bitset: right
]

describe('scoreRows on a hand-written model', () => {
  it('follows numerical, categorical and missing-value decisions', () => {
    const model = parseLightGbmModel(HAND_MODEL)
    expect(model.featureNames).toEqual(['a', 'b'])
    const rows = featureMatrixFromRows(HAND_ROWS.map(([row]) => row))
    expect(Array.from(scoreRows(model, rows))).toEqual(HAND_ROWS.map(([, score]) => score))
  })

  it('agrees with LightGBM loading the same text', () => {
    const rows = featureMatrixFromRows(HAND_ROWS.map(([row]) => row))
    const booster = lightgbm.loadModel(HAND_MODEL)
    expect(scoreRows(parseLightGbmModel(HAND_MODEL), rows)).toEqual(booster.predict(rows))
    booster.free()
  })

  it('explains a row by its path and leaf', () => {
    const explanation = explainRow(parseLightGbmModel(HAND_MODEL), [0.3, 3])
    expect(explanation).toEqual({ value: 0.29999999999999999, trees: [{ tree: 0, leaf: 2, value: 0.29999999999999999, path: [0, 1] }] })
  })

  it('sends zero (and |x| ≤ 1e-35) to the default side of a zero-missing split', () => {
    // decision_type 6 = zero missing (1 << 2) + default left (2); threshold -1 would send 0 right.
    const text = HAND_MODEL.replace('decision_type=10 1', 'decision_type=6 1').replace('threshold=0.5 0', 'threshold=-1 0')
    const model = parseLightGbmModel(text)
    const rows = featureMatrixFromRows([[0, 1], [1e-36, 1], [-0, 1], [Number.NaN, 1], [1e-30, 1], [-2, 1]])
    expect(Array.from(scoreRows(model, rows))).toEqual([0.1, 0.1, 0.1, 0.1, 0.2, 0.1])
    const booster = lightgbm.loadModel(text)
    expect(scoreRows(model, rows)).toEqual(booster.predict(rows))
    booster.free()
  })
})

describe('parseLightGbmModel', () => {
  it('rejects text that is not a LightGBM model, naming the line', () => {
    expect(() => parseLightGbmModel('{"version": 1}')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: not a LightGBM text model: the first line is not "tree" at line 1: "{"version": 1}"]`,
    )
    expect(() => parseLightGbmModel(HAND_MODEL.replace('leaf_value=0.10000000000000001 ', 'leaf_value='))).toThrow(
      /leaf_value has 2 values, expected 3 at line 11/,
    )
    expect(() => parseLightGbmModel(HAND_MODEL.replace('version=v4', 'version=v9'))).toThrow(/"v9" is not v3 or v4/)
  })
})

/** Rows that sit exactly on, just below and just above every threshold of the model. */
function thresholdRows(text: string, base: FeatureMatrix): FeatureMatrix {
  const model = parseLightGbmModel(text)
  const rows: number[][] = []
  const template = Array.from(base.data.subarray(0, base.numFeatures))
  for (const tree of model.trees.slice(0, 20)) {
    tree.splitFeature.forEach((feature, node) => {
      const t = tree.threshold[node] ?? 0
      for (const value of [t, t - Math.abs(t) * 1e-12 - 1e-300, t + Math.abs(t) * 1e-12 + 1e-300]) {
        const row = [...template]
        row[feature] = value
        rows.push(row)
      }
    })
  }
  return featureMatrixFromRows(rows)
}

function agree(
  params: LightGbmParams,
  options: { numFeatures?: number; dtype?: 'float32' | 'float64'; rounds?: number; trainMissingRate?: number } = {},
): LightGbmModel {
  const numFeatures = options.numFeatures ?? 12
  const train = createSyntheticRankingSet({
    numQueries: 60,
    docsPerQuery: [5, 30],
    numFeatures,
    seed: 21,
    missingRate: options.trainMissingRate ?? 0.1,
    dtype: options.dtype ?? 'float64',
  })
  const test = createSyntheticRankingSet({ numQueries: 40, docsPerQuery: [5, 30], numFeatures, seed: 22, missingRate: 0.2, dtype: options.dtype ?? 'float64' })
  const { booster } = lightgbm.train({ params: { verbosity: -1, min_data_in_leaf: 3, ...params }, train, numBoostRound: options.rounds ?? 30 })
  const text = booster.saveModel()
  const model = parseLightGbmModel(text)
  for (const rows of [test.features, train.features, thresholdRows(text, test.features)]) {
    expect(scoreRows(model, rows, { raw: true })).toEqual(booster.predict(rows, { kind: 'raw' }))
    expect(scoreRows(model, rows, { raw: true, engine: 'interpreter' })).toEqual(booster.predict(rows, { kind: 'raw' }))
    expect(scoreRows(model, rows, { raw: true, startIteration: 5, numIteration: 10 })).toEqual(
      booster.predict(rows, { kind: 'raw', startIteration: 5, numIteration: 10 }),
    )
    const normal = booster.predict(rows)
    scoreRows(model, rows).forEach((score, i) => {
      expect(Math.abs(score - (normal[i] ?? Number.NaN))).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(score)))
    })
  }
  booster.free()
  return model
}

/** How many internal nodes have `decision_type` bits matching `mask`/`value`. */
function countNodes(model: LightGbmModel, mask: number, value: number): number {
  return model.trees.reduce((sum, tree) => sum + tree.decisionType.filter((type) => (type & mask) === value).length, 0)
}

describe('scoreRows against LightGBM WebAssembly predict', () => {
  it('gives identical lambdarank scores with NaN missing values', () => {
    const model = agree({ objective: 'lambdarank', num_leaves: 31 })
    expect(countNodes(model, 0b1100, 0b1000)).toBeGreaterThan(0) // NaN missing type
    expect(compileModel(model)).toBeUndefined() // interpreted
  })

  it('gives identical scores when no node has a missing-value type (the inline and compiled paths), NaN rows included', () => {
    const model = agree({ objective: 'lambdarank', num_leaves: 31 }, { trainMissingRate: 0 })
    expect(countNodes(model, 0b1101, 0)).toBe(model.trees.reduce((n, tree) => n + tree.numLeaves - 1, 0))
    expect(compileModel(model)).toBeDefined()
  })

  it('gives identical scores for multiclass through the compiled path', () => {
    const model = agree({ objective: 'multiclass', num_class: 5, num_leaves: 7 }, { rounds: 12, trainMissingRate: 0 })
    expect(compileModel(model)).toBeDefined()
  })

  it('gives identical scores from float32 input', () => {
    agree({ objective: 'lambdarank', num_leaves: 15 }, { dtype: 'float32' })
  })

  it('gives identical scores with zero_as_missing', () => {
    const model = agree({ objective: 'lambdarank', num_leaves: 15, zero_as_missing: true })
    expect(countNodes(model, 0b1100, 0b0100)).toBeGreaterThan(0) // zero missing type
  })

  it('gives identical scores with categorical splits', () => {
    // features 3 and 10 hold small counts 0..9 (every 7th from 3)
    const model = agree({ objective: 'lambdarank', num_leaves: 15, categorical_feature: [3, 10], min_data_per_group: 5, cat_smooth: 1 })
    expect(countNodes(model, 0b0001, 0b0001)).toBeGreaterThan(0) // categorical
  })

  it('gives identical raw scores and sigmoid outputs for a binary model', () => {
    agree({ objective: 'binary', num_leaves: 15 })
  })

  it('gives identical scores for multiclass softmax', () => {
    agree({ objective: 'multiclass', num_class: 5, num_leaves: 7 }, { rounds: 12 })
  })

  it('gives identical scores for linear trees', () => {
    const model = agree({ objective: 'regression', linear_tree: true, num_leaves: 7 })
    expect(model.trees.some((tree) => tree.linear !== undefined)).toBe(true)
  })

  it('gives identical scores for an averaged random forest', () => {
    const model = agree({ objective: 'regression', boosting: 'rf', bagging_freq: 1, bagging_fraction: 0.7, num_leaves: 7 })
    expect(model.averageOutput).toBe(true)
  })
})
