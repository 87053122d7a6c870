/**
 * The Java evaluator of LightGBM text models (`org.pubmatch.solr.ltr.LightGbmModel`, run through
 * its command line `LightGbmScore`) against three references: a model written and scored by hand,
 * LightGBM itself (the booster that trained or loaded the model, in WebAssembly), and pubmatch's
 * TypeScript scorer (`scoreRows`, interpreted and compiled to WebAssembly, and `explainRow`).
 * Raw scores must be the same doubles. Transformed scores (sigmoid, softmax, exp) must be the same
 * doubles as the TypeScript scorer's (both take `exp` from fdlibm) and agree with LightGBM's
 * within 1e-12 relative (LightGBM takes `exp` from the C library).
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  explainRow,
  featureMatrixFromRows,
  loadLightGbm,
  parseLightGbmModel,
  prepareModel,
  scoreRows,
  type FeatureMatrix,
  type LightGbm,
  type LightGbmModel,
  type LightGbmParams,
} from '@pubmatch/lightgbm-wasm'
import { createSyntheticRankingSet } from '@pubmatch/lightgbm-wasm/testing'
import type { RankerModel } from '@pubmatch/ltr'
import { explainScore } from '@pubmatch/ltr/internal'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaBuilt } from '../src/cluster.ts'

const target = fileURLToPath(new URL('../java/target/', import.meta.url))

/** 2^k as a double, built from its bits (exact for -1022 ≤ k ≤ 1023). */
function pow2(k: number): number {
  const bits = new BigUint64Array([BigInt(k + 1023) << 52n])
  return new Float64Array(bits.buffer)[0]!
}

/** Reads Java's `Double.toHexString` exactly (`0x1.8p1`, `-0x0.0000000000001p-1022`, `NaN`). */
function parseJavaHex(text: string): number {
  const special: Record<string, number> = {
    NaN: Number.NaN,
    Infinity: Number.POSITIVE_INFINITY,
    '-Infinity': Number.NEGATIVE_INFINITY,
  }
  if (text in special) {
    return special[text]!
  }
  const match = /^(-?)0x([01])\.([0-9a-f]+)p(-?\d+)$/.exec(text)
  if (match === null) {
    throw new Error(`not a Java hexadecimal double: ${text}`)
  }
  const [, sign, lead, fraction, exponent] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ]
  // at most 53 significant bits, so the integer and each power-of-two scaling are exact
  const mantissa = Number(BigInt(`0x${lead}${fraction}`))
  const shift = Number(exponent) - 4 * fraction.length
  const value = shift < -1022 ? mantissa * pow2(shift + 600) * pow2(-600) : mantissa * pow2(shift)
  return sign === '-' ? -value : value
}

/** JSON cannot hold NaN or ±Infinity: null and the strings LightGbmScore reads for them. */
function jsonValue(value: number): number | string | null {
  if (Number.isNaN(value)) {
    return null
  }
  return Number.isFinite(value) ? value : String(value)
}

function rowsJson(rows: FeatureMatrix): string {
  const out: (number | string | null)[][] = []
  for (let r = 0; r < rows.numRows; r += 1) {
    out.push(
      Array.from(rows.data.subarray(r * rows.numFeatures, (r + 1) * rows.numFeatures), jsonValue),
    )
  }
  return JSON.stringify(out)
}

/** Concatenates matrices with the same feature count. */
function concatRows(...parts: FeatureMatrix[]): FeatureMatrix {
  const numFeatures = parts[0]!.numFeatures
  const data = new Float64Array(parts.reduce((n, part) => n + part.data.length, 0))
  let offset = 0
  for (const part of parts) {
    data.set(part.data, offset)
    offset += part.data.length
  }
  return { data, numRows: data.length / numFeatures, numFeatures }
}

