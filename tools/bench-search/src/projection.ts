import { PubmatchError } from '@pubmatch/core'

/** One measured quantity at one corpus size. */
export interface SizePoint {
  /** Documents in the index. */
  readonly docs: number
  /** The quantity (bytes per document, MiB, ms …). */
  readonly value: number
}

/** A quantity measured at two corpus sizes, smaller first. */
export type TwoSizes = readonly [SizePoint, SizePoint]

function check(points: TwoSizes, positive: boolean): void {
  const [a, b] = points
  const ok =
    a.docs > 0 &&
    b.docs > a.docs &&
    Number.isFinite(a.value) &&
    Number.isFinite(b.value) &&
    (!positive || (a.value > 0 && b.value > 0))
  if (!ok) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/bench-search: a projection needs two sizes, the smaller first${positive ? ', and positive values' : ''} (got ${JSON.stringify(points)})`,
    )
  }
}

/**
 * The exponent α of the power law `value ∝ docs^α` through two measurements:
 * `α = ln(v₂ / v₁) / ln(n₂ / n₁)`. α = 1 is linear growth (latency proportional to the
 * postings a query walks), α < 1 sublinear (pruning, fixed per-query costs).
 * @param points - the two measurements, smaller corpus first, positive values
 * @throws PubmatchError `INVALID_ARGUMENT` otherwise
 */
export function powerLawExponent(points: TwoSizes): number {
  check(points, true)
  const [a, b] = points
  return Math.log(b.value / a.value) / Math.log(b.docs / a.docs)
}

/**
 * Extrapolates a quantity along the power law through two measurements, from the larger one:
 * `v(n) = v₂ · (n / n₂)^α`.
 * @param points - the two measurements, smaller corpus first, positive values
 * @param docs - the corpus size to project to
 */
export function projectPowerLaw(points: TwoSizes, docs: number): number {
  const alpha = powerLawExponent(points)
  return points[1].value * (docs / points[1].docs) ** alpha
}

/**
 * Extrapolates a quantity along the straight line through two measurements,
 * `v(n) = v₁ + (v₂ − v₁) · (n − n₁) / (n₂ − n₁)`: a fixed part plus a part per document
 * (e.g. process RSS = runtime + index held in memory).
 * @param points - the two measurements, smaller corpus first
 * @param docs - the corpus size to project to
 */
export function projectLinear(points: TwoSizes, docs: number): number {
  check(points, false)
  const [a, b] = points
  return a.value + ((b.value - a.value) * (docs - a.docs)) / (b.docs - a.docs)
}

/**
 * Extrapolates a per-document quantity that changes linearly in `log10(docs)`:
 * `v(n) = v₂ + (v₂ − v₁) · log10(n / n₂) / log10(n₂ / n₁)`. Used for index bytes per
 * document: postings per document are constant, while the term dictionary grows sublinearly
 * (Heaps' law) and doc gaps shrink relative to N, so bytes per document drift by a roughly
 * constant amount per decade.
 * @param points - bytes per document at two sizes, smaller corpus first
 * @param docs - the corpus size to project to
 */
export function projectPerDocLogLinear(points: TwoSizes, docs: number): number {
  check(points, false)
  const [a, b] = points
  return b.value + ((b.value - a.value) * Math.log10(docs / b.docs)) / Math.log10(b.docs / a.docs)
}

/** The measurements a shard plan is projected from (two sizes each, smaller first). */
export interface ScalingInputs {
  /** Index bytes per document. */
  readonly bytesPerDoc: TwoSizes
  /** Serving process RSS in MiB with the index open (after a GC). */
  readonly servingRssMiB: TwoSizes
  /** Per-query latency quantiles in ms of the query class planned for. */
  readonly p50Ms: TwoSizes
  /** See `p50Ms`. */
  readonly p99Ms: TwoSizes
  /** Mean CPU ms per query of that class. */
  readonly cpuMsPerQuery: TwoSizes
}

/** A machine shards are placed on. */
export interface MachineSpec {
  /** A label, e.g. `24 GB / 2 cores (this machine)`. */
  readonly name: string
  /** RAM in GiB. */
  readonly ramGiB: number
  /** Cores: one searcher thread per shard, so a query's shards on one machine run in parallel. */
  readonly cores: number
  /** RAM kept free for the OS, the coordinator, the page cache of updates. Defaults to `4`. */
  readonly reserveGiB?: number
}

/** Options of {@link planShards}. */
export interface ShardPlanOptions {
  /** Documents in the whole collection, e.g. 36,000,000. */
  readonly totalDocs: number
  /** Documents per shard; the last shard may be smaller. */
  readonly shardDocs: number
  /** The machine type. */
  readonly machine: MachineSpec
  /** Coordinator overhead per query in ms (fan-out, network, merge of the shard top-k). Defaults to `1`. */
  readonly coordinatorMs?: number
}

/** One row of a shard plan (every figure projected, none measured). */
export interface ShardPlanRow {
  readonly shardDocs: number
  /** Shards for one copy of the collection: `ceil(totalDocs / shardDocs)`. */
  readonly shards: number
  /** Index size of one shard, GiB. */
  readonly indexGiBPerShard: number
  /** Serving RSS of one shard's process (or thread's share), GiB. */
  readonly ramGiBPerShard: number
  /** `min(cores, floor((ramGiB − reserveGiB) / ramGiBPerShard))`; 0 if a shard does not fit. */
  readonly shardsPerMachine: number
  /** Machines for one copy: `ceil(shards / shardsPerMachine)` (Infinity if a shard does not fit). */
  readonly machines: number
  /** Query latency quantiles: the shard's projected latency plus the coordinator overhead. */
  readonly p50Ms: number
  /** See `p50Ms`. */
  readonly p99Ms: number
  /** CPU ms one query costs summed over all shards. */
  readonly cpuMsPerQuery: number
  /**
   * Queries per second one copy sustains with every core of its machines busy:
   * `machines · cores · 1000 / cpuMsPerQuery` (an upper bound; replicas multiply it).
   */
  readonly maxQps: number
}

const GIB = 2 ** 30

/**
 * Projects a document-partitioned shard layout from measurements at two sizes: each shard
 * holds `shardDocs` documents; a query goes to every shard in parallel and the coordinator
 * merges their top-k. Assumptions (stated in RESULTS.md): a shard's latency and CPU follow
 * the power laws through the measurements; a query's shard latencies are taken as equal
 * (documents are assigned to shards at random, so every shard sees the same query with
 * about `df / shards` postings per term), so the query waits for one shard's latency plus
 * `coordinatorMs`; RAM per shard follows the straight line through the serving RSS.
 * @param inputs - see {@link ScalingInputs}
 * @param options - see {@link ShardPlanOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for bad measurements or sizes
 */
export function planShards(inputs: ScalingInputs, options: ShardPlanOptions): ShardPlanRow {
  const { totalDocs, shardDocs, machine } = options
  if (!(shardDocs > 0 && totalDocs >= shardDocs && machine.cores >= 1 && machine.ramGiB > 0)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/bench-search: planShards needs 0 < shardDocs ≤ totalDocs and a machine with cores and RAM (got ${shardDocs} of ${totalDocs}, ${machine.cores} cores, ${machine.ramGiB} GiB)`,
    )
  }
  const shards = Math.ceil(totalDocs / shardDocs)
  const indexGiBPerShard = (projectPerDocLogLinear(inputs.bytesPerDoc, shardDocs) * shardDocs) / GIB
  const ramGiBPerShard = projectLinear(inputs.servingRssMiB, shardDocs) / 1024
  const usable = machine.ramGiB - (machine.reserveGiB ?? 4)
  const shardsPerMachine = Math.max(0, Math.min(machine.cores, Math.floor(usable / ramGiBPerShard)))
  const machines = shardsPerMachine === 0 ? Infinity : Math.ceil(shards / shardsPerMachine)
  const coordinator = options.coordinatorMs ?? 1
  const cpuMsPerQuery = shards * projectPowerLaw(inputs.cpuMsPerQuery, shardDocs)
  return {
    shardDocs,
    shards,
    indexGiBPerShard,
    ramGiBPerShard,
    shardsPerMachine,
    machines,
    p50Ms: projectPowerLaw(inputs.p50Ms, shardDocs) + coordinator,
    p99Ms: projectPowerLaw(inputs.p99Ms, shardDocs) + coordinator,
    cpuMsPerQuery,
    maxQps: (machines * machine.cores * 1000) / cpuMsPerQuery,
  }
}
