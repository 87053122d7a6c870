import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { checkFeatureMatrix, type FeatureMatrix } from '../matrix.ts'
import { BLOCK_ROWS, compileModel, compileModelInSteps, type CompiledModel } from './codegen.ts'
import type { LightGbmModel, ModelTree } from './parse-model.ts'

/** LightGBM's kZeroThreshold: `1e-35f`, a float widened to double. */
const ZERO_THRESHOLD = Math.fround(1e-35)

/** Options of {@link scoreRows}. */
export interface ScoreOptions {
  /** Return raw scores, skipping the objective's transformation (sigmoid, softmax, exp). Defaults to `false`. */
  readonly raw?: boolean
  /** First iteration used. Defaults to `0`. */
  readonly startIteration?: number
  /** Iterations used; `0` or less means all from `startIteration`. Defaults to `0`. */
  readonly numIteration?: number
  /**
   * `'auto'` scores with the model compiled to WebAssembly when the model allows it
   * (numerical splits without a missing-value type, at most 262,144 nodes; see
   * {@link compileModel}) and interprets the trees otherwise; `'interpreter'` always
   * interprets. Both give identical scores. Defaults to `'auto'`.
   */
  readonly engine?: 'auto' | 'interpreter'
}

/** How one tree scored one row, for {@link explainRow}. */
export interface TreeContribution {
  /** Index of the tree in the model. */
  readonly tree: number
  /** The leaf the row fell into. */
  readonly leaf: number
  /** That leaf's output. */
  readonly value: number
  /** Internal nodes visited, root first. */
  readonly path: readonly number[]
}

/** A row's score with the trees that made it (first class only for multiclass models). */
export interface ScoreExplanation {
  /** The raw score (sum of `trees[].value`, divided by the iteration count for averaged models). */
  readonly value: number
  /** One entry per tree used. */
  readonly trees: readonly TreeContribution[]
}

/**
 * The leaf `row` reaches in `tree` (LightGBM's Tree::GetLeaf with its numerical and
 * categorical decisions, missing-value handling and `decision_type` bits).
 */
function leafOf(tree: ModelTree, data: Float32Array | Float64Array, offset: number, path?: number[]): number {
  if (tree.numLeaves <= 1) {
    return 0
  }
  let node = 0
  while (node >= 0) {
    path?.push(node)
    node = decide(tree, node, data[offset + (tree.splitFeature[node] ?? 0)] ?? 0)
  }
  return ~node
}

/** `decision_type` bits that leave the plain `value <= threshold` test: categorical, missing type. */
const SLOW_DECISION = 0b1101

/**
 * A model's trees flattened into one set of typed arrays (nodes of all trees back to back,
 * leaves likewise), for the fast loop of {@link scoreRows}. Children are global: `>= 0` a node,
 * `< 0` the leaf `~child`.
 */
interface CompiledTrees {
  readonly feature: Int32Array
  readonly threshold: Float64Array
  readonly left: Int32Array
  readonly right: Int32Array
  /** Per node: 1 when the decision needs {@link decide} (categorical, missing-value type). */
  readonly slow: Uint8Array
  /** Per node: its tree and its number within that tree (for the slow path). */
  readonly nodeTree: Int32Array
  readonly nodeBase: Int32Array
  readonly leafBase: Int32Array
  readonly leafValue: Float64Array
  /** Per tree: the root (a node, or `~leaf` for a one-leaf tree). */
  readonly root: Int32Array
  /** No node needs {@link decide}: NaN can be read as 0 up front and every test is inline. */
  readonly allFast: boolean
}

const compiledModels = new WeakMap<LightGbmModel, CompiledTrees>()
const wasmModels = new WeakMap<LightGbmModel, CompiledModel | null>()

/** The model compiled to WebAssembly (once per model), or `undefined` when it cannot be. */
function wasmModel(model: LightGbmModel): CompiledModel | undefined {
  let compiled = wasmModels.get(model)
  if (compiled === undefined) {
    compiled = compileModel(model) ?? null
    wasmModels.set(model, compiled)
  }
  return compiled ?? undefined
}

/**
 * Copies rows `start … start + rows − 1` into `columns`, feature `f` of block row `r` at
 * `f * stride + r`, reading values within ±kZeroThreshold as 0 (as LightGBM does) and, with
 * `nanToZero` (no node of the model has a missing-value type), NaN as 0 too.
 */
