/**
 * What one scale run records (the raw JSON in `.cache/results/`, rendered by `scale-report.ts`).
 * Every phase's result is optional: a run that stops (time limit, failure) keeps what it measured.
 */
import { LATENCY_SUMMARY, type LatencySummary } from '@pubmatch/bench-kit'
import { json, type JsonShape } from '@pubmatch/core'
import type { ScaleOptions } from './scale-args.ts'
import type { BatchesFile } from './scale-batches.ts'
import type { ScaleCaseResult } from './scale-cases.ts'
import type { ClusterProjection, EmbeddedShardProjection } from './scale-projection.ts'
import type { Parity, PassSummaries } from './scale-stats.ts'

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

/** The shape of an {@link EmbeddedBuild} (the build case's output). */
export const EMBEDDED_BUILD: JsonShape<EmbeddedBuild> = json.object({
  docs: json.count,
  seconds: json.number,
  inputSeconds: json.number,
  cpuSeconds: json.number,
  docsPerSecond: json.number,
  docsPerCpuSecond: json.number,
  tailSeconds: json.number,
  peakRssMiB: json.number,
  indexBytes: json.count,
  fileBytes: json.record(json.count),
  segments: json.count,
  errors: json.count,
  workers: json.count,
})

const PASS_SUMMARIES: JsonShape<PassSummaries> = json.object({
  firstPass: LATENCY_SUMMARY,
  repeat: json.optional(LATENCY_SUMMARY),
  passes: json.count,
})

const QUERY_RUN = {
  queries: json.count,
  warmup: json.count,
  latency: PASS_SUMMARIES,
  failed: json.record(json.count),
  totals: json.record(json.count),
  emptyQueries: json.count,
} as const

/** The shape of an {@link EmbeddedServe} (the serving case's output). */
export const EMBEDDED_SERVE: JsonShape<EmbeddedServe> = json.object({
  docs: json.count,
  openMs: json.number,
  rssAfterOpenMiB: json.number,
  rssAfterQueriesMiB: json.number,
  peakRssMiB: json.number,
  queries: json.object(QUERY_RUN),
})

const MEMORY_SAMPLE: JsonShape<MemorySample> = json.object({
  jvmRssMiB: json.number,
  jvmPeakRssMiB: json.number,
  jvmRssAnonMiB: json.number,
  jvmRssFileMiB: json.number,
  nodeRssMiB: json.number,
  nodePeakRssMiB: json.number,
})

const MODULE_JAR: JsonShape<ModuleJar> = json.object({ path: json.string, sha256: json.string, modified: json.string, bytes: json.count })

const TOTAL_DIFFERENCE = json.object({ id: json.string, text: json.string, embedded: json.count, solr: json.count, difference: json.count })

const PARITY: JsonShape<Parity> = json.object({
  compared: json.count,
  exact: json.count,
  bothZero: json.count,
  nonZero: json.count,
  exactNonZero: json.count,
  withinOnePercent: json.count,
  onlyEmbedded: json.count,
  onlySolr: json.count,
  embeddedMatches: json.count,
  solrMatches: json.count,
  largest: json.optional(TOTAL_DIFFERENCE),
  worst: json.array(TOTAL_DIFFERENCE),
})

const CLUSTER_PROJECTION: JsonShape<ClusterProjection> = json.object({
  input: json.object({
    targetDocs: json.number,
    measuredDocs: json.number,
    measuredShards: json.number,
    replicas: json.number,
    shardFactor: json.number,
    replicaBytes: json.number,
    heapGiB: json.number,
    shardQtimeP50: json.number,
    shardQtimeP99: json.number,
    distributedP50: json.number,
    distributedP99: json.number,
    docsPerSecond: json.number,
  }),
  measuredDocsPerShard: json.number,
  shards: json.number,
  docsPerShard: json.number,
  scale: json.number,
  replicas: json.number,
  nodes: json.number,
  shardIndexBytes: json.number,
  totalIndexBytes: json.number,
  ramPerNodeBytes: json.number,
  fanOutP50: json.number,
  fanOutP99: json.number,
  shardP50: json.number,
  shardP99: json.number,
  p50: json.number,
  p99: json.number,
  indexHoursMeasuredRate: json.number,
})

