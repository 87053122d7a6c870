/**
 * The projection of the measured cluster to PubMed's 36M articles: deliberately simple
 * arithmetic, every assumption named in {@link PROJECTION_ASSUMPTIONS}, pure functions with tests.
 */
import { PubmatchError } from '@pubmatch/core'

/** PubMed's size, the projection's target. */
export const PUBMED_ARTICLES = 36_000_000

/** GiB in bytes. */
export const GIB: number = 2 ** 30

/** What the SolrCloud projection starts from (all measured in one run). */
export interface ClusterProjectionInput {
  /** Articles to hold. */
  readonly targetDocs: number
  /** Articles in the measured collection. */
  readonly measuredDocs: number
  /** Shards of the measured collection. */
  readonly measuredShards: number
  /** Replicas per shard, measured and projected. */
  readonly replicas: number
  /** A projected shard holds at most the measured docs per shard × this factor. */
  readonly shardFactor: number
  /** Mean index bytes of one measured replica (one copy of one shard). */
  readonly replicaBytes: number
  /** The JVM heap per node, GiB (the measured run's `-Xmx`). */
  readonly heapGiB: number
  /** QTime of one shard alone (`distrib=false`), ms. */
  readonly shardQtimeP50: number
  readonly shardQtimeP99: number
  /** Wall time of the distributed request as the client sees it, ms. */
  readonly distributedP50: number
  readonly distributedP99: number
  /** Measured indexing throughput of the whole cluster (docs/s, all replicas written). */
  readonly docsPerSecond: number
}

/** A projected SolrCloud cluster. */
export interface ClusterProjection {
  readonly input: ClusterProjectionInput
  readonly measuredDocsPerShard: number
  /** Shards: `ceil(targetDocs / (measuredDocsPerShard × shardFactor))`. */
  readonly shards: number
  readonly docsPerShard: number
  /** `docsPerShard / measuredDocsPerShard`: how far per-shard figures are stretched. */
  readonly scale: number
  readonly replicas: number
  /** One replica per node: `shards × replicas`. */
  readonly nodes: number
  /** Index bytes of one replica: measured bytes per document × `docsPerShard`. */
  readonly shardIndexBytes: number
  /** Σ over every replica. */
  readonly totalIndexBytes: number
  /** RAM per node ≈ its replica's index (page cache) + the JVM heap. */
  readonly ramPerNodeBytes: number
  /** Distributed wall − one shard's QTime (HTTP, JSON, statistics phase, merge), ms; ≥ 0. */
  readonly fanOutP50: number
  readonly fanOutP99: number
  /** One shard's QTime × `scale`, ms. */
  readonly shardP50: number
  readonly shardP99: number
  /** `shardP·· + fanOutP··`, ms. */
  readonly p50: number
  readonly p99: number
  /** Hours to index the target at the measured cluster's rate (same hardware, no added nodes). */
  readonly indexHoursMeasuredRate: number
}

function requirePositive(values: Readonly<Record<string, number>>): void {
  for (const [name, value] of Object.entries(values)) {
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `@pubmatch/bench-solr: the projection needs a positive ${name}, got ${value}`,
      )
    }
  }
}

/**
 * Projects a SolrCloud cluster for `targetDocs` from the measured one (see
 * {@link PROJECTION_ASSUMPTIONS}).
 * @param input - see {@link ClusterProjectionInput}
 * @throws PubmatchError `INVALID_ARGUMENT` for a non-positive size, count or rate
 */
export function projectCluster(input: ClusterProjectionInput): ClusterProjection {
  requirePositive({
    targetDocs: input.targetDocs,
    measuredDocs: input.measuredDocs,
    measuredShards: input.measuredShards,
    replicas: input.replicas,
    shardFactor: input.shardFactor,
    replicaBytes: input.replicaBytes,
    docsPerSecond: input.docsPerSecond,
  })
  const measuredDocsPerShard = input.measuredDocs / input.measuredShards
  const shards = Math.ceil(input.targetDocs / (measuredDocsPerShard * input.shardFactor))
  const docsPerShard = input.targetDocs / shards
  const scale = docsPerShard / measuredDocsPerShard
  const shardIndexBytes = (input.replicaBytes / measuredDocsPerShard) * docsPerShard
  const fanOutP50 = Math.max(0, input.distributedP50 - input.shardQtimeP50)
  const fanOutP99 = Math.max(0, input.distributedP99 - input.shardQtimeP99)
  const shardP50 = input.shardQtimeP50 * scale
  const shardP99 = input.shardQtimeP99 * scale
  return {
    input,
    measuredDocsPerShard,
    shards,
    docsPerShard,
    scale,
    replicas: input.replicas,
    nodes: shards * input.replicas,
    shardIndexBytes,
    totalIndexBytes: shardIndexBytes * shards * input.replicas,
    ramPerNodeBytes: shardIndexBytes + input.heapGiB * GIB,
    fanOutP50,
    fanOutP99,
    shardP50,
    shardP99,
    p50: shardP50 + fanOutP50,
    p99: shardP99 + fanOutP99,
    indexHoursMeasuredRate: input.targetDocs / input.docsPerSecond / 3600,
  }
}

