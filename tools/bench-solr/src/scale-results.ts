/**
 * What one scale run records (the raw JSON in `.cache/results/`, rendered by `scale-report.ts`).
 * Every phase's result is optional: a run that stops (time limit, failure) keeps what it measured.
 */
import type { ScaleOptions } from './scale-args.ts'
import type { ClusterProjection, EmbeddedShardProjection } from './scale-projection.ts'
import type { LatencySummary, Parity, PassSummaries } from './scale-stats.ts'

/** The machine a run ran on. */
export interface MachineInfo {
  /** `model name` of /proc/cpuinfo. */
  readonly cpu: string
  /** Logical CPUs (`os.cpus()`). */
  readonly cores: number
  /** Total memory, bytes. */
  readonly memoryBytes: number
  readonly node: string
  /** First line of `java -version`, when Java is there. */
  readonly java: string
  /** `/etc/os-release` PRETTY_NAME, or the platform. */
  readonly os: string
}

/** The 1/5/15-minute load averages around one phase. */
export interface PhaseLoad {
  readonly phase: string
  readonly before: readonly number[]
  readonly after: readonly number[]
  /** Wall seconds of the phase. */
  readonly seconds: number
}

/** The embedded engine's build (`buildIndex`, child process). */
export interface EmbeddedBuild {
  readonly docs: number
  /** Wall seconds of `buildIndex`, generation included. */
  readonly seconds: number
  /** Of which generating the synthetic articles (subtracted in `docsPerSecond`). */
  readonly inputSeconds: number
  /** CPU seconds of the process (all threads), generation included. */
  readonly cpuSeconds: number
  /** `docs / (seconds − inputSeconds)`. */
  readonly docsPerSecond: number
  /** `docs / (cpuSeconds − inputSeconds)` (generation is single-threaded CPU work). */
  readonly docsPerCpuSecond: number
  /** After the last article: final flush, force-merge, commit. */
  readonly tailSeconds: number
  readonly peakRssMiB: number
  readonly indexBytes: number
  /** Index bytes per file kind (`sto`: stored records — ids, titles, abstracts …; `pos`, `pst`: postings). */
  readonly fileBytes: Readonly<Record<string, number>>
  readonly segments: number
  readonly errors: number
  /** Segment-build worker threads (`buildIndex`'s `workers`). */
  readonly workers: number
}

/** Per-query latencies of one engine over the measured passes. */
export interface QueryRun {
  /** Measured queries (each pass). */
  readonly queries: number
  /** Warm-up queries run before (disjoint from the measured ones). */
  readonly warmup: number
  /** Wall ms per query around one `search()` call (sequential, one at a time). */
  readonly latency: PassSummaries
  /** Queries that failed, by error code (excluded from the latencies). */
  readonly failed: Readonly<Record<string, number>>
  /** Match count of each answered query in pass 1, by query id. */
  readonly totals: Readonly<Record<string, number>>
  /** Answered queries that match nothing. */
  readonly emptyQueries: number
}

/** The embedded engine's serving case (child process). */
export interface EmbeddedServe {
  readonly docs: number
  readonly openMs: number
  /** RSS after `openIndex` and a full GC. */
  readonly rssAfterOpenMiB: number
  readonly rssAfterQueriesMiB: number
  readonly peakRssMiB: number
  readonly queries: QueryRun
}

/** SolrCloud indexing. */
export interface SolrIndexing {
  readonly docs: number
  readonly batchSize: number
  /** Update requests in flight. */
  readonly concurrency: number
  /** Generating and serializing the batches file (before the clock; 0 when reused). */
  readonly prepSeconds: number
  /** Whether the batches file was reused from an earlier run. */
  readonly prepReused: boolean
  /** Wall seconds from the first update to the end of the final commit. */
  readonly seconds: number
  /** Of which the final `commit=true`. */
  readonly commitSeconds: number
  readonly docsPerSecond: number
  /** CPU seconds of the cluster JVM over `seconds` (both nodes, ZooKeeper, every thread). */
  readonly jvmCpuSeconds: number
  /** CPU seconds of this Node process (reading batches, HTTP) over `seconds`. */
  readonly clientCpuSeconds: number
  readonly docsPerJvmCpuSecond: number
  /** `numFound` of `*:*` after the commit. */
  readonly numFound: number
}

