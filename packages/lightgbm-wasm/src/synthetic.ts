import { PubmatchError } from '@pubmatch/core'
import type { FeatureMatrix } from './matrix.ts'

/** Options of {@link createSyntheticRankingSet}. */
export interface SyntheticRankingOptions {
  /** Queries. */
  readonly numQueries: number
  /** Documents per query, or an inclusive `[min, max]` range drawn per query. */
  readonly docsPerQuery: number | readonly [number, number]
  /** Features per document. */
  readonly numFeatures: number
  /** Relevance grades 0..numGrades-1. Defaults to `5`. */
  readonly numGrades?: number
  /** Seed of the generator. Defaults to `1`. */
  readonly seed?: number
  /** Share of values set to NaN in every 13th feature (from feature 7). Defaults to `0`. */
  readonly missingRate?: number
  /** Storage of the features. Defaults to `'float64'`. */
  readonly dtype?: 'float32' | 'float64'
}

/** A ranking set: features, graded labels and query group sizes. */
export interface SyntheticRankingSet {
  /** Row-major features. */
  readonly features: FeatureMatrix
  /** One grade per row. */
  readonly labels: Float32Array
  /** Query sizes in row order. */
  readonly groups: Int32Array
}

/** mulberry32: a small, fast, seedable 32-bit generator (public domain). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Makes a deterministic learning-to-rank set (same options → same bytes). Features mix
 * uniform values, small counts (every 7th from 3), mostly-zero values (every 11th from 5)
 * and, optionally, NaNs; a hidden linear relevance of the first ten features plus noise is
 * cut into grades per query: top 5 % → `numGrades-1`, then 10 %, 15 %, 20 % for the next
 * grades down, the rest 0.
 * @param options - sizes, seed and missing-value rate
 */
export function createSyntheticRankingSet(options: SyntheticRankingOptions): SyntheticRankingSet {
  const { numQueries, numFeatures } = options
  const numGrades = options.numGrades ?? 5
  const missingRate = options.missingRate ?? 0
  const [minDocs, maxDocs] = typeof options.docsPerQuery === 'number' ? [options.docsPerQuery, options.docsPerQuery] : options.docsPerQuery
  if (![numQueries, numFeatures, minDocs, maxDocs, numGrades].every((n) => Number.isInteger(n) && n > 0) || minDocs > maxDocs) {
    throw new PubmatchError('INVALID_ARGUMENT', 'synthetic set sizes must be positive whole numbers (and min ≤ max documents)')
  }
  const random = mulberry32(options.seed ?? 1)
  const groups = new Int32Array(numQueries)
  for (let q = 0; q < numQueries; q += 1) {
    groups[q] = minDocs + Math.floor(random() * (maxDocs - minDocs + 1))
  }
  const numRows = groups.reduce((a, b) => a + b, 0)
  const data = options.dtype === 'float32' ? new Float32Array(numRows * numFeatures) : new Float64Array(numRows * numFeatures)
  const labels = new Float32Array(numRows)
  const weights = Array.from({ length: Math.min(10, numFeatures) }, (_, j) => (j % 2 === 0 ? 1 : -0.5) / (1 + j / 3))
  const shares = [0.05, 0.1, 0.15, 0.2]
  let row = 0
  for (let q = 0; q < numQueries; q += 1) {
    const size = groups[q] ?? 0
    const latent: { row: number; z: number }[] = []
    for (let d = 0; d < size; d += 1, row += 1) {
      let z = 0
      for (let j = 0; j < numFeatures; j += 1) {
        let value = random()
        if (j % 7 === 3) {
          value = Math.floor(value * 10)
        } else if (j % 11 === 5 && random() < 0.7) {
          value = 0
        }
        if (j < weights.length) {
          z += (weights[j] ?? 0) * value
        }
        if (missingRate > 0 && j % 13 === 7 && random() < missingRate) {
          value = Number.NaN
        }
        data[row * numFeatures + j] = value
      }
      latent.push({ row, z: z + 0.3 * (random() - 0.5) })
    }
    latent.sort((a, b) => b.z - a.z || a.row - b.row)
    let rank = 0
    for (let g = numGrades - 1, s = 0; g > 0 && s < shares.length; g -= 1, s += 1) {
      const take = Math.ceil((shares[s] ?? 0) * size)
      for (let i = 0; i < take && rank < size; i += 1, rank += 1) {
        labels[latent[rank]?.row ?? 0] = g
      }
    }
  }
  return { features: { data, numRows, numFeatures }, labels, groups }
}