/** What the embedded projection by the same rule starts from. */
export interface EmbeddedShardInput {
  /** Articles of the measured (single) index. */
  readonly measuredDocs: number
  /** Articles per projected shard (the SolrCloud projection's `docsPerShard`). */
  readonly docsPerShard: number
  readonly shards: number
  readonly replicas: number
  readonly indexBytes: number
  /** RSS after open; minus the index it is the runtime. */
  readonly rssAfterOpenBytes: number
  /** Latencies of the measured index, ms. */
  readonly p50: number
  readonly p99: number
  /** Coordinator cost per query, ms (tools/bench-search's shard tables use 1 ms). */
  readonly coordinatorMs: number
}

/** The embedded engine sharded the same way, by the same linear rule. */
export interface EmbeddedShardProjection {
  readonly input: EmbeddedShardInput
  readonly scale: number
  readonly shardIndexBytes: number
  /** Index of one shard + the runtime measured beside the index (`rssAfterOpen − index`, ≥ 0). */
  readonly ramPerShardBytes: number
  readonly p50: number
  readonly p99: number
}

/**
 * Projects the embedded engine into the same shard layout: per-shard latency and index size
 * linear in documents per shard, plus a fixed coordinator cost.
 * @param input - see {@link EmbeddedShardInput}
 * @throws PubmatchError `INVALID_ARGUMENT` for non-positive sizes
 */
export function projectEmbeddedShards(input: EmbeddedShardInput): EmbeddedShardProjection {
  requirePositive({
    measuredDocs: input.measuredDocs,
    docsPerShard: input.docsPerShard,
    indexBytes: input.indexBytes,
  })
  const scale = input.docsPerShard / input.measuredDocs
  const shardIndexBytes = input.indexBytes * scale
  return {
    input,
    scale,
    shardIndexBytes,
    ramPerShardBytes: shardIndexBytes + Math.max(0, input.rssAfterOpenBytes - input.indexBytes),
    p50: input.p50 * scale + input.coordinatorMs,
    p99: input.p99 * scale + input.coordinatorMs,
  }
}

/** The assumptions of {@link projectCluster} and {@link projectEmbeddedShards}, for the report. */
export const PROJECTION_ASSUMPTIONS: readonly string[] = [
  'Documents are spread evenly over shards (hash routing); a shard holds at most the measured documents per shard × the shard factor.',
  'A shard’s index grows linearly with its documents (bytes per document as measured; Lucene’s merged size per document is roughly constant).',
  'One replica per node; a node’s RAM ≈ its replica’s index (so the OS page cache holds it, as in this run) + the JVM heap of this run. Nothing is added for the OS, ZooKeeper or the coordinator.',
  'A shard’s search time (QTime with distrib=false) grows linearly with its documents: the posting lists of a query’s terms grow linearly, and match-all queries here are not pruned.',
  'The distributed request adds a fixed fan-out cost: distributed wall time − one shard’s QTime, at the same percentile, measured with 2 shards on one machine. It is taken as independent of the number of shards and of their size — optimistic: with 12 shards the slowest of 12 decides, and the statistics phase (ExactStatsCache) and the merge grow with the fan-out.',
  'Solr reports QTime in whole milliseconds: one shard’s p50 of 1–2 ms is coarse (a 1 ms step is 6 ms after a ×6 stretch), its p99 less so.',
  'Percentiles are not additive; adding a shard’s p99 and the fan-out’s p99 is a rough, usually pessimistic, combination that offsets the previous point only in part.',
  'Synthetic text: words are drawn independently, so most multi-word match-all log queries match nothing (see the match counts); on PubMed nearly every query matches, so real latencies are higher.',
  'The embedded rows use the same linear rule from this run’s single index, plus tools/bench-search’s 1 ms coordinator; tools/bench-search’s own projection (power law through 100K and 1M) is cited, not re-measured.',
]

/** What the second stage's projection starts from (all measured in one rerank run). */
export interface SecondStageProjectionInput {
  /** The first stage projected from the same run ({@link projectCluster}). */
  readonly cluster: ClusterProjection
  /** Candidates reranked per query (the first stage's top). */
  readonly depth: number
  /** Mean candidates one measured shard reranked per query (≈ depth / measured shards). */
  readonly measuredCandidatesPerShard: number
  /** QTime of the rerank request (b) on one shard alone (`distrib=false`), ms. */
  readonly shardRerankP50: number
  readonly shardRerankP99: number
  /** Wall time of request (b), distributed, as the client sees it, ms. */
  readonly distributedRerankP50: number
  readonly distributedRerankP99: number
  /** Bytes of the model file; the JVM holds each cached model once per node. */
  readonly modelBytes: number
}