function readColumns(
  data: Float32Array | Float64Array,
  numFeatures: number,
  start: number,
  rows: number,
  columns: Float64Array,
  stride: number,
  nanToZero: boolean,
): void {
  for (let r = 0; r < rows; r += 1) {
    const offset = (start + r) * numFeatures
    for (let f = 0; f < numFeatures; f += 1) {
      let value = data[offset + f]!
      if ((value <= ZERO_THRESHOLD && value >= -ZERO_THRESHOLD) || (nanToZero && value !== value)) {
        value = 0
      }
      columns[f * stride + r] = value
    }
  }
}

/**
 * Prepares `model` for {@link scoreRows} now rather than at its first call: compiles it to
 * WebAssembly when it can be (about 25 ms for 500 trees of 31 leaves), so a server's first
 * query does not pay for it.
 * @returns how `scoreRows` will score the model with `engine: 'auto'`
 */
export function prepareModel(model: LightGbmModel): 'compiled' | 'interpreted' {
  return wasmModel(model) === undefined ? 'interpreted' : 'compiled'
}

/**
 * {@link prepareModel} in steps: the module's code is generated a few trees at a time, awaiting
 * `pause` between two steps, and compiled asynchronously, so that a server loading a new model
 * goes on answering meanwhile. Scores are the same as after {@link prepareModel}.
 * @param model - the model
 * @param pause - awaited between steps, e.g. `() => new Promise((resolve) => setImmediate(resolve))`
 * @returns how `scoreRows` will score the model with `engine: 'auto'`
 */
export async function prepareModelInSteps(model: LightGbmModel, pause: () => Promise<void>): Promise<'compiled' | 'interpreted'> {
  if (!wasmModels.has(model)) {
    const compiled = (await compileModelInSteps(model, pause)) ?? null
    // a call that finished meanwhile keeps its module
    if (!wasmModels.has(model)) {
      wasmModels.set(model, compiled)
    }
  }
  return wasmModels.get(model) === null ? 'interpreted' : 'compiled'
}

/**
 * {@link scoreBlock} through the model compiled to WebAssembly: the block's columns go to the
 * module's memory, each tree's function adds its outputs, in model order, to scores starting
 * at 0, exactly as the interpreter does.
 */
function scoreBlockCompiled(
  wasm: CompiledModel,
  data: Float32Array | Float64Array,
  numFeatures: number,
  scores: Float64Array,
  k: number,
  range: { readonly firstTree: number; readonly endTree: number },
  start: number,
  end: number,
): void {
  const rows = end - start
  const { columns, trees } = wasm
  readColumns(data, numFeatures, start, rows, columns, BLOCK_ROWS, true)
  const blockScores = wasm.scores
  blockScores.fill(0, 0, rows * k)
  if (range.firstTree === 0 && range.endTree === trees.length) {
    wasm.all(rows)
  } else {
    for (let t = range.firstTree; t < range.endTree; t += 1) {
      trees[t]!(rows)
    }
  }
  scores.set(blockScores.subarray(0, rows * k), start * k)
}

function compile(model: LightGbmModel): CompiledTrees {
  const cached = compiledModels.get(model)
  if (cached !== undefined) {
    return cached
  }
  let nodes = 0
  let leaves = 0
  for (const tree of model.trees) {
    nodes += Math.max(tree.numLeaves - 1, 0)
    leaves += tree.numLeaves
  }
  const feature = new Int32Array(nodes)
  const threshold = new Float64Array(nodes)
  const left = new Int32Array(nodes)
  const right = new Int32Array(nodes)
  const slow = new Uint8Array(nodes)
  const nodeTree = new Int32Array(nodes)
  const nodeBase = new Int32Array(model.trees.length)
  const leafBase = new Int32Array(model.trees.length)
  const leafValue = new Float64Array(leaves)
  const root = new Int32Array(model.trees.length)
  let nb = 0
  let lb = 0
  const global = (child: number): number => (child >= 0 ? nb + child : ~(lb + ~child))
  model.trees.forEach((tree, t) => {
    const inner = Math.max(tree.numLeaves - 1, 0)
    nodeBase[t] = nb
    leafBase[t] = lb
    for (let i = 0; i < inner; i += 1) {
      feature[nb + i] = tree.splitFeature[i]!
      threshold[nb + i] = tree.threshold[i]!
      left[nb + i] = global(tree.leftChild[i]!)
      right[nb + i] = global(tree.rightChild[i]!)
      slow[nb + i] = (tree.decisionType[i]! & SLOW_DECISION) === 0 ? 0 : 1
      nodeTree[nb + i] = t
    }
    leafValue.set(tree.leafValue, lb)
    root[t] = inner > 0 ? nb : ~lb
    nb += inner
    lb += tree.numLeaves
  })
  const allFast = slow.every((flag) => flag === 0)
  const compiled = { feature, threshold, left, right, slow, nodeTree, nodeBase, leafBase, leafValue, root, allFast }
  compiledModels.set(model, compiled)
  return compiled
}

