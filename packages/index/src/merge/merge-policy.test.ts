import { describe, expect, it } from 'vitest'
import { NO_MERGES, logMergePolicy, type MergeCandidate } from './merge-policy.ts'

const segments = (sizes: readonly number[], deleted: readonly number[] = []): MergeCandidate[] =>
  sizes.map((docCount, i) => ({ name: `_${i}`, docCount, delCount: deleted[i] ?? 0 }))

describe('logMergePolicy', () => {
  it('leaves fewer than mergeFactor segments of one level alone', () => {
    expect(logMergePolicy().findMerges(segments([500, 800, 900]))).toEqual([])
  })

  it('merges mergeFactor adjacent small segments (all below minMergeDocs are one level)', () => {
    const merges = logMergePolicy({ mergeFactor: 3, minMergeDocs: 1000 }).findMerges(segments([10, 500, 999, 20, 30]))
    expect(merges).toEqual([[0, 1, 2]])
  })

  it('merges within the top level and skips a lone large segment', () => {
    // mergeFactor 10: levels log10(size): 100000 → 5; ten 1000-doc segments → 3 (floor level)
    const sizes = [100_000, ...new Array<number>(10).fill(1000)]
    expect(logMergePolicy().findMerges(segments(sizes))).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])
  })

  it('never merges a segment above maxMergeDocs', () => {
    const policy = logMergePolicy({ mergeFactor: 2, minMergeDocs: 10, maxMergeDocs: 100 })
    expect(policy.findMerges(segments([150, 120]))).toEqual([])
    expect(policy.findMerges(segments([50, 60]))).toEqual([[0, 1]])
  })

  it('rewrites a segment with too many deletions on its own', () => {
    const merges = logMergePolicy({ deletesPctAllowed: 30 }).findMerges(segments([5000, 5000], [0, 2000]))
    expect(merges).toEqual([[1]])
  })

  it('counts live documents, not deleted ones', () => {
    // two 1000-doc segments with 990 deletions each are tiny: level floor, not merged at factor 3
    const merges = logMergePolicy({ mergeFactor: 3, deletesPctAllowed: 100 }).findMerges(
      segments([1000, 1000, 1000], [990, 990, 0]),
    )
    expect(merges).toEqual([[0, 1, 2]])
  })
})

describe('NO_MERGES', () => {
  it('never merges', () => {
    expect(NO_MERGES.findMerges(segments(new Array<number>(50).fill(1)))).toEqual([])
  })
})
