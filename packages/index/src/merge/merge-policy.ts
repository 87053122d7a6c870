/** What a merge policy sees of a segment. */
export interface MergeCandidate {
  readonly name: string
  /** Documents in the segment, deleted ones included. */
  readonly docCount: number
  /** Deleted documents. */
  readonly delCount: number
}

/** Decides which segments to merge after a commit's flushes. */
export interface MergePolicy {
  /**
   * Groups of segments to merge, each a run of consecutive indices into `segments`
   * (consecutive, so that merged segments keep the documents' insertion order); groups do
   * not overlap. A group of one rewrites a segment without its deleted documents.
   * @param segments - the segments in index order
   */
  findMerges(segments: readonly MergeCandidate[]): number[][]
}

/** Options of {@link logMergePolicy}. */
export interface LogMergePolicyOptions {
  /** Segments of one level merged at once, and the size ratio between levels. Defaults to `10`. */
  mergeFactor?: number
  /** Segments with fewer live documents all count as this size (one bottom level). Defaults to `1000`. */
  minMergeDocs?: number
  /** Segments with more live documents are never merged (except by `forceMerge`). Defaults to `Infinity`. */
  maxMergeDocs?: number
  /** A segment with more than this percentage of deleted documents is rewritten on its own. Defaults to `33`. */
  deletesPctAllowed?: number
}

/** Lucene's LogMergePolicy level span: segments within 0.75 levels of the top share a level. */
const LEVEL_LOG_SPAN = 0.75

/**
 * Lucene's log-size merge policy, counted in live documents: segment sizes are bucketed
 * into levels `log_mergeFactor(size)`; whenever `mergeFactor` adjacent segments share a
 * level they merge into one segment of the next level. Each document is therefore
 * rewritten about `log_mergeFactor(N / minMergeDocs)` times, and an index has at most
 * about `mergeFactor − 1` segments per level. Segments with many deletions are rewritten
 * alone (expunged). Pure.
 * @param options - see {@link LogMergePolicyOptions}
 */
export function logMergePolicy(options: LogMergePolicyOptions = {}): MergePolicy {
  const mergeFactor = Math.max(2, options.mergeFactor ?? 10)
  const minMergeDocs = Math.max(1, options.minMergeDocs ?? 1000)
  const maxMergeDocs = options.maxMergeDocs ?? Infinity
  const deletesPctAllowed = options.deletesPctAllowed ?? 33
  const norm = Math.log(mergeFactor)
  return {
    findMerges(segments: readonly MergeCandidate[]): number[][] {
      const sizes = segments.map((s) => s.docCount - s.delCount)
      const levels = sizes.map((size) => Math.log(Math.max(size, minMergeDocs)) / norm)
      const levelFloor = Math.log(minMergeDocs) / norm
      const merges: number[][] = []
      const n = segments.length
      let start = 0
      while (start < n) {
        let maxLevel = -Infinity
        for (let i = start; i < n; i++) {
          maxLevel = Math.max(maxLevel, levels[i]!)
        }
        let levelBottom: number
        if (maxLevel <= levelFloor) {
          levelBottom = -1
        } else {
          levelBottom = maxLevel - LEVEL_LOG_SPAN
          if (levelBottom < levelFloor) {
            levelBottom = levelFloor
          }
        }
        let upto = n - 1
        while (upto >= start && levels[upto]! < levelBottom) {
          upto--
        }
        let end = start + mergeFactor
        while (end <= upto + 1) {
          const group: number[] = []
          let tooLarge = false
          for (let i = start; i < end; i++) {
            group.push(i)
            tooLarge ||= sizes[i]! > maxMergeDocs
          }
          if (!tooLarge) {
            merges.push(group)
          }
          start = end
          end = start + mergeFactor
        }
        start = upto + 1
      }
      const merging = new Set(merges.flat())
      segments.forEach((segment, i) => {
        if (
          !merging.has(i) &&
          segment.delCount > 0 &&
          (100 * segment.delCount) / segment.docCount > deletesPctAllowed
        ) {
          merges.push([i])
        }
      })
      return merges.sort((a, b) => a[0]! - b[0]!)
    },
  }
}

/** A policy that never merges (segments then only merge through `forceMerge`). */
export const NO_MERGES: MergePolicy = Object.freeze({ findMerges: (): number[][] => [] })
