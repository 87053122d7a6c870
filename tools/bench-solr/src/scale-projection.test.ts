import { describe, expect, it } from 'vitest'
import {
  GIB,
  projectCluster,
  projectEmbeddedShards,
  projectSecondStage,
  type ClusterProjectionInput,
} from './scale-projection.ts'

const MIB = 2 ** 20

/** 1M articles on 2 shards × 2 replicas, 400 MiB per replica, 4 GiB heap. */
const measured: ClusterProjectionInput = {
  targetDocs: 36_000_000,
  measuredDocs: 1_000_000,
  measuredShards: 2,
  replicas: 2,
  shardFactor: 6,
  replicaBytes: 400 * MIB,
  heapGiB: 4,
  shardQtimeP50: 2,
  shardQtimeP99: 10,
  distributedP50: 5,
  distributedP99: 30,
  docsPerSecond: 2000,
}

describe('projectCluster', () => {
  it('matches the hand-computed cluster for 1M on 2 shards, factor 6', () => {
    // 500,000/shard × 6 = 3M ≤ per shard → ceil(36M / 3M) = 12 shards of 3M, scale 6
    // shard index = 400 MiB / 500,000 × 3M = 2,400 MiB; all replicas 2,400 MiB × 12 × 2
    // fan-out p50 = 5 − 2 = 3, p99 = 30 − 10 = 20; p50 = 2·6 + 3 = 15, p99 = 10·6 + 20 = 80
    // indexing 36M at 2,000 docs/s = 18,000 s = 5 h
    const p = projectCluster(measured)
    expect(p.measuredDocsPerShard).toBe(500_000)
    expect([p.shards, p.docsPerShard, p.scale, p.nodes]).toEqual([12, 3_000_000, 6, 24])
    expect(p.shardIndexBytes).toBe(2400 * MIB)
    expect(p.totalIndexBytes).toBe(2400 * MIB * 24)
    expect(p.ramPerNodeBytes).toBe(2400 * MIB + 4 * GIB)
    expect([p.fanOutP50, p.fanOutP99, p.shardP50, p.shardP99, p.p50, p.p99]).toEqual([
      3, 20, 12, 60, 15, 80,
    ])
    expect(p.indexHoursMeasuredRate).toBe(5)
  })

  it('rounds the shard count up so that no shard holds more than the factor allows', () => {
    // 10,000/shard × 7 = 70,000 → ceil(36M / 70,000) = ceil(514.29) = 515 shards of 69,902.9
    const p = projectCluster({ ...measured, measuredDocs: 20_000, shardFactor: 7 })
    expect(p.shards).toBe(515)
    expect(p.docsPerShard).toBeCloseTo(69_902.9126, 3)
    expect(p.scale).toBeCloseTo(6.99029126, 6)
  })

  it('never gives a negative fan-out', () => {
    const p = projectCluster({ ...measured, distributedP50: 1, distributedP99: 8 })
    expect([p.fanOutP50, p.fanOutP99]).toEqual([0, 0])
    expect(p.p99).toBe(60)
  })

  it('rejects a non-positive size or rate', () => {
    expect(() =>
      projectCluster({ ...measured, replicaBytes: 0 }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/bench-solr: the projection needs a positive replicaBytes, got 0]`,
    )
    expect(() => projectCluster({ ...measured, docsPerSecond: Number.NaN })).toThrow(
      /docsPerSecond/,
    )
  })
})

describe('projectEmbeddedShards', () => {
  it('stretches one measured index linearly to the shard size and adds the coordinator', () => {
    // scale 3M / 1M = 3; index 600 MiB × 3 = 1,800 MiB; runtime 700 − 600 = 100 MiB
    // p50 = 0.4 × 3 + 1 = 2.2; p99 = 50 × 3 + 1 = 151
    const p = projectEmbeddedShards({
      measuredDocs: 1_000_000,
      docsPerShard: 3_000_000,
      shards: 12,
      replicas: 2,
      indexBytes: 600 * MIB,
      rssAfterOpenBytes: 700 * MIB,
      p50: 0.4,
      p99: 50,
      coordinatorMs: 1,
    })
    expect(p.scale).toBe(3)
    expect(p.shardIndexBytes).toBe(1800 * MIB)
    expect(p.ramPerShardBytes).toBe(1900 * MIB)
    expect(p.p50).toBeCloseTo(2.2, 10)
    expect(p.p99).toBe(151)
  })
})

describe('projectSecondStage', () => {
  // 200k articles on 2 shards (100,000 per shard), 3M per projected shard → factor 30 → 12 shards
  const cluster = projectCluster({
    ...measured,
    measuredDocs: 200_000,
    shardFactor: 30,
    replicaBytes: 300 * MIB,
    shardQtimeP50: 1,
    shardQtimeP99: 4,
    distributedP50: 11,
    distributedP99: 44,
  })

  it('matches the hand-computed second stage on 12 shards', () => {
    // first stage: scale 3M / 100k = 30; p50 = 1·30 + (11 − 1) = 40; p99 = 4·30 + (44 − 4) = 160
    expect([cluster.shards, cluster.scale, cluster.p50, cluster.p99, cluster.fanOutP99]).toEqual([12, 30, 40, 160, 40])
    // 500 candidates / 12 shards = 41.667 per shard; measured 250 per shard → ×1/6
    // shard (b): p50 30 / 6 = 5, p99 120 / 6 = 20; fan-out: 50 − 30 = 20, 150 − 120 = 30
    // (b) = 25 / 50; total = 40 + 25 = 65, 160 + 50 = 210; fan-out share = (40 + 30) / 210 = 1/3
    // bytes per article: 300 MiB / 100,000
    const p = projectSecondStage({
      cluster,
      depth: 500,
      measuredCandidatesPerShard: 250,
      shardRerankP50: 30,
      shardRerankP99: 120,
      distributedRerankP50: 50,
      distributedRerankP99: 150,
      modelBytes: 2 * MIB,
    })
    expect(p.candidatesPerShard).toBeCloseTo(500 / 12, 12)
    expect(p.candidateScale).toBeCloseTo(1 / 6, 12)
    expect(p.shardP50).toBeCloseTo(5, 12)
    expect(p.shardP99).toBeCloseTo(20, 12)
    expect([p.fanOutP50, p.fanOutP99]).toEqual([20, 30])
    expect(p.p50).toBeCloseTo(25, 12)
    expect(p.p99).toBeCloseTo(50, 12)
    expect(p.totalP50).toBeCloseTo(65, 12)
    expect(p.totalP99).toBeCloseTo(210, 12)
    expect(p.fanOutShareP99).toBeCloseTo(1 / 3, 12)
    expect(p.bytesPerDoc).toBeCloseTo((300 * MIB) / 100_000, 9)
  })

  it('never gives a negative fan-out, and refuses no candidates', () => {
    const base = {
      cluster,
      depth: 500,
      measuredCandidatesPerShard: 250,
      shardRerankP50: 30,
      shardRerankP99: 120,
      distributedRerankP50: 20,
      distributedRerankP99: 100,
      modelBytes: 1,
    }
    const p = projectSecondStage(base)
    expect([p.fanOutP50, p.fanOutP99]).toEqual([0, 0])
    expect(() => projectSecondStage({ ...base, measuredCandidatesPerShard: 0 })).toThrow(/measuredCandidatesPerShard/)
  })
})
