/**
 * L2-regularised linear models over sparse vectors, with class-weighted samples (by default each
 * class weighs half of the total, as scikit-learn's `class_weight='balanced'`): minimises
 * `Σ c_i·ℓ(y_i·(w·x_i + b)) / Σ c_i + λ/2·‖w‖²`, `ℓ` the logistic loss `log(1 + exp(−m))` or
 * the squared hinge `max(0, 1 − m)²`, by Nesterov-accelerated gradient descent with the fixed
 * step `1/L`, `L = ¼·2 + λ` or `2·2 + λ` (a bound of the Hessian for L2-normalised rows plus the
 * intercept). Deterministic; a previous model can warm-start the next fit. Only the training rows'
 * features are touched: the iterations cost time in the training rows' entries and their distinct
 * features; only copying the weights in and out grows with the feature count.
 */
import { PubmatchError } from '@pubmatch/core'
import type { SparseVector } from './features.ts'

/** A fitted model. */
export interface LogisticModel {
  readonly weights: Float64Array
  readonly bias: number
}

/** Options of {@link fitLogistic}. */
export interface LogisticOptions {
  /** L2 strength λ. Defaults to `0.01`. */
  readonly lambda?: number
  /** Gradient steps. Defaults to `150`. */
  readonly iterations?: number
  /** A model to start from (same feature count). */
  readonly start?: LogisticModel
  /**
   * The share of the total sample weight given to the relevant class (the rest to the other).
   * Defaults to `0.5` (balanced). ASReview's ELAS u4 balancer (`ratio` 9.8) is `9.8/10.8`.
   */
  readonly positiveShare?: number
  /** The loss: `logistic` (the default) or `squared-hinge` (a linear SVM's, as LinearSVC). */
  readonly loss?: 'logistic' | 'squared-hinge'
}

/** `w·x + b` for a sparse row. */
export function decision(model: LogisticModel, row: SparseVector): number {
  let sum = model.bias
  for (let k = 0; k < row.indices.length; k++) {
    sum += model.weights[row.indices[k]!]! * row.values[k]!
  }
  return sum
}

/**
 * Fits the model on labelled rows.
 * @param rows - the training rows
 * @param labels - 1 (relevant) or 0, one per row; both classes must be present
 * @param features - the feature count
 * @param options - see {@link LogisticOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` when a class is missing, the lengths differ, a feature id
 *   is outside `0 … features − 1` or the start model has another feature count
 */
export function fitLogistic(rows: readonly SparseVector[], labels: ArrayLike<number>, features: number, options: LogisticOptions = {}): LogisticModel {
  if (rows.length !== labels.length) {
    throw new PubmatchError('INVALID_ARGUMENT', `${rows.length} rows but ${labels.length} labels`)
  }
  let positives = 0
  for (let i = 0; i < labels.length; i++) {
    positives += labels[i]! === 1 ? 1 : 0
  }
  const negatives = rows.length - positives
  if (positives === 0 || negatives === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `logistic regression needs both classes, got ${positives} relevant and ${negatives} not`)
  }
  const lambda = options.lambda ?? 0.01
  const iterations = options.iterations ?? 150
  const share = options.positiveShare ?? 0.5
  if (!(share > 0 && share < 1) || !(lambda > 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `positiveShare must be in (0, 1) and lambda > 0, got ${share} and ${lambda}`)
  }
  const hinge = options.loss === 'squared-hinge'
  // class weights normalised to sum 1: the relevant class contributes `share`, the other the rest
  const cPos = share / positives
  const cNeg = (1 - share) / negatives
  // the curvature of the loss is at most ¼ (logistic) or 2 (squared hinge) times ‖x‖² + 1 = 2
  const step = 1 / ((hinge ? 4 : 0.5) + lambda)
  // only the features of the training rows move: every other gradient is λ·w, and their weights
  // stay where they are (zero, or where a warm start left them, decaying only while trained on).
  // The active features get local ids 0 … A−1 in first-seen order and the rows are copied into
  // one compressed sparse row block over those ids, so that every loop below reads contiguous
  // arrays of the active features only (the arithmetic, and its order, is that of the rows).
  const local = new Int32Array(features).fill(-1)
  const activeIds: number[] = []
  let entries = 0
  for (const row of rows) {
    entries += row.indices.length
    for (let k = 0; k < row.indices.length; k++) {
      const j = row.indices[k]!
      if (!(j >= 0 && j < features)) {
        throw new PubmatchError('INVALID_ARGUMENT', `feature id ${j} out of range (${features} features)`)
      }
      if (local[j] === -1) {
        local[j] = activeIds.length
        activeIds.push(j)
      }
    }
  }
  const active = activeIds.length
  const offsets = new Int32Array(rows.length + 1)
  const cols = new Int32Array(entries)
  const vals = new Float64Array(entries)
  const ys = new Float64Array(rows.length)
  const cs = new Float64Array(rows.length)
  let at = 0
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    for (let k = 0; k < row.indices.length; k++) {
      cols[at] = local[row.indices[k]!]!
      vals[at] = row.values[k]!
      at++
    }
    offsets[i + 1] = at
    ys[i] = labels[i] === 1 ? 1 : -1
    cs[i] = labels[i] === 1 ? cPos : cNeg
  }
  const w = new Float64Array(active)
  if (options.start) {
    if (options.start.weights.length !== features) {
      throw new PubmatchError('INVALID_ARGUMENT', `a start model of ${options.start.weights.length} features for ${features}`)
    }
    for (let a = 0; a < active; a++) {
      w[a] = options.start.weights[activeIds[a]!]!
    }
  }
  let b = options.start?.bias ?? 0
  const wPrev = Float64Array.from(w)
  let bPrev = b
  const v = new Float64Array(active)
  const grad = new Float64Array(active)
  for (let t = 1; t <= iterations; t++) {
    const momentum = (t - 1) / (t + 2)
    // v = w + momentum·(w − wPrev)
    for (let a = 0; a < active; a++) {
      v[a] = w[a]! + momentum * (w[a]! - wPrev[a]!)
    }
    const vb = b + momentum * (b - bPrev)
    grad.fill(0)
    let gb = 0
    for (let i = 0; i < rows.length; i++) {
      const from = offsets[i]!
      const to = offsets[i + 1]!
      let z = vb
      for (let k = from; k < to; k++) {
        z += v[cols[k]!]! * vals[k]!
      }
      const y = ys[i]!
      // d/dz log(1 + exp(−y·z)) = −y·σ(−y·z); d/dz max(0, 1 − y·z)² = −2y·max(0, 1 − y·z)
      const g = (hinge ? -2 * y * Math.max(0, 1 - y * z) : -y / (1 + Math.exp(y * z))) * cs[i]!
      gb += g
      for (let k = from; k < to; k++) {
        grad[cols[k]!]! += g * vals[k]!
      }
    }
    bPrev = b
    for (let a = 0; a < active; a++) {
      wPrev[a] = w[a]!
      w[a] = v[a]! - step * (grad[a]! + lambda * v[a]!)
    }
    b = vb - step * gb
  }
  const weights = options.start ? Float64Array.from(options.start.weights) : new Float64Array(features)
  for (let a = 0; a < active; a++) {
    weights[activeIds[a]!] = w[a]!
  }
  return { weights, bias: b }
}
