import { describe, expect, it } from 'vitest'
import { featureMatrixFromRows } from '../matrix.ts'
import { Bytes, compileModel, modelModuleBytes } from './codegen.ts'
import { parseLightGbmModel } from './parse-model.ts'
import { prepareModel, scoreRows } from './score.ts'

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
