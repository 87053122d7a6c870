import type { LightGbmModel, ModelTree } from './parse-model.ts'

/**
 * Rows per column block of a compiled model: a block holds `BLOCK_ROWS` rows of every feature,
 * column by column, so feature `f` of row `r` lies at `(f * BLOCK_ROWS + r) * 8`.
 */
export const BLOCK_ROWS = 512

/**
 * Above this many internal nodes a model is not compiled (the module would pass a few
 * megabytes); the interpreter scores it.
 */
export const MAX_COMPILED_NODES: number = 1 << 18

/** Above this many bytes of column block (features × 512 rows × 8), a model is interpreted. */
const MAX_COMPILED_MEMORY = 1 << 30

/** `decision_type` bits that leave the plain `value <= threshold` test: categorical, missing type. */
const SLOW_DECISION = 0b1101

/**
 * A model compiled to WebAssembly: one function per tree over a column block in the module's
 * memory.
 */
export interface CompiledModel {
  /**
   * The block's columns: write feature `f` of block row `r` at `f * BLOCK_ROWS + r` (NaN and
   * values within ±kZeroThreshold already read as 0).
   */
  readonly columns: Float64Array
  /** The block's scores, `k` per row; the tree functions add to them. */
  readonly scores: Float64Array
  /** Per tree: adds the tree's output for block rows `0 … rows − 1` to `scores`. */
  readonly trees: ReadonlyArray<(rows: number) => void>
  /** Every tree's function in model order, in one call (one crossing into WebAssembly, not one per tree). */
  readonly all: (rows: number) => void
}

/** The part of the `WebAssembly` global used here (this package compiles without DOM types). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object) => { readonly exports: Record<string, unknown> }
  readonly CompileError: new (...args: never[]) => Error
  compile(bytes: Uint8Array): Promise<object>
  instantiate(module: object): Promise<{ readonly exports: Record<string, unknown> }>
}

/** Whether every node of `tree` is a plain numerical `value <= threshold` test. */
function plainTree(tree: ModelTree): boolean {
  if (tree.linear !== undefined) {
    return false
  }
  for (let node = 0; node < tree.numLeaves - 1; node += 1) {
    if (((tree.decisionType[node] ?? 0) & SLOW_DECISION) !== 0) {
      return false
    }
  }
  return true
}

const SCRATCH = new DataView(new ArrayBuffer(8))

/** A growable byte buffer with the WebAssembly binary encodings used here. */
export class Bytes {
  private data = new Uint8Array(1024)
  length = 0

  byte(value: number): this {
    if (this.length === this.data.length) {
      const grown = new Uint8Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length] = value
    this.length += 1
    return this
  }

  bytes(values: ArrayLike<number>): this {
    for (let i = 0; i < values.length; i += 1) {
      this.byte(values[i]!)
    }
    return this
  }

  /** Unsigned LEB128. */
  u32(value: number): this {
    let rest = value >>> 0
    do {
      const low = rest & 0x7f
      rest >>>= 7
      this.byte(rest === 0 ? low : low | 0x80)
    } while (rest !== 0)
    return this
  }

  /** Signed LEB128 of a 32-bit integer. */
  s32(value: number): this {
    let rest = value | 0
    for (;;) {
      const low = rest & 0x7f
      rest >>= 7
      const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)
      this.byte(done ? low : low | 0x80)
      if (done) {
        return this
      }
    }
  }

  /** An IEEE 754 double, little-endian: exactly the model's number. */
  f64(value: number): this {
    SCRATCH.setFloat64(0, value, true)
    for (let i = 0; i < 8; i += 1) {
      this.byte(SCRATCH.getUint8(i))
    }
    return this
  }

  name(text: string): this {
    const encoded = new TextEncoder().encode(text)
    return this.u32(encoded.length).bytes(encoded)
  }

  /** Appends `body` prefixed by its length (a section or a function body). */
  sized(body: Bytes): this {
    return this.u32(body.length).bytes(body.view())
  }

  view(): Uint8Array {
    return this.data.subarray(0, this.length)
  }
}

// Opcodes (WebAssembly 1.0).
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  f64Const: 0x44,
  i32GeU: 0x4f,
  f64Le: 0x65,
  i32Add: 0x6a,
  f64Add: 0xa0,
} as const
const VOID = 0x40
const I32 = 0x7f
const F64_ALIGN = 3

