/**
 * The two click-label schemes of the literature, as pure functions: NCBI's graded gold list
 * (Fiorini et al. 2018, and `computeRelevance` in NCBI's PubMed-Best-Match code) and
 * Yeganova's pairwise-style positive/negative labels from clicks and skips.
 */
import { PubmatchError } from '@pubmatch/core'
import type { ShownResult } from './log-format.ts'

/**
 * NCBI's grade of the document at 0-based rank `rank` of a gold list: ranks 0–9 get
 * 12 − rank (12 … 3), ranks 10–20 get 2, any later rank 1; a document absent from the list
 * gets 0 (pass `-1` or use {@link ncbiJudgements}).
 * @param rank - 0-based rank in the gold list, or `-1` for absent
 */
export function ncbiGrade(rank: number): number {
  if (!Number.isInteger(rank) || rank < -1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `a gold rank must be an integer ≥ -1, got ${rank}`,
    )
  }
  if (rank === -1) {
    return 0
  }
  if (rank < 10) {
    return 12 - rank
  }
  return rank <= 20 ? 2 : 1
}

/**
 * Grades of a ranked gold list with {@link ncbiGrade}. A document listed twice keeps its
 * first (better) rank.
 * @param gold - document ids, best first
 */
export function ncbiJudgements(gold: readonly string[]): Map<string, number> {
  const judgements = new Map<string, number>()
  gold.forEach((id, rank) => {
    if (!judgements.has(id)) {
      judgements.set(id, ncbiGrade(rank))
    }
  })
  return judgements
}

/** Options of {@link ncbiEligible} and {@link goldOverlap}. */
export interface EligibilityOptions {
  /** How many gold documents, from the top, are looked for. Defaults to `10`. */
  goldDepth?: number
  /** How many first-stage results, from the top, are searched. Defaults to `500`. */
  firstStageDepth?: number
  /** How many of the top gold documents must be found. Defaults to `5`. */
  minOverlap?: number
}

/**
 * How many of the top `goldDepth` gold documents occur in the first `firstStageDepth`
 * first-stage results.
 * @param gold - gold list, best first
 * @param firstStage - first-stage ranking, best first
 * @param options - see {@link EligibilityOptions}
 */
export function goldOverlap(
  gold: readonly string[],
  firstStage: Iterable<string>,
  options: EligibilityOptions = {},
): number {
  const goldDepth = options.goldDepth ?? 10
  const firstStageDepth = options.firstStageDepth ?? 500
  const top = new Set<string>()
  let seen = 0
  for (const id of firstStage) {
    if (seen++ >= firstStageDepth) {
      break
    }
    top.add(id)
  }
  let found = 0
  for (const id of new Set(gold.slice(0, goldDepth))) {
    if (top.has(id)) {
      found++
    }
  }
  return found
}

/**
 * NCBI's eligibility check of a training query: at least 5 of its top-10 gold documents are
 * among the first stage's top 500 (otherwise the reranker could never place them, and the
 * query teaches nothing).
 * @param gold - gold list, best first
 * @param firstStage - the first stage's ranking for the query, best first
 * @param options - see {@link EligibilityOptions}
 */
export function ncbiEligible(
  gold: readonly string[],
  firstStage: Iterable<string>,
  options: EligibilityOptions = {},
): boolean {
  return goldOverlap(gold, firstStage, options) >= (options.minOverlap ?? 5)
}

/** Per-document votes of one impression under Yeganova's rule. */
export interface YeganovaVotes {
  /** Clicked, below rank 1, at or above the lowest click. */
  readonly positive: readonly string[]
  /** Shown above the lowest click and not clicked. */
  readonly negative: readonly string[]
}

/**
 * Yeganova's labels from one impression: a clicked document is positive, a document shown
 * above a click and not clicked is negative; a click at rank 1 is ignored (users click the
 * first result whatever it is), and everything below the lowest click is ignored (it may not
 * have been looked at). An impression without clicks gives no votes.
 * @param shown - the results shown, with their 1-based positions
 * @param clicked - ids of the shown documents that were clicked (abstract or full text)
 */
export function yeganovaVotes(
  shown: readonly ShownResult[],
  clicked: ReadonlySet<string>,
): YeganovaVotes {
  let lowest = 0
  for (const result of shown) {
    if (clicked.has(result.id)) {
      lowest = Math.max(lowest, result.position)
    }
  }
  const positive: string[] = []
  const negative: string[] = []
  for (const result of shown) {
    if (result.position > lowest) {
      continue
    }
    if (clicked.has(result.id)) {
      if (result.position > 1) {
        positive.push(result.id)
      }
    } else {
      negative.push(result.id)
    }
  }
  return { positive, negative }
}