/** Rows that sit exactly on, just below and just above every threshold of the first 20 trees. */
function thresholdRows(model: LightGbmModel, base: FeatureMatrix): FeatureMatrix {
  const rows: number[][] = []
  const template = Array.from(base.data.subarray(0, base.numFeatures))
  for (const tree of model.trees.slice(0, 20)) {
    tree.splitFeature.forEach((feature, node) => {
      const t = tree.threshold[node]!
      for (const value of [t, t - Math.abs(t) * 1e-12 - 1e-300, t + Math.abs(t) * 1e-12 + 1e-300]) {
        const row = [...template]
        row[feature] = value
        rows.push(row)
      }
    })
  }
  return featureMatrixFromRows(rows)
}

/** Rows of zeros, NaNs, values within ±1e-35 of zero, -0, ±Infinity, huge and negative values. */
function specialRows(numFeatures: number): FeatureMatrix {
  const fill = (f: (j: number) => number): number[] =>
    Array.from({ length: numFeatures }, (_, j) => f(j))
  return featureMatrixFromRows([
    fill(() => 0),
    fill(() => Number.NaN),
    fill(() => -0),
    fill((j) => (j % 2 === 0 ? 1e-36 : -1e-36)),
    fill((j) => (j % 2 === 0 ? 9.99e-36 : 1.01e-35)),
    fill((j) => (j % 3 === 0 ? 0 : j % 3 === 1 ? Number.NaN : 0.5)),
    fill((j) => (j % 2 === 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY)),
    fill((j) => (j % 2 === 0 ? 1e300 : -1e300)),
    fill((j) => -1 - j),
    fill((j) => j + 0.5),
  ])
}

/** The largest relative difference |a − b| / max(|a|, |b|) (0 where both are equal). */
function maxRelativeDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length)
  let max = 0
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!
    const y = b[i]!
    if (Object.is(x, y) || x === y) {
      continue
    }
    max = Math.max(max, Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y)))
  }
  return max
}

/** How many internal nodes have `decision_type` bits matching `mask`/`value`. */
function countNodes(model: LightGbmModel, mask: number, value: number): number {
  return model.trees.reduce(
    (sum, tree) => sum + tree.decisionType.filter((type) => (type & mask) === value).length,
    0,
  )
}

/**
 * Two trees written and scored by hand; features a (numerical), b (categorical), c (numerical);
 * objective binary, sigmoid 1. Every leaf value is a short binary fraction, so every raw sum is
 * exact.
 *
 *   tree 0                                    tree 1
 *   node 0: a <= 1.5                          node 0: c <= 2.5
 *     decision_type 2: default left,            decision_type 10: missing NaN (2 << 2),
 *     missing none (NaN is read as 0)           default left (NaN goes left)
 *     left: leaf 0 = 0.5                        left: leaf 0 = 0.25
 *     right: node 1: b in {1, 3, 33}            right: node 1: a <= -0.5
 *       decision_type 1: categorical,             decision_type 6: missing zero (1 << 2),
 *       bitset 0 = cat_threshold words            default left (0, and NaN read as 0, go left)
 *       0..1: 10 = bits 1 and 3 (categories       left: leaf 1 = -1
 *       1, 3), 2 = bit 1 of word 1 (33)           right: leaf 2 = 0.0625
 *       left: leaf 1 = 2
 *       right: leaf 2 = -0.25 (also NaN, negative categories, categories beyond the bitset)
 */
const HAND_MODEL = `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=2
objective=binary sigmoid:1
feature_names=a b c
feature_infos=none none none

Tree=0
num_leaves=3
num_cat=1
split_feature=0 1
split_gain=1 1
threshold=1.5 0
decision_type=2 1
left_child=-1 -2
right_child=1 -3
leaf_value=0.5 2 -0.25
leaf_weight=1 1 1
leaf_count=1 1 1
internal_value=0 0
internal_weight=0 0
internal_count=3 2
cat_boundaries=0 2
cat_threshold=10 2
is_linear=0
shrinkage=1


Tree=1
num_leaves=3
num_cat=0
split_feature=2 0
split_gain=1 1
threshold=2.5 -0.5
decision_type=10 6
left_child=-1 -2
right_child=1 -3
leaf_value=0.25 -1 0.0625
leaf_weight=1 1 1
leaf_count=1 1 1
internal_value=0 0
internal_weight=0 0
internal_count=3 2
is_linear=0
shrinkage=1


end of trees
`