/**
 * One tree's function body. Parameter 0 is the block's row count; locals: 1 the row, 2 the
 * row's byte offset in the columns, 3 the byte offset of the row's score. Per row the tree is
 * nested `if`s: a node loads its feature at a constant offset from the row (`f64.load
 * offset=feature·BLOCK_ROWS·8`), compares it with the threshold as a constant (`value <=
 * threshold` → left, LightGBM's plain decision), and a leaf adds its output to the score.
 */
function treeBody(tree: ModelTree, scoresAt: number, stride: number, klass: number): Bytes {
  const body = new Bytes()
  body.u32(1).u32(3).byte(I32) // three i32 locals
  const emit = (child: number): void => {
    if (child < 0) {
      body.byte(OP.localGet).u32(3).byte(OP.localGet).u32(3)
      body.byte(OP.f64Load).u32(F64_ALIGN).u32(scoresAt + klass * 8)
      body.byte(OP.f64Const).f64(tree.leafValue[~child] ?? 0).byte(OP.f64Add)
      body.byte(OP.f64Store).u32(F64_ALIGN).u32(scoresAt + klass * 8)
      return
    }
    const feature = tree.splitFeature[child] ?? 0
    body.byte(OP.localGet).u32(2).byte(OP.f64Load).u32(F64_ALIGN).u32(feature * BLOCK_ROWS * 8)
    body.byte(OP.f64Const).f64(tree.threshold[child] ?? 0).byte(OP.f64Le)
    body.byte(OP.if).byte(VOID)
    emit(tree.leftChild[child] ?? 0)
    body.byte(OP.else)
    emit(tree.rightChild[child] ?? 0)
    body.byte(OP.end)
  }
  body.byte(OP.block).byte(VOID).byte(OP.loop).byte(VOID)
  // if (row >= rows) break
  body.byte(OP.localGet).u32(1).byte(OP.localGet).u32(0).byte(OP.i32GeU).byte(OP.brIf).u32(1)
  emit(tree.numLeaves <= 1 ? -1 : 0)
  // column offset += 8, score offset += stride, row += 1
  body.byte(OP.localGet).u32(2).byte(OP.i32Const).s32(8).byte(OP.i32Add).byte(OP.localSet).u32(2)
  body.byte(OP.localGet).u32(3).byte(OP.i32Const).s32(stride).byte(OP.i32Add).byte(OP.localSet).u32(3)
  body.byte(OP.localGet).u32(1).byte(OP.i32Const).s32(1).byte(OP.i32Add).byte(OP.localTee).u32(1)
  body.byte(OP.brIf).u32(0) // row + 1 is never 0: always loops back to the test
  body.byte(OP.end).byte(OP.end).byte(OP.end)
  return body
}

/** The module's bytes: memory, one exported function `t<i>` per tree, and `all`, which calls them all in order. */
export function modelModuleBytes(model: LightGbmModel): { bytes: Uint8Array; scoresAt: number } {
  const steps = moduleBytesSteps(model)
  let step = steps.next()
  while (step.done !== true) {
    step = steps.next()
  }
  return step.value
}

/** Tree functions generated in one step of {@link compileModelInSteps}. */
const STEP_TREES = 16

function* moduleBytesSteps(model: LightGbmModel): Generator<void, { bytes: Uint8Array; scoresAt: number }> {
  const k = model.treesPerIteration
  const columnBytes = model.numFeatures * BLOCK_ROWS * 8
  const scoresAt = columnBytes
  const pages = Math.ceil((columnBytes + BLOCK_ROWS * k * 8) / 65536)
  const out = new Bytes().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00])
  const section = (id: number, content: Bytes): void => {
    out.byte(id).sized(content)
  }
  const trees = model.trees.length
  section(1, new Bytes().u32(1).byte(0x60).u32(1).byte(I32).u32(0)) // type 0: (i32) -> ()
  // the trees' functions, then `all`: every tree in model order in one call from JavaScript
  const functions = new Bytes().u32(trees + 1)
  for (let t = 0; t <= trees; t += 1) {
    functions.u32(0)
  }
  section(3, functions)
  section(5, new Bytes().u32(1).byte(0x00).u32(pages)) // memory 0: min pages, no max
  const exports = new Bytes().u32(trees + 2).name('memory').byte(0x02).u32(0)
  for (let t = 0; t < trees; t += 1) {
    exports.name(`t${t}`).byte(0x00).u32(t)
  }
  exports.name('all').byte(0x00).u32(trees)
  section(7, exports)
  const code = new Bytes().u32(trees + 1)
  const all = new Bytes().u32(0) // no locals
  for (let t = 0; t < trees; t += 1) {
    code.sized(treeBody(model.trees[t]!, scoresAt, k * 8, t % k))
    all.byte(OP.localGet).u32(0).byte(OP.call).u32(t)
    if ((t + 1) % STEP_TREES === 0) {
      yield
    }
  }
  code.sized(all.byte(OP.end))
  section(10, code)
  return { bytes: out.view(), scoresAt }
}

