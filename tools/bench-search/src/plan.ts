import type { QuerySetName, SearchCell } from './query-sets.ts'

/** What runs on one corpus. */
export interface CorpusPlan {
  /** The corpus name (`corpusSpec`). */
  readonly corpus: string
  /** pubmatch's query cells, measured round-robin in one serving process. */
  readonly ours: readonly SearchCell[]
  /** Xapian's query cells (`pruning` is ignored), in one process; empty = no Xapian. */
  readonly xapian: readonly SearchCell[]
  /** Also evaluate nDCG@10 on NFCorpus dev (NFCorpus ×1 only: replicas duplicate documents). */
  readonly ndcg: boolean
}

/** Options of {@link benchPlan}. */
export interface BenchPlanOptions {
  /** Small corpora for a smoke run (NFCorpus ×1 and ×3, synthetic 10k). Defaults to `false`. */
  readonly quick?: boolean
  /** Run the Xapian cells (when xapian is importable). Defaults to `true`. */
  readonly xapian?: boolean
  /** Include the largest synthetic corpus (1M; 50k with `quick`). Defaults to `true`. */
  readonly largest?: boolean
  /** Also run Xapian on the largest synthetic corpus. Defaults to `false`. */
  readonly xapianLargest?: boolean
}

const cell = (
  set: QuerySetName,
  match: 'all' | 'any',
  limit: number,
  pruning = true,
): SearchCell => ({
  set,
  match,
  limit,
  pruning,
})

/** Cells of the NFCorpus dev queries and the log queries, on every corpus. */
const COMMON: readonly SearchCell[] = [
  cell('nfcorpus-dev', 'any', 500),
  cell('nfcorpus-dev', 'any', 1000),
  cell('log-pubmed', 'all', 500),
  cell('log-pubmed', 'any', 500),
  cell('log-bag', 'all', 500),
  cell('log-bag', 'any', 500),
]

/** Pruning off, for comparison (NFCorpus ×30 as in packages/bm25f's bench, and the synthetic corpora). */
const EXHAUSTIVE: readonly SearchCell[] = [
  cell('nfcorpus-dev', 'any', 500, false),
  cell('log-pubmed', 'all', 500, false),
  cell('log-pubmed', 'any', 500, false),
]

/** Xapian runs what it can run like with like: the plain-text sets, OP_OR ↔ any, OP_AND ↔ all. */
const XAPIAN: readonly SearchCell[] = [
  cell('nfcorpus-dev', 'any', 500),
  cell('nfcorpus-dev', 'any', 1000),
  cell('log-bag', 'all', 500),
  cell('log-bag', 'any', 500),
]

/**
 * The benchmark: NFCorpus ×1 and ×30 (×3 with `quick`), synthetic 100k and 1M (10k and 50k
 * with `quick`); the query cells on each, with pruning off too on the replicated NFCorpus
 * and the synthetic corpora; Xapian on all but the largest corpus.
 * @param options - see {@link BenchPlanOptions}
 */
export function benchPlan(options: BenchPlanOptions = {}): CorpusPlan[] {
  const quick = options.quick ?? false
  const xapian = options.xapian ?? true
  const names = quick
    ? ['nfcorpus', 'nfcorpus-x3', 'synth-10k', 'synth-50k']
    : ['nfcorpus', 'nfcorpus-x30', 'synth-100k', 'synth-1m']
  const largest = names.length - 1
  const plans: CorpusPlan[] = []
  names.forEach((corpus, i) => {
    if (i === largest && options.largest === false) {
      return
    }
    const runXapian = xapian && (i < largest || options.xapianLargest === true)
    plans.push({
      corpus,
      ours: i === 0 ? COMMON : [...COMMON, ...EXHAUSTIVE],
      xapian: runXapian ? XAPIAN : [],
      ndcg: corpus === 'nfcorpus',
    })
  })
  return plans
}

/**
 * A cell's short label for tables, e.g. `log-pubmed all 500`, `nfcorpus-dev any 500 exhaustive`.
 * @param c - the cell
 */
export function cellLabel(c: SearchCell): string {
  return `${c.set} ${c.match} ${c.limit}${c.pruning ? '' : ' exhaustive'}`
}