/**
 * Adds trees `firstTree … endTree − 1` (non-linear) to the scores of rows `start … end − 1`.
 * The block's rows are first copied column by column, so that a node's feature is read from
 * consecutive memory across rows. Decisions are {@link leafOf}'s: the common node (numerical,
 * no missing-value type) is tested inline, others go through {@link decide}. Each row
 * adds its trees in model order, as LightGBM does, so raw scores are identical.
 */
function scoreBlock(
  model: LightGbmModel,
  compiled: CompiledTrees,
  data: Float32Array | Float64Array,
  numFeatures: number,
  scores: Float64Array,
  k: number,
  range: { readonly firstTree: number; readonly endTree: number },
  start: number,
  end: number,
  columns: Float64Array,
): void {
  const rows = end - start
  readColumns(data, numFeatures, start, rows, columns, rows, compiled.allFast)
  const { feature, threshold, left, right, slow, root, leafValue } = compiled
  if (compiled.allFast) {
    for (let t = range.firstTree; t < range.endTree; t += 1) {
      const klass = t % k
      const top = root[t]!
      for (let r = 0; r < rows; r += 1) {
        let node = top
        while (node >= 0) {
          node = columns[feature[node]! * rows + r]! <= threshold[node]! ? left[node]! : right[node]!
        }
        const at = (start + r) * k + klass
        scores[at] = scores[at]! + leafValue[~node]!
      }
    }
    return
  }
  for (let t = range.firstTree; t < range.endTree; t += 1) {
    const klass = t % k
    const top = root[t]!
    for (let r = 0; r < rows; r += 1) {
      let node = top
      while (node >= 0) {
        const value = columns[feature[node]! * rows + r]!
        if (slow[node] === 0 && value === value) {
          node = value <= threshold[node]! ? left[node]! : right[node]!
        } else {
          node = slowGlobal(model, compiled, node, value)
        }
      }
      const at = (start + r) * k + klass
      scores[at] = scores[at]! + leafValue[~node]!
    }
  }
}

/** {@link decide} on a global node number, returning a global child. */
function slowGlobal(model: LightGbmModel, compiled: CompiledTrees, node: number, value: number): number {
  const t = compiled.nodeTree[node]!
  const child = decide(model.trees[t]!, node - compiled.nodeBase[t]!, value)
  return child >= 0 ? compiled.nodeBase[t]! + child : ~(compiled.leafBase[t]! + ~child)
}

/**
 * LightGBM's decision at an internal node (numerical or categorical, with its missing-value
 * handling and `decision_type` bits): the child `value` goes to. {@link leafOf} takes it at
 * every node; the fast loop of {@link scoreBlock} only at nodes it cannot test inline.
 */
function decide(tree: ModelTree, node: number, raw: number): number {
  let value = raw
  if (value <= ZERO_THRESHOLD && value >= -ZERO_THRESHOLD) {
    value = 0
  }
  const type = tree.decisionType[node] ?? 0
  if ((type & 1) !== 0) {
    return categoricalDecision(tree, node, value)
  }
  const missingType = (type >> 2) & 3
  if (Number.isNaN(value) && missingType !== 2) {
    value = 0
  }
  if ((missingType === 1 && value === 0) || (missingType === 2 && Number.isNaN(value))) {
    return (type & 2) !== 0 ? (tree.leftChild[node] ?? 0) : (tree.rightChild[node] ?? 0)
  }
  return value <= (tree.threshold[node] ?? 0) ? (tree.leftChild[node] ?? 0) : (tree.rightChild[node] ?? 0)
}

function categoricalDecision(tree: ModelTree, node: number, value: number): number {
  const right = tree.rightChild[node] ?? 0
  if (Number.isNaN(value)) {
    return right
  }
  const category = Math.trunc(value)
  if (category < 0) {
    return right
  }
  const catIndex = Math.trunc(tree.threshold[node] ?? 0)
  const start = tree.catBoundaries[catIndex] ?? 0
  const words = (tree.catBoundaries[catIndex + 1] ?? 0) - start
  const word = Math.floor(category / 32)
  if (word >= words) {
    return right
  }
  const bits = tree.catThreshold[start + word] ?? 0
  return ((bits >>> (category % 32)) & 1) === 1 ? (tree.leftChild[node] ?? 0) : right
}

