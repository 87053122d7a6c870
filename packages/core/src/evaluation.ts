/** Runs and relevance judgements, as TREC tools read and write them. */

/** One retrieved document of a run. */
export interface RunEntry {
  docId: string
  score: number
  /** 1-based rank as written in the run file (trec_eval ignores it and sorts by score). */
  rank?: number
}

/** A ranked run: query id → retrieved documents. */
export interface Run {
  /** The run tag (last column of a TREC run line). */
  tag: string
  queries: Map<string, RunEntry[]>
}

/** Relevance judgements: query id → document id → grade (0 = judged non-relevant). */
export type Qrels = Map<string, Map<string, number>>

/** A query of a test collection. */
export interface Query {
  id: string
  text: string
}