/** The second stage on the projected cluster. */
export interface SecondStageProjection {
  readonly input: SecondStageProjectionInput
  /** Candidates per projected shard: `depth / shards`. */
  readonly candidatesPerShard: number
  /** `candidatesPerShard / measuredCandidatesPerShard`: how far the shard's rerank time is scaled. */
  readonly candidateScale: number
  /** One shard's rerank QTime × `candidateScale`, ms. */
  readonly shardP50: number
  readonly shardP99: number
  /** Distributed rerank wall − one shard's rerank QTime, ms; ≥ 0. */
  readonly fanOutP50: number
  readonly fanOutP99: number
  /** Request (b): `shardP·· + fanOutP··`. */
  readonly p50: number
  readonly p99: number
  /** Both requests: the first stage's projection + request (b). */
  readonly totalP50: number
  readonly totalP99: number
  /** Of `totalP99`, the fan-out of both requests (first stage's + rerank's), a fraction. */
  readonly fanOutShareP99: number
  /** Index bytes per article of one replica (the first-stage fields, `pubmatch_fwd`, the term fields). */
  readonly bytesPerDoc: number
}

/**
 * Projects the second stage (request (b): each shard reranks its share of the candidates) onto the
 * cluster {@link projectCluster} projected (see {@link SECOND_STAGE_ASSUMPTIONS}).
 * @param input - see {@link SecondStageProjectionInput}
 * @throws PubmatchError `INVALID_ARGUMENT` for a non-positive depth or candidate count
 */
export function projectSecondStage(input: SecondStageProjectionInput): SecondStageProjection {
  requirePositive({ depth: input.depth, measuredCandidatesPerShard: input.measuredCandidatesPerShard })
  const { cluster } = input
  const candidatesPerShard = input.depth / cluster.shards
  const candidateScale = candidatesPerShard / input.measuredCandidatesPerShard
  const shardP50 = input.shardRerankP50 * candidateScale
  const shardP99 = input.shardRerankP99 * candidateScale
  const fanOutP50 = Math.max(0, input.distributedRerankP50 - input.shardRerankP50)
  const fanOutP99 = Math.max(0, input.distributedRerankP99 - input.shardRerankP99)
  const p50 = shardP50 + fanOutP50
  const p99 = shardP99 + fanOutP99
  const totalP99 = cluster.p99 + p99
  return {
    input,
    candidatesPerShard,
    candidateScale,
    shardP50,
    shardP99,
    fanOutP50,
    fanOutP99,
    p50,
    p99,
    totalP50: cluster.p50 + p50,
    totalP99,
    fanOutShareP99: totalP99 > 0 ? (cluster.fanOutP99 + fanOutP99) / totalP99 : 0,
    bytesPerDoc: cluster.input.replicaBytes / cluster.measuredDocsPerShard,
  }
}

/** The assumptions of {@link projectSecondStage}, for the report (beside {@link PROJECTION_ASSUMPTIONS}). */
export const SECOND_STAGE_ASSUMPTIONS: readonly string[] = [
  'Request (a) on one shard (QTime with distrib=false and Solr’s result caches bypassed, top 500 with an exact count: every matching document is scored) grows linearly with the shard’s documents, as the posting lists of the query’s terms do.',
  'Synthetic text (words drawn independently): with match any most log queries match many documents, as on PubMed, but the term statistics, match counts and so the first stage’s work per query are not PubMed’s.',
  'The replica’s bytes per article are measured with everything the second stage reads on the shards (pubmatch_fwd, pubmatch_ti_terms/pubmatch_ab_terms/pubmatch_tiab, the stored record) and grow linearly, like the first stage’s.',
  'Request (b) on one shard costs time linear in the candidates it holds and independent of its size: the 179 features read each candidate’s own forward data and the query terms’ statistics (a few term lookups), and the 500 trees score each candidate once. With S shards each holds depth / S of the candidates (hash routing spreads them evenly), so a shard’s share shrinks as shards are added.',
  'Request (b)’s fan-out (distributed wall − one shard’s QTime, same percentile, 2 shards on one machine) is fixed: the statistics phase (ExactStatsCache over the query terms), the candidate ids sent to every shard (a terms filter of depth ids) and the merge of the shards’ lists. Optimistic for 12 shards, as the first stage’s.',
  'Both requests run one after the other from the serving process; the client’s own time between them (JSON parsing, building request (b)) is in the measured distributed walls.',
  'A node’s RAM: its replica’s index (page cache, including pubmatch_fwd) + the heap of this run; the deployed models are small beside it (each node caches up to 4 models of the size measured).',
  'The first stage here is match any (ranked OR retrieval, as tools/bench-server serves the synthetic corpus so that queries reach the model at full depth), heavier than scale.ts’s match all.',
]
