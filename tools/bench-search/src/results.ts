import { LATENCY_SUMMARY, type LatencySummary } from '@pubmatch/bench-kit'
import { json, type JsonShape } from '@pubmatch/core'
import type { AnchorName } from './anchors.ts'
import type { QuerySetName } from './query-sets.ts'

/** The engines measured: pubmatch and its anchors. */
export type Engine = 'pubmatch' | AnchorName

/** Every engine, in the order of the report's tables. */
export const ENGINES: readonly Engine[] = ['pubmatch', 'tantivy', 'pisa', 'xapian']

const ENGINE_SHAPE = json.literal('pubmatch', 'tantivy', 'pisa', 'xapian')

/** What one index build measured, in its own process. */
export interface BuildResult {
  readonly engine: Engine
  readonly corpus: string
  readonly docs: number
  /** Wall seconds from the first document to the commit, input production included. */
  readonly seconds: number
  /**
   * Wall seconds spent producing the input inside the build loop (generating synthetic
   * articles, parsing an anchor driver's JSON lines, writing PISA's plain-text collection);
   * docs/s leaves it out.
   */
  readonly inputSeconds: number
  /** CPU seconds (user + system, all threads) of the whole build, input included. */
  readonly cpuSeconds: number
  /**
   * Wall seconds after the last document: pubmatch's final flush, merges down to one segment
   * and commit; Xapian's compaction into one database; tantivy's commit and merges; PISA's
   * block-max data and compression.
   */
  readonly tailSeconds?: number
  /** Peak resident set of the process, MiB. */
  readonly peakRssMiB: number
  /** Peak V8 heap in use (sampled), MiB (pubmatch only). */
  readonly peakHeapMiB?: number
  /** Bytes of the index directory after the commit (PISA: the files a query process reads). */
  readonly indexBytes: number
  /**
   * Bytes written during the build when more than the index (Xapian before compaction, PISA
   * with its forward and uncompressed inverted indexes).
   */
  readonly buildBytes?: number
  /** Bytes per file kind (`pst`, `pos`, …), pubmatch only. */
  readonly fileBytes?: Readonly<Record<string, number>>
  /**
   * Bytes of the postings and positions of the words the anchors index too (title and
   * abstract): pubmatch's `.pst` and `.pos` bytes of those fields (`indexSpaceUsage`), tantivy's
   * `.idx` and `.pos` files (its raw `id` field included). Term dictionaries and stored records
   * are not in it.
   */
  readonly postingsBytes?: number
  /** Bytes of the stored records: pubmatch's `.sto`, tantivy's `.store`. */
  readonly storedBytes?: number
  /** Segments after the build. */
  readonly segments?: number
  /** Articles the build rejected. */
  readonly errors?: number
  /** When it was measured (ISO). */
  readonly date: string
  /** The anchor's version (tantivy's and pyterrier-pisa's Python package, Xapian's library). */
  readonly version?: string
  /** The anchor's configuration as its driver states it: `fields`, `analysis`, `stopwords`, … */
  readonly config?: Readonly<Record<string, string>>
}

/** One query configuration's latencies on one index. */
export interface CellResult {
  readonly set: QuerySetName
  /** `all` = conjunctive (anchors: AND), `any` = ranked OR (anchors: OR). */
  readonly match: 'all' | 'any'
  readonly limit: number
  /** Block-max pruning (pubmatch; the anchors always prune with their own bounds). */
  readonly pruning: boolean
  /** Distinct measured queries that ran (failed ones excluded). */
  readonly queries: number
  /** Measured rounds over the queries. */
  readonly rounds: number
  /** Queries that failed (e.g. a field tag the index has no field for); not in the latencies. */
  readonly errors: number
  /** Failed queries per `PubmatchError` code (pubmatch). */
  readonly errorCodes?: Readonly<Record<string, number>>
  /** Rounds 2 … R (warm caches), or round 1 when R = 1 (see `summarizeRounds`). */
  readonly latency: LatencySummary
  /** Round 1 alone: every measured query for the first time, after a disjoint warm-up. */
  readonly firstRound: LatencySummary
  /** Process CPU ms per query (mean over the rounds of `latency`). */
  readonly cpuMsPerQuery: number
  /** Postings scored per query (pubmatch, mean over the first round). */
  readonly postingsPerQuery?: number
  /** Documents scored per query (pubmatch). */
  readonly docsScoredPerQuery?: number
  /**
   * Matching documents per query: exact or a lower bound (pubmatch), Xapian's estimate,
   * tantivy's exact count (counted apart from the timed searches); PISA does not count.
   */
  readonly matchesPerQuery?: number
  /** Queries with no hit. */
  readonly emptyQueries?: number
}

/** What one serving process measured: open, memory, and its query cells. */
export interface ServeResult {
  readonly engine: Engine
  readonly corpus: string
  readonly docs: number
  /** Opening the index, ms (pubmatch reads and checks every file into memory). */
  readonly openMs: number
  /** Process RSS right after opening (pubmatch: after a full GC), MiB. */
  readonly rssAfterOpenMiB: number
  /** V8 heap in use right after opening, MiB (pubmatch only). */
  readonly heapAfterOpenMiB?: number
  /** Peak RSS over the whole process, MiB. */
  readonly peakRssMiB: number
  /** Peak V8 heap in use (sampled between queries), MiB (pubmatch only). */
  readonly peakHeapMiB?: number
  /** Bytes of the index on disk. */
  readonly indexBytes: number
  readonly cells: readonly CellResult[]
  /**
   * nDCG@10 of the NFCorpus dev title queries (1,000 hits, trec_eval -c), NFCorpus ×1 only:
   * pubmatch's from its searcher, an anchor's from the run its driver wrote.
   */
  readonly ndcg10?: number
}

