import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** One tree of a LightGBM model, as flat typed arrays (LightGBM's own layout). */
export interface ModelTree {
  /** Leaves; a tree with one leaf has no internal nodes. */
  readonly numLeaves: number
  /** Per internal node: the feature index it splits on. */
  readonly splitFeature: Int32Array
  /** Per internal node: the threshold (numerical) or the index into `catBoundaries` (categorical). */
  readonly threshold: Float64Array
  /**
   * Per internal node: bit 0 categorical, bit 1 default-left, bits 2–3 missing type
   * (0 none, 1 zero, 2 NaN).
   */
  readonly decisionType: Uint8Array
  /** Per internal node: the left child (`>= 0` a node, `< 0` the leaf `~child`). */
  readonly leftChild: Int32Array
  /** Per internal node: the right child, encoded as `leftChild`. */
  readonly rightChild: Int32Array
  /** Per leaf: the output (shrinkage already applied). */
  readonly leafValue: Float64Array
  /**
   * Per internal node: the training rows' mean output below it (`internal_value`, shrinkage
   * applied), used to attribute a score to features along a row's path; `undefined` when the
   * model text has none.
   */
  readonly internalValue?: Float64Array
  /** Per categorical split: where its bitset starts in `catThreshold` (length `num_cat + 1`). */
  readonly catBoundaries: Int32Array
  /** The category bitsets, 32 categories per word. */
  readonly catThreshold: Uint32Array
  /** Linear-tree leaves (`linear_tree=true`), else `undefined`. */
  readonly linear?: {
    /** Per leaf: the constant term. */
    readonly leafConst: Float64Array
    /** Per leaf: the features of its linear model. */
    readonly leafFeatures: readonly Int32Array[]
    /** Per leaf: their coefficients. */
    readonly leafCoeff: readonly Float64Array[]
  }
}

/** A LightGBM text model, parsed for {@link scoreRows}. */
export interface LightGbmModel {
  /** Model format version, e.g. `v4`. */
  readonly version: string
  /** Classes (1 except for multiclass). */
  readonly numClass: number
  /** Trees per boosting iteration. */
  readonly treesPerIteration: number
  /** Features a row must have (`max_feature_idx + 1`). */
  readonly numFeatures: number
  /** Feature names in column order. */
  readonly featureNames: readonly string[]
  /** The `objective=` line, e.g. `lambdarank` or `binary sigmoid:1`; empty when absent. */
  readonly objective: string
  /** Random-forest models average their trees instead of summing them. */
  readonly averageOutput: boolean
  /** All trees, iteration by iteration. */
  readonly trees: readonly ModelTree[]
}

function malformed(message: string, line: number, text: string): PubmatchError {
  return new PubmatchError(
    'UNSUPPORTED_FORMAT',
    `not a LightGBM text model: ${message} at line ${line}: "${truncateForMessage(text)}"`,
    { details: { position: line } },
  )
}

const SPECIAL: Record<string, number> = {
  inf: Number.POSITIVE_INFINITY,
  '+inf': Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
  nan: Number.NaN,
  '-nan': Number.NaN,
}

function parseNumber(token: string): number {
  const special = SPECIAL[token.toLowerCase()]
  if (special !== undefined) {
    return special
  }
  return token === '' ? Number.NaN : Number(token)
}

function numbers(value: string | undefined, expected: number, key: string, line: number): number[] {
  if (value === undefined) {
    if (expected === 0) {
      return []
    }
    throw malformed(`tree has no ${key}`, line, key)
  }
  // Linear trees write leaf_features/leaf_coeff with extra spaces between leaves.
  const trimmed = value.trim()
  const parts = trimmed === '' ? [] : trimmed.split(/ +/)
  if (parts.length !== expected) {
    throw malformed(`${key} has ${parts.length} values, expected ${expected}`, line, value)
  }
  const out = parts.map(parseNumber)
  const bad = out.findIndex((x, i) => Number.isNaN(x) && !(parts[i] ?? '').toLowerCase().endsWith('nan'))
  if (bad >= 0) {
    throw malformed(`${key} holds "${parts[bad]}", not a number`, line, value)
  }
  return out
}

function parseTree(fields: Map<string, string>, line: number): ModelTree {
  const numLeaves = Number(fields.get('num_leaves'))
  const numCat = Number(fields.get('num_cat') ?? '0')
  if (!Number.isInteger(numLeaves) || numLeaves < 1) {
    throw malformed('num_leaves is missing or not a positive whole number', line, fields.get('num_leaves') ?? '')
  }
  if (!Number.isInteger(numCat) || numCat < 0) {
    throw malformed('num_cat is not a whole number', line, fields.get('num_cat') ?? '')
  }
  const inner = numLeaves - 1
  const isLinear = fields.get('is_linear') === '1'
  const leafValue = Float64Array.from(numbers(fields.get('leaf_value'), numLeaves, 'leaf_value', line))
  const splitFeature = Int32Array.from(numbers(fields.get('split_feature'), inner, 'split_feature', line))
  const threshold = Float64Array.from(numbers(fields.get('threshold'), inner, 'threshold', line))
  const decisionType = Uint8Array.from(
    fields.has('decision_type') ? numbers(fields.get('decision_type'), inner, 'decision_type', line) : new Array<number>(inner).fill(0),
  )
  const leftChild = Int32Array.from(numbers(fields.get('left_child'), inner, 'left_child', line))
  const rightChild = Int32Array.from(numbers(fields.get('right_child'), inner, 'right_child', line))
  let catBoundaries = new Int32Array(0)
  let catThreshold = new Uint32Array(0)
  if (numCat > 0) {
    catBoundaries = Int32Array.from(numbers(fields.get('cat_boundaries'), numCat + 1, 'cat_boundaries', line))
    catThreshold = Uint32Array.from(numbers(fields.get('cat_threshold'), catBoundaries[numCat] ?? 0, 'cat_threshold', line))
  }
  for (const child of [...leftChild, ...rightChild]) {
    if (child >= inner || ~child >= numLeaves) {
      throw malformed(`child ${child} is outside the tree`, line, String(child))
    }
  }
  const internalValue = fields.has('internal_value')
    ? Float64Array.from(numbers(fields.get('internal_value'), inner, 'internal_value', line))
    : undefined
  const tree: ModelTree = {
    numLeaves,
    splitFeature,
    threshold,
    decisionType,
    leftChild,
    rightChild,
    leafValue,
    catBoundaries,
    catThreshold,
    ...(internalValue === undefined ? {} : { internalValue }),
  }
  if (!isLinear) {
    return tree
  }
  const leafConst = Float64Array.from(numbers(fields.get('leaf_const'), numLeaves, 'leaf_const', line))
  const counts = fields.has('num_features') ? numbers(fields.get('num_features'), numLeaves, 'num_features', line) : new Array<number>(numLeaves).fill(0)
  const total = counts.reduce((a, b) => a + b, 0)
  const features = numbers(fields.get('leaf_features'), total, 'leaf_features', line)
  const coeff = numbers(fields.get('leaf_coeff'), total, 'leaf_coeff', line)
  const leafFeatures: Int32Array[] = []
  const leafCoeff: Float64Array[] = []
  let offset = 0
  for (const count of counts) {
    leafFeatures.push(Int32Array.from(features.slice(offset, offset + count)))
    leafCoeff.push(Float64Array.from(coeff.slice(offset, offset + count)))
    offset += count
  }
  return { ...tree, linear: { leafConst, leafFeatures, leafCoeff } }
}

/**
 * Parses a model in LightGBM's text format (what `Booster.saveModel` returns and
 * `model.txt` files hold) into typed arrays for {@link scoreRows}.
 * @param text - the model text
 * @throws PubmatchError `UNSUPPORTED_FORMAT` when it is not a LightGBM v3/v4 tree model or a tree is inconsistent
 */
export function parseLightGbmModel(text: string): LightGbmModel {
  const steps = parseSteps(text)
  let step = steps.next()
  while (step.done !== true) {
    step = steps.next()
  }
  return step.value
}

/**
 * {@link parseLightGbmModel} in steps of {@link STEP_TREES} trees, awaiting `pause` between two
 * steps, so that a server loading a new model goes on answering meanwhile (`pause` lets its event
 * loop run). The model is the one {@link parseLightGbmModel} returns.
 * @param text - the model text
 * @param pause - awaited between steps, e.g. `() => new Promise((resolve) => setImmediate(resolve))`
 * @throws PubmatchError as {@link parseLightGbmModel}
 */
export async function parseLightGbmModelInSteps(text: string, pause: () => Promise<void>): Promise<LightGbmModel> {
  const steps = parseSteps(text)
  let step = steps.next()
  while (step.done !== true) {
    await pause()
    step = steps.next()
  }
  return step.value
}

/** Trees parsed in one step of {@link parseLightGbmModelInSteps} (about 1–2 ms for trees of 31 leaves). */
export const STEP_TREES = 16

function* parseSteps(text: string): Generator<void, LightGbmModel> {
  const lines = text.split('\n')
  const header = new Map<string, string>()
  const flags = new Set<string>()
  let i: number
  const first = (lines[0] ?? '').trim()
  if (first !== 'tree') {
    throw malformed('the first line is not "tree"', 1, first)
  }
  for (i = 1; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim()
    if (line.startsWith('Tree=') || line === 'end of trees') {
      break
    }
    if (line === '') {
      continue
    }
    const eq = line.indexOf('=')
    if (eq < 0) {
      flags.add(line)
    } else {
      header.set(line.slice(0, eq), line.slice(eq + 1))
    }
  }
  const version = header.get('version') ?? ''
  if (version !== 'v3' && version !== 'v4') {
    throw malformed(`model version "${version}" is not v3 or v4`, 2, version)
  }
  const numClass = Number(header.get('num_class') ?? '1')
  const treesPerIteration = Number(header.get('num_tree_per_iteration') ?? String(numClass))
  const maxFeatureIdx = Number(header.get('max_feature_idx'))
  if (!Number.isInteger(maxFeatureIdx) || maxFeatureIdx < 0 || !Number.isInteger(treesPerIteration) || treesPerIteration < 1) {
    throw malformed('max_feature_idx or num_tree_per_iteration is missing', 2, header.get('max_feature_idx') ?? '')
  }
  const trees: ModelTree[] = []
  while (i < lines.length) {
    const line = (lines[i] ?? '').trim()
    if (line === 'end of trees') {
      break
    }
    if (!line.startsWith('Tree=')) {
      i += 1
      continue
    }
    const start = i + 1
    const fields = new Map<string, string>()
    for (i += 1; i < lines.length; i += 1) {
      const field = (lines[i] ?? '').trim()
      if (field === '' || field.startsWith('Tree=') || field === 'end of trees') {
        break
      }
      const eq = field.indexOf('=')
      if (eq > 0) {
        fields.set(field.slice(0, eq), field.slice(eq + 1))
      }
    }
    const tree = parseTree(fields, start)
    for (const feature of tree.splitFeature) {
      if (feature < 0 || feature > maxFeatureIdx) {
        throw malformed(`split on feature ${feature}, beyond max_feature_idx ${maxFeatureIdx}`, start, String(feature))
      }
    }
    trees.push(tree)
    if (trees.length % STEP_TREES === 0) {
      yield
    }
  }
  if (trees.length % treesPerIteration !== 0) {
    throw malformed(`${trees.length} trees is not a multiple of num_tree_per_iteration ${treesPerIteration}`, i + 1, '')
  }
  const names = header.get('feature_names')
  return {
    version,
    numClass,
    treesPerIteration,
    numFeatures: maxFeatureIdx + 1,
    featureNames: names === undefined ? [] : names.split(' '),
    objective: header.get('objective') ?? '',
    averageOutput: flags.has('average_output'),
    trees,
  }
}