/** LightGBM's Tree::Predict for one row: the leaf value, or the leaf's linear model. */
function treeOutput(tree: ModelTree, leaf: number, data: Float32Array | Float64Array, offset: number): number {
  const { linear } = tree
  if (linear === undefined) {
    return tree.leafValue[leaf] ?? 0
  }
  let output = linear.leafConst[leaf] ?? 0
  const features = linear.leafFeatures[leaf] ?? new Int32Array(0)
  const coeff = linear.leafCoeff[leaf] ?? new Float64Array(0)
  for (let i = 0; i < features.length; i += 1) {
    let value = data[offset + (features[i] ?? 0)] ?? 0
    if (value <= ZERO_THRESHOLD && value >= -ZERO_THRESHOLD) {
      value = 0
    }
    if (Number.isNaN(value)) {
      return tree.leafValue[leaf] ?? 0
    }
    output += (coeff[i] ?? 0) * value
  }
  return output
}

/** The iteration range LightGBM's GBDT::InitPredict derives from start and count. */
function iterationRange(model: LightGbmModel, options: ScoreOptions): { start: number; count: number } {
  const total = model.trees.length / model.treesPerIteration
  const start = Math.min(Math.max(options.startIteration ?? 0, 0), total)
  const requested = options.numIteration ?? 0
  const count = requested > 0 ? Math.min(requested, total - start) : total - start
  return { start, count }
}

type Transform = (scores: Float64Array, offset: number, k: number) => void

function sigmoidTransform(sigmoid: number): Transform {
  return (scores, offset, k) => {
    for (let c = 0; c < k; c += 1) {
      scores[offset + c] = 1 / (1 + Math.exp(-sigmoid * (scores[offset + c] ?? 0)))
    }
  }
}

const IDENTITY = new Set(['lambdarank', 'rank_xendcg', 'regression_l1', 'huber', 'fair', 'quantile', 'mape', 'custom'])

/**
 * The objective's output transformation (LightGBM's ObjectiveFunction::ConvertOutput),
 * read from the model's `objective=` line.
 */
function objectiveTransform(objective: string): Transform | undefined {
  const [name = '', ...rest] = objective.split(' ')
  const option = (key: string): number | undefined => {
    const entry = rest.find((token) => token.startsWith(`${key}:`))
    return entry === undefined ? undefined : Number(entry.slice(key.length + 1))
  }
  if (name === '' || IDENTITY.has(name)) {
    return undefined
  }
  switch (name) {
    case 'regression':
      return rest.includes('sqrt')
        ? (scores, offset) => {
            const x = scores[offset] ?? 0
            scores[offset] = Math.sign(x) * x * x
          }
        : undefined
    case 'binary':
    case 'multiclassova':
      return sigmoidTransform(option('sigmoid') ?? 1)
    case 'cross_entropy':
      return sigmoidTransform(1)
    case 'cross_entropy_lambda':
      return (scores, offset) => {
        scores[offset] = Math.log1p(Math.exp(scores[offset] ?? 0))
      }
    case 'poisson':
    case 'gamma':
    case 'tweedie':
      return (scores, offset) => {
        scores[offset] = Math.exp(scores[offset] ?? 0)
      }
    case 'multiclass':
      return (scores, offset, k) => {
        let max = scores[offset] ?? 0
        for (let c = 1; c < k; c += 1) {
          max = Math.max(scores[offset + c] ?? 0, max)
        }
        let sum = 0
        for (let c = 0; c < k; c += 1) {
          const e = Math.exp((scores[offset + c] ?? 0) - max)
          scores[offset + c] = e
          sum += e
        }
        for (let c = 0; c < k; c += 1) {
          scores[offset + c] = (scores[offset + c] ?? 0) / sum
        }
      }
    default:
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `the scorer does not know objective "${truncateForMessage(objective)}"; score with raw: true`,
      )
  }
}

/**
 * Scores rows with a parsed LightGBM model in pure TypeScript: the same tree traversal
 * and the same order of additions as LightGBM's predictor, so raw scores equal
 * `Booster.predict` exactly. Transformed outputs use JavaScript's `Math.exp`, which may
 * differ from the C library's in the last bit.
 * @param model - from {@link parseLightGbmModel}
 * @param features - rows with `model.numFeatures` features
 * @param options - raw or transformed output, iteration range
 * @returns one score per row (`numClass` per row for multiclass)
 * @throws PubmatchError `FEATURE_COUNT_MISMATCH` when the rows have another feature count
 */
