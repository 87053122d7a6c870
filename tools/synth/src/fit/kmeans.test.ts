import { describe, expect, it } from 'vitest'
import { sphericalKMeans, type SparseVector } from './kmeans.ts'

function unit(entries: [number, number][]): SparseVector {
  const norm = Math.sqrt(entries.reduce((s, [, w]) => s + w * w, 0))
  return {
    ids: Int32Array.from(entries, ([i]) => i),
    weights: Float64Array.from(entries, ([, w]) => w / norm),
  }
}

describe('sphericalKMeans', () => {
  it('separates documents over disjoint vocabularies and is deterministic', () => {
    // Terms 0–2 for one group, 3–5 for the other.
    const vectors = [
      unit([
        [0, 1],
        [1, 1],
      ]),
      unit([
        [3, 2],
        [4, 1],
      ]),
      unit([
        [1, 1],
        [2, 2],
      ]),
      unit([
        [4, 1],
        [5, 1],
      ]),
      unit([
        [0, 3],
        [2, 1],
      ]),
      unit([
        [3, 1],
        [5, 3],
      ]),
    ]
    const a = sphericalKMeans(vectors, 6, 2, 1)
    const b = sphericalKMeans(vectors, 6, 2, 1)
    expect(Array.from(a.assignment)).toEqual(Array.from(b.assignment))
    expect(a.k).toBe(2)
    const [x, y, , , ,] = Array.from(a.assignment)
    expect(x).not.toBe(y)
    expect(Array.from(a.assignment)).toEqual([x, y, x, y, x, y])
  })

  it('uses at most as many clusters as vectors', () => {
    expect(sphericalKMeans([unit([[0, 1]])], 1, 5, 1).k).toBe(1)
  })
})
