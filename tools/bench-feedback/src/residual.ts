/**
 * The simulated user's side of an explicit-feedback round and the two ways of evaluating a
 * feedback ranking after some rounds (pure functions):
 * - frozen: the documents shown so far, in the order shown, then the session's current ranking
 *   of the rest — what the user has seen plus what the system would show next;
 * - residual collection: the current ranking without the documents shown so far, judged against
 *   the qrels without them (the documents whose grades fed the query vector cannot inflate it).
 */
import type { Qrels, RunEntry } from '@pubmatch/core'
import type { FeedbackGrade } from '@pubmatch/feedback'

/**
 * The simulated user's grade of a document: qrels grade 2 → highly relevant, 1 → relevant,
 * anything else (unjudged, 0) → non-relevant.
 * @param judgements - the query's qrels (document → grade), or `undefined`
 * @param id - the document
 */
export function simulatedGrade(
  judgements: ReadonlyMap<string, number> | undefined,
  id: string,
): FeedbackGrade {
  const grade = judgements?.get(id) ?? 0
  return grade >= 2 ? 'highly-relevant' : grade >= 1 ? 'relevant' : 'non-relevant'
}

/**
 * The frozen ranking after some rounds: the shown documents in the order shown, then the current
 * ranking without them, cut at `limit`.
 * @param shown - documents shown in rounds 1..k, in the order shown
 * @param current - the session's current ranking of every candidate, best first
 * @param limit - documents kept. Defaults to all.
 */
export function frozenRanking(
  shown: readonly string[],
  current: readonly string[],
  limit: number = Infinity,
): string[] {
  const seen = new Set(shown)
  const out = shown.slice(0, limit)
  for (const id of current) {
    if (out.length >= limit) {
      break
    }
    if (!seen.has(id)) {
      out.push(id)
    }
  }
  return out
}

/**
 * A ranking without the documents shown so far, cut at `limit`.
 * @param ranking - best first
 * @param shown - documents shown in rounds 1..k
 * @param limit - documents kept. Defaults to all.
 */
export function residualRanking(
  ranking: readonly string[],
  shown: ReadonlySet<string>,
  limit: number = Infinity,
): string[] {
  const out: string[] = []
  for (const id of ranking) {
    if (out.length >= limit) {
      break
    }
    if (!shown.has(id)) {
      out.push(id)
    }
  }
  return out
}

/** Residual judgements and the queries they leave out. */
export interface ResidualQrels {
  /** Each query's judgements without its shown documents; only queries with a relevant document left. */
  readonly qrels: Qrels
  /** Queries left out: every relevant document was shown (or none was judged relevant). */
  readonly dropped: readonly string[]
}

/**
 * The residual collection's judgements: each query's qrels without the documents shown to its
 * user; a query with no document of grade ≥ `relevanceLevel` left is dropped.
 * @param qrels - the judgements
 * @param shown - query → documents shown in rounds 1..k (a query without an entry loses nothing)
 * @param relevanceLevel - least grade of a relevant document. Defaults to `1`.
 */
export function residualQrels(
  qrels: Qrels,
  shown: ReadonlyMap<string, ReadonlySet<string>>,
  relevanceLevel: number = 1,
): ResidualQrels {
  const out: Qrels = new Map()
  const dropped: string[] = []
  for (const [qid, judgements] of qrels) {
    const hidden = shown.get(qid)
    const left = new Map<string, number>()
    let relevant = 0
    for (const [doc, grade] of judgements) {
      if (hidden?.has(doc) === true) {
        continue
      }
      left.set(doc, grade)
      relevant += grade >= relevanceLevel ? 1 : 0
    }
    if (relevant === 0) {
      dropped.push(qid)
    } else {
      out.set(qid, left)
    }
  }
  return { qrels: out, dropped }
}

/**
 * Run entries that keep a ranking's order under trec_eval's sort (score descending): the document
 * at position i of n scores n − i.
 * @param ids - the ranking, best first
 */
export function rankedEntries(ids: readonly string[]): RunEntry[] {
  const n = ids.length
  return ids.map((docId, i) => ({ docId, score: n - i }))
}