/**
 * Rows of the hand model, [a, b, c], with the raw score worked out by hand (tree 0 + tree 1) and
 * the probability 1 / (1 + e^−raw) (e^−raw from a calculator, to 16 digits).
 */
const HAND_ROWS: [number[], number, number][] = [
  // a 1 ≤ 1.5: 0.5; c 1 ≤ 2.5: 0.25; e^−0.75 = 0.4723665527410147
  [[1, 7, 1], 0.75, 0.679178699175393],
  // a 2 > 1.5, b 3 in the set: 2; c 3 > 2.5, a 2 > −0.5: 0.0625; e^−2.0625 = 0.1271357329320356
  [[2, 3, 3], 2.0625, 0.8872045937171068],
  // b 1 in the set: 2; same tree 1 path: 0.0625
  [[2, 1, 3], 2.0625, 0.8872045937171068],
  // b 33 in the set (word 1, bit 1): 2; c NaN goes left: 0.25; e^−2.25 = 0.10539922456186433
  [[2, 33, Number.NaN], 2.25, 0.9046505351008906],
  // b 3.7 truncates to category 3: 2; c NaN: 0.25
  [[2, 3.7, Number.NaN], 2.25, 0.9046505351008906],
  // b 32 (word 1, bit 0) not in the set: −0.25; 0.0625; e^0.1875 = 1.2062302494209807
  [[2, 32, 3], -0.1875, 0.45326184801538616],
  // b 1000 beyond the two-word bitset: −0.25; 0.0625
  [[2, 1000, 3], -0.1875, 0.45326184801538616],
  // b 0 not in the set: −0.25; 0.0625
  [[2, 0, 3], -0.1875, 0.45326184801538616],
  // a NaN read as 0 ≤ 1.5: 0.5; c 5 > 2.5, a NaN read as 0 is missing: left, −1; e^0.5 = 1.6487212707001282
  [[Number.NaN, 1, 5], -0.5, 0.3775406687981454],
  // a 1e−36 within ±1e−35 is 0: 0.5; then zero is missing: left, −1
  [[1e-36, 1, 5], -0.5, 0.3775406687981454],
  // a −3 ≤ −0.5: 0.5; left, −1
  [[-3, 1, 5], -0.5, 0.3775406687981454],
  // a −0.25 is not zero and > −0.5: 0.5; right, 0.0625; e^−0.5625 = 0.569782824730923
  [[-0.25, 1, 5], 0.5625, 0.6370307944803831],
  // b −1 negative: −0.25; c 2.5 ≤ 2.5: 0.25; raw 0 → 1/2
  [[2, -1, 2.5], 0, 0.5],
  // b NaN: −0.25; c 0 ≤ 2.5: 0.25
  [[2, Number.NaN, 0], 0, 0.5],
]

