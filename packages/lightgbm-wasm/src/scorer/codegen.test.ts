import { describe, expect, it } from 'vitest'
import { featureMatrixFromRows } from '../matrix.ts'
import { Bytes, compileModel, compileModelInSteps, modelModuleBytes } from './codegen.ts'
import { parseLightGbmModel, parseLightGbmModelInSteps, STEP_TREES } from './parse-model.ts'
import { prepareModel, prepareModelInSteps, scoreRows } from './score.ts'

const hex = (bytes: Bytes): string => Buffer.from(bytes.view()).toString('hex')

describe('Bytes', () => {
  it('writes LEB128 as the WebAssembly spec gives it', () => {
    expect(hex(new Bytes().u32(0))).toBe('00')
    expect(hex(new Bytes().u32(127))).toBe('7f')
    expect(hex(new Bytes().u32(128))).toBe('8001')
    expect(hex(new Bytes().u32(624485))).toBe('e58e26') // the DWARF spec's example
    expect(hex(new Bytes().s32(-1))).toBe('7f')
    expect(hex(new Bytes().s32(63))).toBe('3f')
    expect(hex(new Bytes().s32(64))).toBe('c000')
    expect(hex(new Bytes().s32(-64))).toBe('40')
    expect(hex(new Bytes().s32(-65))).toBe('bf7f')
    expect(hex(new Bytes().s32(-123456))).toBe('c0bb78') // the DWARF spec's example
  })

  it('writes doubles little-endian, bit for bit', () => {
    expect(hex(new Bytes().f64(1))).toBe('000000000000f03f')
    expect(hex(new Bytes().f64(-0))).toBe('0000000000000080')
    expect(hex(new Bytes().f64(0.1))).toBe('9a9999999999b93f')
  })
})

/**
 * Two trees by hand, thresholds one ulp apart from their neighbours, so that a compare on
 * anything but the exact double would move a row to the other leaf.
 *   tree 0: a <= 1.0000000000000002 → (b <= -0.5 → 0.25 | 0.5) | 1
 *   tree 1: b <= 1e300 → 0.125 | -8
 */
const PLAIN_MODEL = `tree
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
num_cat=0
split_feature=0 1
split_gain=1 1
threshold=1.0000000000000002 -0.5
decision_type=2 2
left_child=1 -1
right_child=-2 -3
leaf_value=0.25 1 0.5
leaf_weight=1 1 1
leaf_count=1 1 1
internal_value=0 0
internal_weight=0 0
internal_count=3 2
is_linear=0
shrinkage=1

Tree=1
num_leaves=2
num_cat=0
split_feature=1
split_gain=1
threshold=1e+300
decision_type=2
left_child=-1
right_child=-2
leaf_value=0.125 -8
leaf_weight=1 1
leaf_count=1 1
internal_value=0
internal_weight=0
internal_count=2
is_linear=0
shrinkage=1


end of trees
`

describe('compileModel', () => {
  it('builds a valid module with one function per tree', () => {
    const model = parseLightGbmModel(PLAIN_MODEL)
    const { bytes } = modelModuleBytes(model)
    const wasm = (globalThis as unknown as { WebAssembly: { validate: (bytes: Uint8Array) => boolean } }).WebAssembly
    expect(wasm.validate(bytes)).toBe(true)
    expect(compileModel(model)?.trees).toHaveLength(2)
  })

  it('adds every tree in one call with `all`, as the trees one by one', () => {
    const compiled = compileModel(parseLightGbmModel(PLAIN_MODEL))!
    const BLOCK = 512
    // row 0: a on its threshold, b on its threshold → 0.25 + 0.125; row 1: a above, b huge → 1 − 8
    compiled.columns.set([1.0000000000000002, 1.0000000000000004], 0)
    compiled.columns.set([-0.5, 2e300], BLOCK)
    compiled.scores.fill(0, 0, 2)
    compiled.all(2)
    expect(Array.from(compiled.scores.subarray(0, 2))).toEqual([0.375, -7])
    compiled.scores.fill(0, 0, 2)
    compiled.trees[0]!(2)
    expect(Array.from(compiled.scores.subarray(0, 2))).toEqual([0.25, 1])
    compiled.trees[1]!(2)
    expect(Array.from(compiled.scores.subarray(0, 2))).toEqual([0.375, -7])
  })

  it('scores exactly as the interpreter and by hand, at and beside every threshold', () => {
    const model = parseLightGbmModel(PLAIN_MODEL)
    const rows = featureMatrixFromRows([
      [1.0000000000000002, -0.5], // on both thresholds: left, left → 0.25 + 0.125
      [1.0000000000000004, -0.5], // one ulp above: right → 1 + 0.125
      [1, -0.49999999999999994], // b one ulp above -0.5: 0.5 + 0.125
      [Number.NaN, 2e300], // NaN reads as 0: left; b above 1e300: −8
      [1e-36, Number.POSITIVE_INFINITY], // tiny is 0; +∞ > 1e300
      [-0, Number.NEGATIVE_INFINITY],
    ])
    const expected = [0.375, 1.125, 0.625, 0.5 - 8, 0.5 - 8, 0.375]
    expect(Array.from(scoreRows(model, rows))).toEqual(expected)
    expect(Array.from(scoreRows(model, rows, { engine: 'interpreter' }))).toEqual(expected)
  })

  it('scores more rows than one block, and any iteration range', () => {
    const model = parseLightGbmModel(PLAIN_MODEL)
    const data: number[][] = []
    for (let i = 0; i < 1300; i += 1) {
      data.push([(i % 7) / 3, ((i % 11) - 5) / 4])
    }
    const rows = featureMatrixFromRows(data)
    for (const options of [{}, { startIteration: 1 }, { numIteration: 1 }]) {
      expect(scoreRows(model, rows, options)).toEqual(scoreRows(model, rows, { ...options, engine: 'interpreter' }))
    }
  })

  it('declines nodes it cannot express (a missing-value type); the interpreter scores those', () => {
    for (const type of ['10', '6']) {
      // 10: NaN missing, default left; 6: zero missing, default left
      const model = parseLightGbmModel(PLAIN_MODEL.replace('decision_type=2 2', `decision_type=${type} 2`))
      expect(compileModel(model)).toBeUndefined()
    }
    expect(compileModel(parseLightGbmModel(PLAIN_MODEL))).toBeDefined()
    expect(prepareModel(parseLightGbmModel(PLAIN_MODEL))).toBe('compiled')
    expect(prepareModel(parseLightGbmModel(PLAIN_MODEL.replace('decision_type=2 2', 'decision_type=10 2')))).toBe('interpreted')
  })
})