/** A case's result with the machine's load around it (measured by the orchestrator). */
export interface CaseRecord<T> {
  readonly result: T
  /** 1-, 5- and 15-minute load averages before the case. */
  readonly loadBefore: readonly number[]
  /** … and after it. */
  readonly loadAfter: readonly number[]
  /** Wall seconds of the whole child process. */
  readonly processSeconds: number
  /** Whether the build was reused from the cache (`--rebuild` forces a new one). */
  readonly cached?: boolean
}

/** Everything measured on one corpus. */
export interface CorpusResults {
  readonly corpus: string
  readonly label: string
  readonly docs: number
  readonly build: Readonly<Partial<Record<Engine, CaseRecord<BuildResult>>>>
  readonly serve: Readonly<Partial<Record<Engine, CaseRecord<ServeResult>>>>
  /**
   * nDCG@10 of Xapian's NFCorpus dev run, in results files written before the anchors' nDCG
   * moved to their serve results (`ndcg10`); read, never written.
   */
  readonly xapianNdcg10?: number
}

/** One whole `pnpm bench` run, as saved in `.cache/results/*.json`. */
export interface BenchResults {
  /** ISO start time. */
  readonly started: string
  /** ISO end time. */
  readonly finished: string
  /** The command line. */
  readonly command: string
  /** CPU, RAM, Node, the anchors' versions and interpreters. */
  readonly machine: string
  /** Measured query rounds per cell. */
  readonly rounds: number
  /** Log queries measured (and warm-up) per log cell. */
  readonly logQueries: { readonly measured: number; readonly warmup: number }
  /** Why Xapian did not run, in results files written before `anchorsSkipped`. */
  readonly xapianSkipped?: string
  /** Why an anchor did not run (`--anchors` left it out, its Python module is missing, …). */
  readonly anchorsSkipped?: Readonly<Partial<Record<AnchorName, string>>>
  readonly corpora: readonly CorpusResults[]
}

/** The shape of a {@link BuildResult} (a case's output, a cached build record). */
export const BUILD_RESULT: JsonShape<BuildResult> = json.object({
  engine: ENGINE_SHAPE,
  corpus: json.string,
  docs: json.count,
  seconds: json.number,
  inputSeconds: json.number,
  cpuSeconds: json.number,
  tailSeconds: json.optional(json.number),
  peakRssMiB: json.number,
  peakHeapMiB: json.optional(json.number),
  indexBytes: json.count,
  buildBytes: json.optional(json.count),
  fileBytes: json.optional(json.record(json.count)),
  postingsBytes: json.optional(json.count),
  storedBytes: json.optional(json.count),
  segments: json.optional(json.count),
  errors: json.optional(json.count),
  date: json.string,
  version: json.optional(json.string),
  config: json.optional(json.record(json.string)),
})

const CELL_RESULT: JsonShape<CellResult> = json.object({
  set: json.literal('nfcorpus-dev', 'log-pubmed', 'log-bag'),
  match: json.literal('all', 'any'),
  limit: json.count,
  pruning: json.boolean,
  queries: json.count,
  rounds: json.count,
  errors: json.count,
  errorCodes: json.optional(json.record(json.count)),
  latency: LATENCY_SUMMARY,
  firstRound: LATENCY_SUMMARY,
  cpuMsPerQuery: json.number,
  postingsPerQuery: json.optional(json.number),
  docsScoredPerQuery: json.optional(json.number),
  matchesPerQuery: json.optional(json.number),
  emptyQueries: json.optional(json.count),
})

/** The shape of a {@link ServeResult} (a case's output). */
export const SERVE_RESULT: JsonShape<ServeResult> = json.object({
  engine: ENGINE_SHAPE,
  corpus: json.string,
  docs: json.count,
  openMs: json.number,
  rssAfterOpenMiB: json.number,
  heapAfterOpenMiB: json.optional(json.number),
  peakRssMiB: json.number,
  peakHeapMiB: json.optional(json.number),
  indexBytes: json.count,
  cells: json.array(CELL_RESULT),
  ndcg10: json.optional(json.number),
})

/**
 * The shape of a {@link CaseRecord} of some result.
 * @param result - the result's shape
 */
export function caseRecord<T>(result: JsonShape<T>): JsonShape<CaseRecord<T>> {
  return json.object({
    result,
    loadBefore: json.array(json.number),
    loadAfter: json.array(json.number),
    processSeconds: json.number,
    cached: json.optional(json.boolean),
  })
}

const perEngine = <T>(record: JsonShape<T>) =>
  ({
    pubmatch: json.optional(record),
    tantivy: json.optional(record),
    pisa: json.optional(record),
    xapian: json.optional(record),
  }) as const

const BUILD_RECORD = caseRecord(BUILD_RESULT)
const SERVE_RECORD = caseRecord(SERVE_RESULT)

/** The shape of a results file ({@link BenchResults}), checked before `--report` renders it. */
export const BENCH_RESULTS: JsonShape<BenchResults> = json.object({
  started: json.string,
  finished: json.string,
  command: json.string,
  machine: json.string,
  rounds: json.count,
  logQueries: json.object({ measured: json.count, warmup: json.count }),
  xapianSkipped: json.optional(json.string),
  anchorsSkipped: json.optional(json.record(json.string)),
  corpora: json.array(
    json.object({
      corpus: json.string,
      label: json.string,
      docs: json.count,
      build: json.object(perEngine(BUILD_RECORD)),
      serve: json.object(perEngine(SERVE_RECORD)),
      xapianNdcg10: json.optional(json.number),
    }),
  ),
})
