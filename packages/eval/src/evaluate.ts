import { compareCodePoints, type Qrels, type Run, type RunEntry } from '@pubmatch/core'
import { judgeRanking } from './judged-ranking.ts'
import { resolveMeasures } from './measures.ts'

/** Options of {@link evaluate}; each mirrors a trec_eval flag. */
export interface EvaluateOptions {
  /**
   * Measures as for `trec_eval -m` (`map`, `P.10`, `ndcg_cut.10,20`, `all_trec`, …).
   * Defaults to `['official']`, trec_eval's default.
   */
  measures?: readonly string[]
  /** Minimum grade of a relevant document (`-l`). Defaults to `1`. */
  relevanceLevel?: number
  /**
   * Evaluate every query of the qrels (`-c`): a judged query the run does not answer
   * scores 0 on every measure and counts in the mean. When `false`, such queries are left
   * out, as trec_eval does without `-c`. Defaults to `true` (the project standard).
   */
  complete?: boolean
  /** Drop unjudged documents from every ranking first (`-J`; rarely what you want). Defaults to `false`. */
  judgedOnly?: boolean
  /** Evaluate only the top documents of each query (`-M`). Defaults to `Infinity`. */
  maxDocsPerQuery?: number
}

/** Result of {@link evaluate}. Keys are trec_eval's output names (`P_10`, `ndcg_cut_10`, `iprec_at_recall_0.10`). */
export interface EvaluationResult {
  /** Query id → measure → value, in trec_eval's query order (`strcmp` of the ids). */
  readonly perQuery: ReadonlyMap<string, Readonly<Record<string, number>>>
  /**
   * trec_eval's summary (`all`) line: the mean over evaluated queries, except `num_q`
   * (their count) and the counts `num_ret`, `num_rel`, `num_rel_ret`, `num_nonrel_judged_ret`
   * (sums), as trec_eval reports them.
   */
  readonly mean: Readonly<Record<string, number>>
  /** Output names in trec_eval's order. */
  readonly measures: readonly string[]
}

const NO_RESULTS: readonly RunEntry[] = []

/**
 * Evaluates a run against relevance judgements with trec_eval's exact semantics:
 * documents ranked by score descending with ties broken by document id descending
 * (the file's rank column is ignored); queries in the run but not in the qrels are
 * ignored; a query in the qrels with no judged-relevant document still counts.
 * @param run - the ranked run
 * @param qrels - the judgements; negative grades mean "pooled but unjudged" (infAP)
 * @param options - see {@link EvaluateOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for unknown measures or a document retrieved
 *   twice for one query
 */
export function evaluate(run: Run, qrels: Qrels, options: EvaluateOptions = {}): EvaluationResult {
  const measures = resolveMeasures(options.measures ?? ['official'])
  const keys = measures.flatMap((m) => m.keys)
  const perQuery = new Map<string, Record<string, number>>()
  const totals = new Map<string, number>(keys.map((k) => [k, 0]))
  const queryIds = [...qrels.keys()].sort(compareCodePoints)
  for (const qid of queryIds) {
    const entries = run.queries.get(qid)
    if (entries === undefined && options.complete === false) {
      continue
    }
    const judged = judgeRanking(entries ?? NO_RESULTS, qrels.get(qid), {
      relevanceLevel: options.relevanceLevel,
      judgedOnly: options.judgedOnly,
      maxDocs: options.maxDocsPerQuery,
      queryId: qid,
    })
    const values: Record<string, number> = {}
    for (const m of measures) {
      const computed = m.compute(judged)
      m.keys.forEach((k, i) => {
        const v = computed[i] ?? 0
        values[k] = v
        totals.set(k, (totals.get(k) ?? 0) + v)
      })
    }
    perQuery.set(qid, values)
  }
  const n = perQuery.size
  const mean: Record<string, number> = {}
  for (const m of measures) {
    for (const k of m.keys) {
      const total = totals.get(k) ?? 0
      mean[k] = m.aggregation === 'sum' || n === 0 ? total : total / n
    }
  }
  return { perQuery, mean, measures: keys }
}

/**
 * Per-query values of one measure, in the order of `queryIds` (0 for a query the result
 * lacks) — the paired samples that significance tests take.
 * @param result - an evaluation
 * @param measure - an output name such as `ndcg_cut_10`
 * @param queryIds - the queries. Defaults to the result's own queries.
 */
export function perQueryValues(
  result: EvaluationResult,
  measure: string,
  queryIds: readonly string[] = [...result.perQuery.keys()],
): number[] {
  return queryIds.map((q) => result.perQuery.get(q)?.[measure] ?? 0)
}