/**
 * {@link PLAIN_MODEL}'s two trees repeated `copies` times (trees 0, 1, 0, 1, …), numbered in
 * order: a row's score is `copies` times its score under the two trees.
 */
function repeated(copies: number): string {
  const start = PLAIN_MODEL.indexOf('Tree=0')
  const end = PLAIN_MODEL.indexOf('end of trees')
  const header = PLAIN_MODEL.slice(0, start)
  const trees = PLAIN_MODEL.slice(start, end).split(/^Tree=\d+\n/m).filter((tree) => tree !== '')
  expect(trees).toHaveLength(2)
  let body = ''
  for (let t = 0; t < 2 * copies; t += 1) {
    body += `Tree=${t}\n${trees[t % 2]!}`
  }
  return `${header}${body}end of trees\n`
}

describe('parsing and compiling in steps', () => {
  const text = repeated(20) // 40 trees: steps end after trees 16 and 32
  const counted = (): { pause: () => Promise<void>; readonly count: () => number } => {
    let count = 0
    return {
      pause: () => {
        count += 1
        return new Promise((resolve) => setImmediate(resolve))
      },
      count: () => count,
    }
  }

  it('parses the same model as at once, pausing between steps of STEP_TREES trees', async () => {
    expect(STEP_TREES).toBe(16)
    const { pause, count } = counted()
    const model = await parseLightGbmModelInSteps(text, pause)
    expect(model).toEqual(parseLightGbmModel(text))
    expect(model.trees).toHaveLength(40)
    expect(count()).toBe(2)
  })

  it('refuses a malformed model as parsing at once does', async () => {
    const bad = text.replace('version=v4', 'version=v2')
    expect(() => parseLightGbmModel(bad)).toThrow('model version "v2" is not v3 or v4')
    const error: unknown = await parseLightGbmModelInSteps(bad, counted().pause).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'UNSUPPORTED_FORMAT' })
    expect((error as Error).message).toContain('model version "v2" is not v3 or v4')
  })

  it('compiles a module that scores by hand and as the interpreter, pausing while it generates code', async () => {
    const model = parseLightGbmModel(text)
    const { pause, count } = counted()
    const compiled = await compileModelInSteps(model, pause)
    expect(compiled?.trees).toHaveLength(40)
    expect(count()).toBe(2)
    const { pause: prepPause, count: prepCount } = counted()
    expect(await prepareModelInSteps(model, prepPause)).toBe('compiled')
    expect(prepCount()).toBe(2)
    // prepared already: neither compiles again
    expect(await prepareModelInSteps(model, prepPause)).toBe('compiled')
    expect(prepareModel(model)).toBe('compiled')
    expect(prepCount()).toBe(2)
    const rows = featureMatrixFromRows([
      [1.0000000000000002, -0.5], // 20 × (0.25 + 0.125)
      [1.0000000000000004, 2e300], // 20 × (1 − 8)
    ])
    expect(Array.from(scoreRows(model, rows))).toEqual([7.5, -140])
    expect(Array.from(scoreRows(model, rows, { engine: 'interpreter' }))).toEqual([7.5, -140])
  })

  it('leaves a model it cannot express to the interpreter', async () => {
    const model = parseLightGbmModel(text.replaceAll('decision_type=2 2', 'decision_type=10 2'))
    expect(await compileModelInSteps(model, counted().pause)).toBeUndefined()
    expect(await prepareModelInSteps(model, counted().pause)).toBe('interpreted')
    expect(prepareModel(model)).toBe('interpreted')
  })
})