const EMBEDDED_SHARD_PROJECTION: JsonShape<EmbeddedShardProjection> = json.object({
  input: json.object({
    measuredDocs: json.number,
    docsPerShard: json.number,
    shards: json.number,
    replicas: json.number,
    indexBytes: json.number,
    rssAfterOpenBytes: json.number,
    p50: json.number,
    p99: json.number,
    coordinatorMs: json.number,
  }),
  scale: json.number,
  shardIndexBytes: json.number,
  ramPerShardBytes: json.number,
  p50: json.number,
  p99: json.number,
})

/** The shape of a saved run ({@link ScaleResults}), checked before `--report` renders it again. */
export const SCALE_RESULTS: JsonShape<ScaleResults> = json.object({
  command: json.string,
  options: json.object({
    docs: json.count,
    queries: json.count,
    warmup: json.count,
    passes: json.count,
    dir: json.string,
    quick: json.boolean,
    timeoutMin: json.number,
    batchSize: json.count,
    concurrency: json.count,
    heap: json.string,
    seed: json.integer,
    embeddedWorkers: json.count,
    shardFactor: json.number,
    skipEmbedded: json.boolean,
  }),
  machine: json.object({ cpu: json.string, cores: json.count, memoryBytes: json.count, node: json.string, java: json.string, os: json.string }),
  startedAt: json.string,
  endedAt: json.optional(json.string),
  phases: json.array(json.object({ phase: json.string, before: json.array(json.number), after: json.array(json.number), seconds: json.number })),
  embeddedBuild: json.optional(EMBEDDED_BUILD),
  embeddedServe: json.optional(EMBEDDED_SERVE),
  solrIndexing: json.optional(
    json.object({
      docs: json.count,
      batchSize: json.count,
      concurrency: json.count,
      prepSeconds: json.number,
      prepReused: json.boolean,
      seconds: json.number,
      commitSeconds: json.number,
      docsPerSecond: json.number,
      jvmCpuSeconds: json.number,
      clientCpuSeconds: json.number,
      docsPerJvmCpuSecond: json.number,
      numFound: json.count,
    }),
  ),
  solrSize: json.optional(
    json.object({
      cores: json.array(
        json.object({
          core: json.string,
          shard: json.string,
          node: json.string,
          leader: json.boolean,
          numDocs: json.count,
          sizeInBytes: json.count,
          segmentCount: json.count,
        }),
      ),
      indexBytes: json.number,
      replicaBytes: json.number,
      copyBytes: json.number,
      diskBytes: json.number,
      tlogBytes: json.number,
      indexDirBytes: json.number,
    }),
  ),
  solrQueries: json.optional(
    json.object({
      ...QUERY_RUN,
      qtime: PASS_SUMMARIES,
      notSent: json.count,
      singleShard: json.optional(json.object({ qtime: LATENCY_SUMMARY, wall: LATENCY_SUMMARY })),
    }),
  ),
  solrMemory: json.optional(json.object({ afterIndexing: json.optional(MEMORY_SAMPLE), afterQueries: json.optional(MEMORY_SAMPLE) })),
  solrHeap: json.string,
  solrModule: json.optional(json.object({ atStart: MODULE_JAR, atEnd: json.optional(MODULE_JAR) })),
  solrSettleSeconds: json.optional(json.number),
  solrLog: json.optional(
    json.object({ errors: json.count, warnings: json.count, top: json.array(json.object({ kind: json.string, count: json.count })) }),
  ),
  parity: json.optional(PARITY),
  projection: json.optional(json.object({ solr: CLUSTER_PROJECTION, embedded: json.optional(EMBEDDED_SHARD_PROJECTION) })),
  errors: json.array(json.object({ phase: json.string, message: json.string })),
})

/** The shape of each case's output, by case kind (`scale-case.ts` prints it on its last line). */
export const SCALE_CASE_RESULTS: { readonly [K in keyof ScaleCaseResult]: JsonShape<ScaleCaseResult[K]> } = {
  build: EMBEDDED_BUILD,
  serve: EMBEDDED_SERVE,
  batches: json.object({ path: json.string, docs: json.count, batches: json.count, seconds: json.number, reused: json.boolean }) satisfies JsonShape<BatchesFile>,
}