describe.runIf(javaBuilt() || process.env.CI !== undefined)('LightGbmModel (Java)', () => {
  let lightgbm: LightGbm
  let dir: string
  let classpath: string
  let files = 0

  beforeAll(async () => {
    lightgbm = await loadLightGbm()
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-lightgbm-java-'))
    classpath = `${target}pubmatch-solr-0.1.0.jar:${readFileSync(`${target}classpath.txt`, 'utf8').trim()}`
  })

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  /** Writes `text` to a new file in the temporary folder and returns its path. */
  async function file(name: string, text: string): Promise<string> {
    files += 1
    const path = join(dir, `${files}-${name}`)
    await writeFile(path, text)
    return path
  }

  /** Runs LightGbmScore; resolves with its stdout, rejects (with its stderr) on a non-zero exit. */
  async function lightGbmScore(args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)(
      'java',
      ['-cp', classpath, 'org.pubmatch.solr.ltr.LightGbmScore', ...args],
      {
        maxBuffer: 1 << 26,
      },
    )
    return stdout
  }

  /** Java's scores of `rows` (all outputs of a row in turn), exactly, read from `--hex`. */
  async function javaScores(model: string, rows: string, raw: boolean): Promise<number[]> {
    const stdout = await lightGbmScore([...(raw ? ['--raw'] : []), '--hex', model, rows])
    return stdout
      .trim()
      .split('\n')
      .flatMap((line) => line.split(' ').map(parseJavaHex))
  }

  /**
   * Trains a model on synthetic ranking data, then scores held-out rows (with 20 % NaNs in every
   * 13th feature from 7), rows on every threshold, and rows of zeros, NaNs, near-zeros and
   * infinities with Java, LightGBM and the TypeScript scorer.
   * @returns the parsed model and the largest relative difference of transformed scores from LightGBM's
   */
  async function agree(
    params: LightGbmParams,
    options: {
      rounds?: number
      trainMissingRate?: number
      numGrades?: number
      folder?: boolean
    } = {},
  ): Promise<{ model: LightGbmModel; path: string; rows: FeatureMatrix; relative: number }> {
    const numFeatures = 12
    const sets = {
      numQueries: 60,
      docsPerQuery: [5, 30],
      numFeatures,
      numGrades: options.numGrades ?? 5,
    } as const
    const train = createSyntheticRankingSet({
      ...sets,
      seed: 31,
      missingRate: options.trainMissingRate ?? 0.1,
    })
    const test = createSyntheticRankingSet({ ...sets, numQueries: 30, seed: 32, missingRate: 0.2 })
    const { booster } = lightgbm.train({
      params: { verbosity: -1, min_data_in_leaf: 3, ...params },
      train,
      numBoostRound: options.rounds ?? 30,
    })
    try {
      const text = booster.saveModel()
      const model = parseLightGbmModel(text)
      const rows = concatRows(
        test.features,
        thresholdRows(model, test.features),
        specialRows(numFeatures),
      )
      let path = await file('model.txt', text)
      if (options.folder === true) {
        path = join(dir, `${files}-model`)
        await mkdir(path)
        await writeFile(join(path, 'model.txt'), text)
      }
      const rowsPath = await file('rows.json', rowsJson(rows))

      const raw = await javaScores(path, rowsPath, true)
      expect(raw).toEqual(Array.from(booster.predict(rows, { kind: 'raw' })))
      expect(raw).toEqual(Array.from(scoreRows(model, rows, { raw: true })))
      expect(raw).toEqual(Array.from(scoreRows(model, rows, { raw: true, engine: 'interpreter' })))

      const normal = await javaScores(path, rowsPath, false)
      expect(normal).toEqual(Array.from(scoreRows(model, rows)))
      const relative = maxRelativeDifference(normal, booster.predict(rows))
      expect(relative).toBeLessThanOrEqual(1e-12)
      return { model, path, rows, relative }
    } finally {
      booster.free()
    }
  }

  describe('on a hand-written model', () => {
    it('gives the hand-computed raw scores and probabilities', async () => {
      const model = await file('hand.txt', HAND_MODEL)
      const rows = await file(
        'hand.json',
        rowsJson(featureMatrixFromRows(HAND_ROWS.map(([row]) => row))),
      )
      expect(await javaScores(model, rows, true)).toEqual(HAND_ROWS.map(([, raw]) => raw))
      const probabilities = await javaScores(model, rows, false)
      probabilities.forEach((p, i) => {
        const expected = HAND_ROWS[i]![2]
        expect(Math.abs(p - expected)).toBeLessThanOrEqual(2e-16 * expected)
      })
    })

    it('agrees with LightGBM loading the same text and with the TypeScript scorer', async () => {
      const matrix = featureMatrixFromRows(HAND_ROWS.map(([row]) => row))
      const model = await file('hand.txt', HAND_MODEL)
      const rows = await file('hand.json', rowsJson(matrix))
      const booster = lightgbm.loadModel(HAND_MODEL)
      try {
        expect(await javaScores(model, rows, true)).toEqual(
          Array.from(booster.predict(matrix, { kind: 'raw' })),
        )
        const normal = await javaScores(model, rows, false)
        expect(normal).toEqual(Array.from(scoreRows(parseLightGbmModel(HAND_MODEL), matrix)))
        expect(maxRelativeDifference(normal, booster.predict(matrix))).toBeLessThanOrEqual(1e-12)
      } finally {
        booster.free()
      }
    })

    it('prints Double.toString without --hex', async () => {
      const model = await file('hand.txt', HAND_MODEL)
      const rows = await file(
        'hand.json',
        JSON.stringify([
          [1, 7, 1],
          [2, -1, 2.5],
        ]),
      )
      expect(await lightGbmScore(['--raw', model, rows])).toBe('0.75\n0.0\n')
    })

    it('explains a row by the leaf and value of each tree, as explainRow does', async () => {
      const model = await file('hand.txt', HAND_MODEL)
      const rows = await file('hand.json', JSON.stringify([[2, 3, 3]]))
      const explanation: unknown = JSON.parse(await lightGbmScore(['--explain', model, rows]))
      // tree 0: node 0 (a 2 > 1.5), node 1 (b 3 in the set) → leaf 1 = 2;
      // tree 1: node 0 (c 3 > 2.5), node 1 (a 2 > −0.5) → leaf 2 = 0.0625
      const expected = {
        value: 2.0625,
        trees: [
          { tree: 0, leaf: 1, value: 2, path: [0, 1] },
          { tree: 1, leaf: 2, value: 0.0625, path: [0, 1] },
        ],
      }
      expect(explanation).toEqual(expected)
      expect(explainRow(parseLightGbmModel(HAND_MODEL), [2, 3, 3])).toEqual(expected)
    })
  })

  describe('against LightGBM and the TypeScript scorer', () => {
    it('gives identical lambdarank scores with NaN missing values, read from a model folder, and the same explanations', async () => {
      const { model, path, rows } = await agree(
        { objective: 'lambdarank', num_leaves: 31 },
        { folder: true },
      )
      expect(countNodes(model, 0b1100, 0b1000)).toBeGreaterThan(0) // missing type NaN
      // explanations of a few rows, numbers exact through --hex
      const some = featureMatrixFromRows(
        [0, 1, 2, rows.numRows - 9].map((r) =>
          Array.from(rows.data.subarray(r * rows.numFeatures, (r + 1) * rows.numFeatures)),
        ),
      )
      const stdout = await lightGbmScore([
        '--explain',
        '--hex',
        path,
        await file('some.json', rowsJson(some)),
      ])
      stdout
        .trim()
        .split('\n')
        .forEach((line, r) => {
          const parsed = JSON.parse(line) as {
            value: string
            trees: { tree: number; leaf: number; value: string; path: number[] }[]
          }
          const java = {
            value: parseJavaHex(parsed.value),
            trees: parsed.trees.map((tree) => ({ ...tree, value: parseJavaHex(tree.value) })),
          }
          expect(java).toEqual(
            explainRow(model, some.data.subarray(r * some.numFeatures, (r + 1) * some.numFeatures)),
          )
        })
    })

    it('attributes scores to features (Saabas) as explainScore of @pubmatch/ltr does, the same doubles', async () => {
      const { model, path, rows } = await agree({ objective: 'lambdarank', num_leaves: 31 })
      expect(
        model.trees.every((tree) => tree.numLeaves <= 1 || tree.internalValue !== undefined),
      ).toBe(true)
      const stdout = await lightGbmScore([
        '--contributions',
        '--hex',
        path,
        await file('all.json', rowsJson(rows)),
      ])
      const ids = Array.from({ length: rows.numFeatures }, (_, c) => `F${c + 1}`)
      const ranker = { model, manifest: undefined, text: '' } as unknown as RankerModel
      let exact = 0
      let maxRelative = 0
      const lines = stdout.trim().split('\n')
      expect(lines).toHaveLength(rows.numRows)
      lines.forEach((line, r) => {
        const parsed = JSON.parse(line) as { bias: string; contributions: string[] }
        const row = rows.data.subarray(r * rows.numFeatures, (r + 1) * rows.numFeatures)
        const want = explainScore(ranker, Float64Array.from(row), ids)
        const byId = new Map(want.contributions.map((c) => [c.feature, c.contribution]))
        const java = parsed.contributions.map(parseJavaHex)
        const bias = parseJavaHex(parsed.bias)
        const pairs: Array<[number, number]> = [
          [bias, want.bias],
          ...java.map((value, c): [number, number] => [value, byId.get(ids[c]!) ?? 0]),
        ]
        for (const [have, expected] of pairs) {
          const scale = Math.max(Math.abs(have), Math.abs(expected))
          maxRelative = Math.max(maxRelative, scale === 0 ? 0 : Math.abs(have - expected) / scale)
          exact += have === expected ? 1 : 0
        }
      })
      // the same additions in the same order: the same doubles
      expect(maxRelative).toBe(0)
      expect(exact).toBe(rows.numRows * (rows.numFeatures + 1))
    })

    it('gives identical lambdarank scores for a model the TypeScript scorer compiles, NaN rows included', async () => {
      const { model } = await agree(
        { objective: 'lambdarank', num_leaves: 31 },
        { trainMissingRate: 0 },
      )
      expect(prepareModel(model)).toBe('compiled')
    })

    it('gives identical raw scores and sigmoid outputs for a binary model', async () => {
      const { model } = await agree({ objective: 'binary', num_leaves: 15 }, { numGrades: 2 })
      expect(model.objective).toMatch(/^binary sigmoid:1/)
    })

    it('gives identical regression scores without missing-value handling (use_missing=false: NaN is 0)', async () => {
      const { model } = await agree({ objective: 'regression', num_leaves: 15, use_missing: false })
      expect(countNodes(model, 0b1101, 0)).toBe(
        model.trees.reduce((n, tree) => n + tree.numLeaves - 1, 0),
      )
    })

    it('gives identical scores with zero_as_missing (missing type zero)', async () => {
      const { model } = await agree({
        objective: 'lambdarank',
        num_leaves: 15,
        zero_as_missing: true,
      })
      expect(countNodes(model, 0b1100, 0b0100)).toBeGreaterThan(0)
    })

    it('gives identical scores with categorical splits', async () => {
      // features 3 and 10 hold small counts 0..9 (every 7th from 3)
      const { model } = await agree({
        objective: 'lambdarank',
        num_leaves: 15,
        categorical_feature: [3, 10],
        min_data_per_group: 5,
        cat_smooth: 1,
      })
      expect(countNodes(model, 0b0001, 0b0001)).toBeGreaterThan(0)
    })

    it('gives identical scores for multiclass softmax (three outputs per row)', async () => {
      const { model } = await agree(
        { objective: 'multiclass', num_class: 3, num_leaves: 7 },
        { rounds: 10, numGrades: 3 },
      )
      expect(model.treesPerIteration).toBe(3)
    })

    it('gives identical scores for linear trees', async () => {
      const { model } = await agree({ objective: 'regression', linear_tree: true, num_leaves: 7 })
      expect(model.trees.some((tree) => tree.linear !== undefined)).toBe(true)
    })

    it('gives identical scores for an averaged random forest', async () => {
      const { model } = await agree({
        objective: 'regression',
        boosting: 'rf',
        bagging_freq: 1,
        bagging_fraction: 0.7,
        num_leaves: 7,
      })
      expect(model.averageOutput).toBe(true)
    })
  })

  describe('on bad input', () => {
    /** LightGbmScore's stderr and exit status (it must fail). */
    async function failure(args: string[]): Promise<{ stderr: string; code: number }> {
      try {
        await lightGbmScore(args)
      } catch (error) {
        const { stderr, code } = error as { stderr: string; code: number }
        return { stderr: stderr.trim(), code }
      }
      throw new Error('LightGbmScore succeeded on bad input')
    }

    /** The line (from 1) of the hand model that starts with `prefix`, in tree `tree`. */
    function lineOf(text: string, prefix: string, tree: number): number {
      const lines = text.split('\n')
      const start = lines.indexOf(`Tree=${tree}`)
      return lines.findIndex((line, i) => i > start && line.startsWith(prefix)) + 1
    }

    it('names the file, the line, the tree and the key of a malformed model', async () => {
      const rows = await file('hand.json', JSON.stringify([[1, 2, 3]]))
      const shortThreshold = HAND_MODEL.replace('threshold=2.5 -0.5', 'threshold=2.5')
      const short = await file('model.txt', shortThreshold)
      expect(await failure([short, rows])).toEqual({
        stderr: `lightgbm-score: ${short} line ${lineOf(shortThreshold, 'threshold=', 1)}: tree 1: threshold has 1 values, expected 2 (one per internal node; num_leaves=3)`,
        code: 1,
      })
      const cycle = await file(
        'model.txt',
        HAND_MODEL.replace(
          'right_child=1 -3\nleaf_value=0.25',
          'right_child=0 -3\nleaf_value=0.25',
        ),
      )
      expect((await failure([cycle, rows])).stderr).toBe(
        `lightgbm-score: ${cycle} line ${lineOf(HAND_MODEL, 'right_child=', 1)}: tree 1: node 0 is reached twice (from node 0)`,
      )
      const category = await file(
        'model.txt',
        HAND_MODEL.replace('threshold=1.5 0', 'threshold=1.5 1'),
      )
      expect((await failure([category, rows])).stderr).toBe(
        `lightgbm-score: ${category} line ${lineOf(HAND_MODEL, 'threshold=', 0)}: tree 0: categorical node 1 has threshold 1.0, not a bitset index below num_cat=1`,
      )
      const feature = await file(
        'model.txt',
        HAND_MODEL.replace('split_feature=2 0', 'split_feature=3 0'),
      )
      expect((await failure([feature, rows])).stderr).toBe(
        `lightgbm-score: ${feature} line ${lineOf(HAND_MODEL, 'split_feature=', 1)}: tree 1: split_feature holds "3", not a whole number from 0 to 2`,
      )
      const json = await file('model.txt', '{"format": "pubmatch-ltr-model/2"}')
      expect((await failure([json, rows])).stderr).toBe(
        `lightgbm-score: ${json} line 1: the first line is not "tree": "{"format": "pubmatch-ltr-model/2"}"`,
      )
      const version = await file('model.txt', HAND_MODEL.replace('version=v4', 'version=v9'))
      expect((await failure([version, rows])).stderr).toBe(
        `lightgbm-score: ${version} line 2: model version "v9" is not v3 or v4`,
      )
    })

    it('refuses rows of the wrong length or with values that are not numbers', async () => {
      const model = await file('hand.txt', HAND_MODEL)
      const long = await file(
        'rows.json',
        JSON.stringify([
          [1, 2, 3],
          [1, 2, 3, 4],
        ]),
      )
      expect(await failure([model, long])).toEqual({
        stderr: 'lightgbm-score: rows[1] has 4 values, the model expects 3',
        code: 1,
      })
      const text = await file('rows.json', JSON.stringify([[1, 'x', 3]]))
      expect((await failure([model, text])).stderr).toBe(
        `lightgbm-score: ${text}: rows[0][1] is "x", not a number or null`,
      )
      expect((await failure([model])).code).toBe(2)
    })
  })
})