/**
 * Compiles a model to WebAssembly, the way tree compilers such as treelite emit native code:
 * with each tree's structure in code rather than in arrays, a decision is one load at a
 * constant offset and one compare with a constant, instead of four dependent loads. V8
 * compiles the module at once (Liftoff) and optimizes hot trees in the background, so there is
 * no slow warm-up. Scores are identical to the interpreter's: the same comparisons on the same
 * doubles, added in the same order.
 * @returns the compiled model, or `undefined` when the model has a node the compiled test
 *   cannot express (categorical, missing-value type, linear leaves), more than
 *   {@link MAX_COMPILED_NODES} nodes, so many features that a block would pass 1 GiB, or the
 *   runtime refuses to compile WebAssembly
 */
export function compileModel(model: LightGbmModel): CompiledModel | undefined {
  const wasm = compilable(model)
  if (wasm === undefined) {
    return undefined
  }
  const { bytes, scoresAt } = modelModuleBytes(model)
  let exports: Record<string, unknown>
  try {
    exports = new wasm.Instance(new wasm.Module(bytes)).exports
  } catch (error) {
    return refused(wasm, error)
  }
  return compiledFrom(model, exports, scoresAt)
}

/**
 * {@link compileModel} in steps: the module's code is generated {@link STEP_TREES} trees at a
 * time, awaiting `pause` between two steps, and the module is compiled and instantiated
 * asynchronously (`WebAssembly.compile`, off the calling thread where the runtime can), so that a
 * server loading a new model goes on answering meanwhile. The result scores exactly as
 * {@link compileModel}'s.
 * @param model - the model
 * @param pause - awaited between steps
 * @returns as {@link compileModel}
 */
export async function compileModelInSteps(model: LightGbmModel, pause: () => Promise<void>): Promise<CompiledModel | undefined> {
  const wasm = compilable(model)
  if (wasm === undefined) {
    return undefined
  }
  const steps = moduleBytesSteps(model)
  let step = steps.next()
  while (step.done !== true) {
    await pause()
    step = steps.next()
  }
  const { bytes, scoresAt } = step.value
  let exports: Record<string, unknown>
  try {
    exports = (await wasm.instantiate(await wasm.compile(bytes))).exports
  } catch (error) {
    return refused(wasm, error)
  }
  return compiledFrom(model, exports, scoresAt)
}

/** The `WebAssembly` API when `model` can be compiled (see {@link compileModel}), else `undefined`. */
function compilable(model: LightGbmModel): WasmApi | undefined {
  let nodes = 0
  for (const tree of model.trees) {
    if (!plainTree(tree)) {
      return undefined
    }
    nodes += Math.max(tree.numLeaves - 1, 0)
  }
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
  const memoryBytes = (model.numFeatures + model.treesPerIteration) * BLOCK_ROWS * 8
  if (nodes > MAX_COMPILED_NODES || memoryBytes > MAX_COMPILED_MEMORY || wasm === undefined) {
    return undefined
  }
  return wasm
}

/** `undefined` when the runtime refused to compile (e.g. node --disallow-code-generation-from-strings); rethrows anything else. */
function refused(wasm: WasmApi, error: unknown): undefined {
  if (error instanceof wasm.CompileError || error instanceof EvalError) {
    return undefined
  }
  throw error
}

function compiledFrom(model: LightGbmModel, exports: Record<string, unknown>, scoresAt: number): CompiledModel {
  const memory = exports['memory'] as { readonly buffer: ArrayBuffer }
  const k = model.treesPerIteration
  const trees = model.trees.map((_, t) => exports[`t${t}`] as (rows: number) => void)
  return {
    columns: new Float64Array(memory.buffer, 0, model.numFeatures * BLOCK_ROWS),
    scores: new Float64Array(memory.buffer, scoresAt, BLOCK_ROWS * k),
    trees,
    all: exports['all'] as (rows: number) => void,
  }
}
