import { ANCHOR_NAMES, type AnchorName } from './anchors.ts'
import type { QuerySetName, SearchCell } from './query-sets.ts'

/** What one anchor runs on a corpus. */
export interface AnchorPlan {
  readonly anchor: AnchorName
  /** Its query cells (`pruning` is ignored), measured in one process. */
  readonly cells: readonly SearchCell[]
}

/** What runs on one corpus. */
export interface CorpusPlan {
  /** The corpus name (`corpusSpec`). */
  readonly corpus: string
  /** pubmatch's query cells, measured round-robin in one serving process. */
  readonly ours: readonly SearchCell[]
  /** The anchors that run on this corpus, in {@link ANCHOR_NAMES} order. */
  readonly anchors: readonly AnchorPlan[]
  /** Also evaluate nDCG@10 on NFCorpus dev (NFCorpus ×1 only: replicas duplicate documents). */
  readonly ndcg: boolean
}

/** Options of {@link benchPlan}. */
export interface BenchPlanOptions {
  /** Small corpora for a smoke run (NFCorpus ×1 and ×3, synthetic 10k). Defaults to `false`. */
  readonly quick?: boolean
  /** The anchors to run (those that are available). Defaults to every anchor. */
  readonly anchors?: readonly AnchorName[]
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

/**
 * The anchors run what they can run like with like: the plain-text sets, OR ↔ any, AND ↔ all
 * (none of them has PubMed's syntax).
 */
export const ANCHOR_CELLS: readonly SearchCell[] = [
  cell('nfcorpus-dev', 'any', 500),
  cell('nfcorpus-dev', 'any', 1000),
  cell('log-bag', 'all', 500),
  cell('log-bag', 'any', 500),
]

/**
 * The benchmark: NFCorpus ×1 and ×30 (×3 with `quick`), synthetic 100k and 1M (10k and 50k
 * with `quick`); the query cells on each, with pruning off too on the replicated NFCorpus
 * and the synthetic corpora; tantivy and PISA on every corpus, Xapian (much slower to build)
 * on all but the largest.
 * @param options - see {@link BenchPlanOptions}
 */
export function benchPlan(options: BenchPlanOptions = {}): CorpusPlan[] {
  const quick = options.quick ?? false
  const anchors = options.anchors ?? ANCHOR_NAMES
  const names = quick
    ? ['nfcorpus', 'nfcorpus-x3', 'synth-10k', 'synth-50k']
    : ['nfcorpus', 'nfcorpus-x30', 'synth-100k', 'synth-1m']
  const largest = names.length - 1
  const plans: CorpusPlan[] = []
  names.forEach((corpus, i) => {
    if (i === largest && options.largest === false) {
      return
    }
    const runs = (anchor: AnchorName): boolean =>
      anchors.includes(anchor) &&
      (anchor !== 'xapian' || i < largest || options.xapianLargest === true)
    plans.push({
      corpus,
      ours: i === 0 ? COMMON : [...COMMON, ...EXHAUSTIVE],
      anchors: ANCHOR_NAMES.filter(runs).map((anchor) => ({ anchor, cells: ANCHOR_CELLS })),
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
