import { PubmatchError, compareCodePoints, type RunEntry } from '@pubmatch/core'
import { sortTrecOrder } from './trec-order.ts'

/** Judgement value of a retrieved document that is not in the qrels (trec_eval `RELVALUE_NONPOOL`). */
export const NOT_IN_POOL = -1
/** Judgement value of a retrieved document judged with a negative grade, i.e. pooled but unjudged (trec_eval `RELVALUE_UNJUDGED`). */
export const UNJUDGED = -2

/**
 * One query's ranking joined with its judgements: trec_eval's `RES_RELS`. Every measure
 * of {@link evaluate} is a pure function of this object.
 */
export interface JudgedRanking {
  /** Judgement of each retrieved document in rank order: a grade ≥ 0, {@link NOT_IN_POOL} or {@link UNJUDGED}. */
  readonly rels: readonly number[]
  /** `gradeCounts[g]` = number of documents judged with grade `g` (retrieved or not), for g = 0…max grade. */
  readonly gradeCounts: readonly number[]
  /** The grade from which a document counts as relevant. */
  readonly relevanceLevel: number
  /** Judged relevant documents of the query (grade ≥ `relevanceLevel`). */
  readonly numRel: number
  /** Retrieved documents considered (after `maxDocs` and `judgedOnly`). */
  readonly numRet: number
  /** Retrieved relevant documents. */
  readonly numRelRet: number
  /** Retrieved documents not in the qrels. */
  readonly numNonpool: number
  /** Retrieved documents in the qrels with a negative grade (pooled, not judged). */
  readonly numUnjudged: number
}

/** Options of {@link judgeRanking}; each mirrors a trec_eval flag. */
export interface JudgeOptions {
  /** Minimum grade of a relevant document (trec_eval `-l`). Defaults to `1`. */
  relevanceLevel?: number
  /** Drop unjudged and unpooled documents before measuring (trec_eval `-J`). Defaults to `false`. */
  judgedOnly?: boolean
  /** Consider only this many top documents (trec_eval `-M`). Defaults to `Infinity`. */
  maxDocs?: number
  /** Query id, used only in error messages. */
  queryId?: string
}

/**
 * Sorts one query's retrieved documents in trec_eval order and joins them with the
 * judgements, exactly as trec_eval's `te_form_res_rels` does.
 * @param entries - retrieved documents (any order; the rank field is ignored)
 * @param judgements - document id → grade; negative grades mean "pooled but unjudged"
 * @param options - see {@link JudgeOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` when a document is retrieved twice, as trec_eval
 *   refuses such runs ("duplicate docs")
 */
export function judgeRanking(
  entries: readonly RunEntry[],
  judgements: ReadonlyMap<string, number> | undefined,
  options: JudgeOptions = {},
): JudgedRanking {
  const relevanceLevel = options.relevanceLevel ?? 1
  const ranked = sortTrecOrder(entries).slice(0, options.maxDocs ?? Infinity)
  assertNoDuplicates(ranked, options.queryId)
  const gradeCounts = countGrades(judgements)
  const rels: number[] = []
  let numNonpool = 0
  let numUnjudged = 0
  let numRelRet = 0
  for (const entry of ranked) {
    const grade = judgements?.get(entry.docId)
    const rel = grade === undefined ? NOT_IN_POOL : grade < 0 ? UNJUDGED : grade
    if (options.judgedOnly === true && rel < 0) {
      continue
    }
    if (rel === NOT_IN_POOL) {
      numNonpool++
    } else if (rel === UNJUDGED) {
      numUnjudged++
    } else if (rel >= relevanceLevel) {
      numRelRet++
    }
    rels.push(rel)
  }
  let numRel = 0
  gradeCounts.forEach((count, grade) => {
    if (grade >= relevanceLevel) {
      numRel += count
    }
  })
  return {
    rels,
    gradeCounts,
    relevanceLevel,
    numRel,
    numRet: rels.length,
    numRelRet,
    numNonpool,
    numUnjudged,
  }
}

function countGrades(judgements: ReadonlyMap<string, number> | undefined): number[] {
  const counts: number[] = []
  for (const [docId, grade] of judgements ?? []) {
    if (!Number.isInteger(grade)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `judgement of ${JSON.stringify(docId)} is ${grade}; grades must be integers (trec_eval reads them with atol)`,
        { details: { docId } },
      )
    }
    if (grade >= 0) {
      while (counts.length <= grade) {
        counts.push(0)
      }
      counts[grade] = (counts[grade] ?? 0) + 1
    }
  }
  return counts
}

function assertNoDuplicates(ranked: readonly RunEntry[], queryId: string | undefined): void {
  if (ranked.length < 2) {
    return
  }
  const ids = ranked.map((e) => e.docId).sort(compareCodePoints)
  for (let i = 1; i < ids.length; i++) {
    if (ids[i] === ids[i - 1]) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `query ${JSON.stringify(queryId ?? '?')} retrieves document ${JSON.stringify(ids[i])} twice; trec_eval rejects such runs (deduplicate with dedupeRun first)`,
        { details: { record: queryId, docId: ids[i] } },
      )
    }
  }
}
