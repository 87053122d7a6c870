import { createRng } from '../random.ts'

/** A sparse vector: parallel term ids (ascending) and weights. */
export interface SparseVector {
  ids: Int32Array
  weights: Float64Array
}

/** Result of {@link sphericalKMeans}. */
export interface Clustering {
  /** Cluster of each vector. */
  assignment: Int32Array
  /** Number of clusters actually used (≤ k). */
  k: number
}

function dot(v: SparseVector, centroid: Float64Array): number {
  let sum = 0
  for (let i = 0; i < v.ids.length; i++) {
    sum += v.weights[i]! * centroid[v.ids[i]!]!
  }
  return sum
}

/**
 * Spherical k-means (cosine similarity) over L2-normalised sparse vectors, seeded with
 * k-means++ from a fixed seed, so that the result is deterministic.
 * @param vectors - L2-normalised vectors over `dimensions` term ids
 * @param dimensions - number of distinct term ids
 * @param k - clusters wanted
 * @param seed - the seed of the k-means++ initialisation
 * @param iterations - Lloyd iterations. Defaults to `30`.
 */
export function sphericalKMeans(
  vectors: readonly SparseVector[],
  dimensions: number,
  k: number,
  seed: number,
  iterations = 30,
): Clustering {
  const n = vectors.length
  const clusters = Math.max(1, Math.min(k, n))
  const rng = createRng(seed, 0x6b6d)
  const centroids: Float64Array[] = []
  const toCentroid = (v: SparseVector): Float64Array => {
    const c = new Float64Array(dimensions)
    for (let i = 0; i < v.ids.length; i++) {
      c[v.ids[i]!] = v.weights[i]!
    }
    return c
  }
  // k-means++: each next centre with probability ∝ (1 − best cosine) to the chosen ones.
  centroids.push(toCentroid(vectors[rng.int(n)]!))
  const distance = new Float64Array(n).fill(Infinity)
  while (centroids.length < clusters) {
    const last = centroids[centroids.length - 1]!
    let total = 0
    for (let i = 0; i < n; i++) {
      distance[i] = Math.min(distance[i]!, Math.max(0, 1 - dot(vectors[i]!, last)))
      total += distance[i]!
    }
    let u = rng.float() * total
    let chosen = n - 1
    for (let i = 0; i < n; i++) {
      u -= distance[i]!
      if (u < 0) {
        chosen = i
        break
      }
    }
    centroids.push(toCentroid(vectors[chosen]!))
  }
  const assignment = new Int32Array(n)
  for (let iteration = 0; iteration < iterations; iteration++) {
    let changed = 0
    for (let i = 0; i < n; i++) {
      let best = 0
      let bestValue = -Infinity
      for (let c = 0; c < clusters; c++) {
        const value = dot(vectors[i]!, centroids[c]!)
        if (value > bestValue) {
          bestValue = value
          best = c
        }
      }
      if (iteration === 0 || assignment[i] !== best) {
        changed++
        assignment[i] = best
      }
    }
    // Recompute centroids as normalised means; an empty cluster takes the worst-fitting vector.
    for (let c = 0; c < clusters; c++) {
      centroids[c]!.fill(0)
    }
    const sizes = new Int32Array(clusters)
    for (let i = 0; i < n; i++) {
      const v = vectors[i]!
      const c = centroids[assignment[i]!]!
      sizes[assignment[i]!]!++
      for (let j = 0; j < v.ids.length; j++) {
        c[v.ids[j]!] = c[v.ids[j]!]! + v.weights[j]!
      }
    }
    for (let c = 0; c < clusters; c++) {
      if (sizes[c] === 0) {
        let worst = 0
        let worstValue = Infinity
        for (let i = 0; i < n; i++) {
          const value = dot(vectors[i]!, centroids[assignment[i]!]!)
          if (value < worstValue) {
            worstValue = value
            worst = i
          }
        }
        centroids[c] = toCentroid(vectors[worst]!)
        assignment[worst] = c
        changed++
        continue
      }
      const centroid = centroids[c]!
      let norm = 0
      for (let d = 0; d < dimensions; d++) {
        norm += centroid[d]! * centroid[d]!
      }
      norm = Math.sqrt(norm) || 1
      for (let d = 0; d < dimensions; d++) {
        centroid[d] = centroid[d]! / norm
      }
    }
    if (changed === 0 && iteration > 0) {
      break
    }
  }
  return { assignment, k: clusters }
}
