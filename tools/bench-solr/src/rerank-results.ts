/**
 * What one rerank run records (the raw JSON in `.cache/results/rerank-<time>.json`, rendered by
 * `rerank-report.ts`). Every phase's result is optional: a run that stops keeps what it measured.
 */
import type { RerankOptions } from './rerank-args.ts'
import type { JvmHeap } from './rerank-jvm.ts'
import type { RerankEmbedded } from './rerank-embedded.ts'
import type { RerankSetup } from './rerank-setup.ts'
import type { RerankSolr } from './rerank-solr.ts'
import type { MachineInfo, MemorySample, ModuleJar, PhaseLoad, SolrSize } from './scale-results.ts'
import {
  projectCluster,
  projectSecondStage,
  PUBMED_ARTICLES,
  type ClusterProjection,
  type SecondStageProjection,
} from './scale-projection.ts'
import { REPLICAS, SHARDS } from './scale-solr.ts'

/** The JVM at one moment. */
export interface JvmSample {
  readonly memory: MemorySample
  readonly heap?: JvmHeap
}

/** Indexing the corpus store into the collection (`indexCorpus`, 2 × 2). */
export interface RerankIndexing {
  readonly docs: number
  readonly seconds: number
  readonly docsPerSecond: number
  readonly errors: number
}

/** A model deployed into the collection. */
export interface DeployedInfo {
  readonly name: string
  readonly deployMs: number
  readonly loadMs: number
  readonly trees: number
  readonly modelBytes: number
}

/** Top-`rows` agreement of the Solr and embedded reranked engines on the fixed query set. */
export interface Agreement {
  readonly queries: number
  /** Queries with the same ids in the same order. */
  readonly sameOrder: number
  /** Queries with the same set of ids. */
  readonly sameSet: number
  /** Mean |Solr ∩ embedded| / rows over the queries. */
  readonly meanOverlap: number
}

/** One run. */
export interface RerankResults {
  readonly command: string
  readonly options: RerankOptions
  readonly machine: MachineInfo
  readonly startedAt: string
  endedAt?: string
  readonly phases: PhaseLoad[]
  readonly errors: Array<{ readonly phase: string; readonly message: string }>
  readonly solrHeap: string
  /** Whether the kernel ran a DAMON pageout scheme (RSS of idle processes reads low). */
  damonPageout?: boolean
  setup?: RerankSetup
  embedded?: RerankEmbedded
  indexing?: RerankIndexing
  deployed?: DeployedInfo
  size?: SolrSize
  jvm?: { before?: JvmSample; after?: JvmSample }
  solr?: RerankSolr
  agreement?: Agreement
  module?: { atStart: ModuleJar; atEnd?: ModuleJar }
  projection?: { readonly cluster: ClusterProjection; readonly second: SecondStageProjection }
}

/**
 * Compares the top ids of the two engines on the queries both answered.
 * @param solr - Solr's top ids by query id
 * @param embedded - the embedded engine's top ids by query id
 */
export function compareTopIds(
  solr: Readonly<Record<string, readonly string[]>>,
  embedded: Readonly<Record<string, readonly string[]>>,
): Agreement {
  let queries = 0
  let sameOrder = 0
  let sameSet = 0
  let overlap = 0
  for (const [id, mine] of Object.entries(solr)) {
    const theirs = embedded[id]
    if (theirs === undefined) {
      continue
    }
    queries++
    const set = new Set(theirs)
    const common = mine.filter((hit) => set.has(hit)).length
    sameOrder += mine.length === theirs.length && mine.every((hit, i) => hit === theirs[i]) ? 1 : 0
    sameSet += common === mine.length && common === theirs.length ? 1 : 0
    const size = Math.max(mine.length, theirs.length)
    overlap += size === 0 ? 1 : common / size
  }
  return {
    queries,
    sameOrder,
    sameSet,
    meanOverlap: queries === 0 ? Number.NaN : overlap / queries,
  }
}

/**
 * GiB of a JVM size (`4g`, `512m`).
 * @param heap - the size
 */
export function heapGiB(heap: string): number {
  const value = Number(heap.slice(0, -1))
  return heap.toLowerCase().endsWith('g') ? value : value / 1024
}

/**
 * Agreement and projection from what was measured (sets `agreement` and `projection`).
 * @param results - the run
 */
export function deriveRerank(results: RerankResults): void {
  const { solr, embedded, size, indexing, deployed } = results
  if (solr !== undefined && embedded !== undefined) {
    results.agreement = compareTopIds(solr.topIds, embedded.topIds)
  }
  if (
    solr === undefined ||
    size === undefined ||
    indexing === undefined ||
    deployed === undefined
  ) {
    return
  }
  const a = solr.serial.a
  const b = solr.serial.b
  if (a === undefined || b === undefined || !(solr.shard.candidates > 0)) {
    return
  }
  try {
    const cluster = projectCluster({
      targetDocs: PUBMED_ARTICLES,
      measuredDocs: indexing.docs,
      measuredShards: SHARDS,
      replicas: REPLICAS,
      shardFactor: results.options.shardDocs / (indexing.docs / SHARDS),
      replicaBytes: size.replicaBytes,
      heapGiB: heapGiB(results.solrHeap),
      shardQtimeP50: solr.shard.a.p50,
      shardQtimeP99: solr.shard.a.p99,
      distributedP50: a.p50,
      distributedP99: a.p99,
      docsPerSecond: indexing.docsPerSecond,
    })
    const second = projectSecondStage({
      cluster,
      depth: results.options.depth,
      measuredCandidatesPerShard: solr.shard.candidates,
      shardRerankP50: solr.shard.b.p50,
      shardRerankP99: solr.shard.b.p99,
      distributedRerankP50: b.p50,
      distributedRerankP99: b.p99,
      modelBytes: deployed.modelBytes,
    })
    results.projection = { cluster, second }
  } catch (error) {
    results.errors.push({
      phase: 'projection',
      message: error instanceof Error ? error.message : String(error),
    })
  }
}