export function scoreRows(model: LightGbmModel, features: FeatureMatrix, options: ScoreOptions = {}): Float64Array {
  checkFeatureMatrix(features, 'rows to score')
  if (features.numFeatures !== model.numFeatures) {
    throw new PubmatchError(
      'FEATURE_COUNT_MISMATCH',
      `the model expects ${model.numFeatures} features, the rows have ${features.numFeatures}`,
    )
  }
  const transform = options.raw === true ? undefined : objectiveTransform(model.objective)
  const { start, count } = iterationRange(model, options)
  const k = model.treesPerIteration
  const { data, numRows, numFeatures } = features
  const scores = new Float64Array(numRows * k)
  const firstTree = start * k
  const endTree = (start + count) * k
  const hasLinear = model.trees.some((tree) => tree.linear !== undefined)
  // compileModel declines every model the interpreter's fast path would not take (linear
  // leaves, categorical or missing-value nodes), so it decides the engine on its own.
  const wasm = options.engine === 'interpreter' ? undefined : wasmModel(model)
  if (wasm !== undefined) {
    for (let blockStart = 0; blockStart < numRows; blockStart += BLOCK_ROWS) {
      const blockEnd = Math.min(numRows, blockStart + BLOCK_ROWS)
      scoreBlockCompiled(wasm, data, numFeatures, scores, k, { firstTree, endTree }, blockStart, blockEnd)
    }
  } else if (!hasLinear) {
    const compiled = compile(model)
    const columns = new Float64Array(Math.min(numRows, BLOCK_ROWS) * numFeatures)
    for (let blockStart = 0; blockStart < numRows; blockStart += BLOCK_ROWS) {
      const blockEnd = Math.min(numRows, blockStart + BLOCK_ROWS)
      scoreBlock(model, compiled, data, numFeatures, scores, k, { firstTree, endTree }, blockStart, blockEnd, columns)
    }
  }
  for (let blockStart = 0; blockStart < numRows && hasLinear; blockStart += BLOCK_ROWS) {
    const blockEnd = Math.min(numRows, blockStart + BLOCK_ROWS)
    for (let t = firstTree; t < endTree; t += 1) {
      const tree = model.trees[t]
      if (tree === undefined) {
        continue
      }
      const klass = t % k
      if (tree.linear === undefined && tree.numLeaves <= 1) {
        const value = tree.leafValue[0] ?? 0
        for (let r = blockStart; r < blockEnd; r += 1) {
          scores[r * k + klass] = (scores[r * k + klass] ?? 0) + value
        }
        continue
      }
      for (let r = blockStart; r < blockEnd; r += 1) {
        const offset = r * numFeatures
        const leaf = leafOf(tree, data, offset)
        scores[r * k + klass] = (scores[r * k + klass] ?? 0) + treeOutput(tree, leaf, data, offset)
      }
    }
  }
  if (options.raw !== true) {
    for (let r = 0; r < numRows; r += 1) {
      if (model.averageOutput) {
        for (let c = 0; c < k; c += 1) {
          scores[r * k + c] = (scores[r * k + c] ?? 0) / count
        }
      }
      transform?.(scores, r * k, k)
    }
  }
  return scores
}

/**
 * Explains one row's raw score: which leaf of which tree it reached and what each added
 * (first class only for multiclass models).
 * @param model - from {@link parseLightGbmModel}
 * @param row - the row's feature values
 * @param options - iteration range (`raw` is ignored: the explanation is of the raw score)
 */
export function explainRow(model: LightGbmModel, row: ArrayLike<number>, options: ScoreOptions = {}): ScoreExplanation {
  if (row.length !== model.numFeatures) {
    throw new PubmatchError(
      'FEATURE_COUNT_MISMATCH',
      `the model expects ${model.numFeatures} features, the row has ${row.length}`,
    )
  }
  const data = Float64Array.from(row)
  const { start, count } = iterationRange(model, options)
  const k = model.treesPerIteration
  const trees: TreeContribution[] = []
  let value = 0
  for (let i = start; i < start + count; i += 1) {
    const index = i * k
    const tree = model.trees[index]
    if (tree === undefined) {
      continue
    }
    const path: number[] = []
    const leaf = leafOf(tree, data, 0, path)
    const output = treeOutput(tree, leaf, data, 0)
    value += output
    trees.push({ tree: index, leaf, value: output, path })
  }
  return { value: model.averageOutput ? value / count : value, trees }
}
