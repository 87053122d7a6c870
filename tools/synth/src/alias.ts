import { PubmatchError } from '@pubmatch/core'
import type { Rng } from './random.ts'

/** Constant-time sampling from a fixed discrete distribution (Walker's alias method). */
export interface AliasTable {
  /** The number of outcomes. */
  readonly size: number
  /** The sum of the weights the table was built from. */
  readonly total: number
  /**
   * Draws an outcome index in [0, size) with probability weight / total; uses one output.
   * @param rng - the random stream
   */
  sample(rng: Rng): number
  /**
   * The outcome for a uniform number, for callers that already drew one.
   * @param u - a float in [0, 1)
   */
  pick(u: number): number
}

/**
 * Builds an alias table (Vose's stable construction) from non-negative weights. The result is
 * a pure function of the weights: the same weights always give the same table.
 * @param weights - one weight per outcome; at least one must be positive
 * @throws PubmatchError `INVALID_ARGUMENT` for an empty list, a negative or non-finite weight,
 *   or all-zero weights
 */
export function createAliasTable(weights: ArrayLike<number>): AliasTable {
  const n = weights.length
  let total = 0
  for (let i = 0; i < n; i++) {
    const w = weights[i]!
    if (!Number.isFinite(w) || w < 0) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `@pubmatch/synth: alias table weight ${i} is ${String(w)}; weights must be finite and ≥ 0`,
      )
    }
    total += w
  }
  if (n === 0 || total <= 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: an alias table needs at least one positive weight (got ${n} weights)`,
    )
  }
  const probability = new Float64Array(n)
  const alias = new Int32Array(n)
  const scaled = new Float64Array(n)
  const small: number[] = []
  const large: number[] = []
  for (let i = 0; i < n; i++) {
    scaled[i] = (weights[i]! * n) / total
    if (scaled[i]! < 1) {
      small.push(i)
    } else {
      large.push(i)
    }
  }
  while (small.length > 0 && large.length > 0) {
    const s = small.pop()!
    const l = large.pop()!
    probability[s] = scaled[s]!
    alias[s] = l
    scaled[l] = scaled[l]! + scaled[s]! - 1
    if (scaled[l] < 1) {
      small.push(l)
    } else {
      large.push(l)
    }
  }
  for (const i of large) {
    probability[i] = 1
    alias[i] = i
  }
  for (const i of small) {
    probability[i] = 1
    alias[i] = i
  }
  return new Alias(n, total, probability, alias)
}

/** The alias table as a class, so that V8 inlines `pick` into hot loops. */
class Alias implements AliasTable {
  readonly size: number
  readonly total: number
  private readonly probability: Float64Array
  private readonly alias: Int32Array

  constructor(size: number, total: number, probability: Float64Array, alias: Int32Array) {
    this.size = size
    this.total = total
    this.probability = probability
    this.alias = alias
  }

  pick(u: number): number {
    const x = u * this.size
    let i = x | 0
    if (i >= this.size) {
      // u rescaled by a caller may round up to 1.
      i = this.size - 1
    }
    return x - i < this.probability[i]! ? i : this.alias[i]!
  }

  sample(rng: Rng): number {
    return this.pick(rng.float())
  }
}