/** One Solr core (a replica of a shard). */
export interface SolrCore {
  readonly core: string
  readonly shard: string
  readonly node: string
  readonly leader: boolean
  readonly numDocs: number
  /** Index bytes (`admin/cores?action=STATUS` `index.sizeInBytes`). */
  readonly sizeInBytes: number
  readonly segmentCount: number
}

/** What the collection takes on disk after the commit. */
export interface SolrSize {
  readonly cores: readonly SolrCore[]
  /** Σ index bytes over every core (every replica holds a full copy of its shard). */
  readonly indexBytes: number
  /** Mean index bytes of one replica (one copy of one shard). */
  readonly replicaBytes: number
  /** Index bytes of one copy of the collection (`indexBytes / replicas`). */
  readonly copyBytes: number
  /** Disk use of the whole cluster directory (`du`: allocated blocks). */
  readonly diskBytes: number
  /** Of which update logs (`tlog`). */
  readonly tlogBytes: number
  /** Of which index directories. */
  readonly indexDirBytes: number
}

/** Resident memory. */
export interface MemorySample {
  /** The cluster JVM: VmRSS, VmHWM (peak), RssAnon, RssFile of /proc/<pid>/status, MiB. */
  readonly jvmRssMiB: number
  readonly jvmPeakRssMiB: number
  readonly jvmRssAnonMiB: number
  readonly jvmRssFileMiB: number
  /** This Node process (the Solr client). */
  readonly nodeRssMiB: number
  readonly nodePeakRssMiB: number
}

/** SolrCloud queries. */
export interface SolrQueries extends QueryRun {
  /** Solr's own time (`QTime` of the distributed request), over the queries sent. */
  readonly qtime: PassSummaries
  /** Queries the translation answered without a request (nothing searchable left). */
  readonly notSent: number
  /**
   * The same measured queries on one shard at a time (`distrib=false` on each shard's leader),
   * after a collection reload (empty caches) and a warm-up: QTime and wall ms, both shards pooled.
   */
  readonly singleShard?: { readonly qtime: LatencySummary; readonly wall: LatencySummary }
}

/** Which build of the Solr module a cluster JVM runs. */
export interface ModuleJar {
  readonly path: string
  readonly sha256: string
  readonly modified: string
  readonly bytes: number
}

/** What the cluster logged at WARN and ERROR (its `solr.log` keeps nothing below WARN). */
export interface SolrLogSummary {
  readonly errors: number
  readonly warnings: number
  /** The most frequent kinds (level, logger, start of the message), most frequent first. */
  readonly top: readonly { readonly kind: string; readonly count: number }[]
}

/** Everything one run measured. */
export interface ScaleResults {
  readonly command: string
  readonly options: ScaleOptions
  readonly machine: MachineInfo
  readonly startedAt: string
  endedAt?: string
  readonly phases: PhaseLoad[]
  embeddedBuild?: EmbeddedBuild
  embeddedServe?: EmbeddedServe
  solrIndexing?: SolrIndexing
  solrSize?: SolrSize
  solrQueries?: SolrQueries
  /** Memory after indexing and after the queries. */
  solrMemory?: { readonly afterIndexing?: MemorySample; readonly afterQueries?: MemorySample }
  /** The heap the cluster JVM was given (`-Xmx`). */
  readonly solrHeap: string
  /** The Solr module's jar when the cluster started and when the run ended. */
  solrModule?: { readonly atStart: ModuleJar; atEnd?: ModuleJar }
  /** Seconds waited after indexing for the cluster JVM to go idle (background merges) before the queries. */
  solrSettleSeconds?: number
  /** WARN/ERROR entries of the cluster's `solr.log` over the run. */
  solrLog?: SolrLogSummary
  parity?: Parity
  projection?: { readonly solr: ClusterProjection; readonly embedded?: EmbeddedShardProjection }
  /** Phases that did not complete, and why. */
  readonly errors: { readonly phase: string; readonly message: string }[]
}
