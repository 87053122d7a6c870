import { describe, expect, it } from 'vitest'
import { summarizeLatencies } from '@pubmatch/bench-kit'
import { checkJson } from '@pubmatch/core'
import { parseScaleArgs } from './scale-args.ts'
import { projectCluster, projectEmbeddedShards } from './scale-projection.ts'
import {
  formatBytes,
  formatInt,
  formatMs,
  renderParity,
  renderScaleReport,
} from './scale-report.ts'
import { SCALE_RESULTS, type ScaleResults } from './scale-results.ts'
import { compareTotals, summarizePasses } from './scale-stats.ts'

const MIB = 2 ** 20

function fixture(): ScaleResults {
  const latency = summarizePasses([
    [0.2, 0.4, 12],
    [0.1, 0.3, 10],
  ])
  const solrLatency = summarizePasses([
    [4, 6, 40],
    [3, 5, 30],
  ])
  const solr = projectCluster({
    targetDocs: 36_000_000,
    measuredDocs: 1_000_000,
    measuredShards: 2,
    replicas: 2,
    shardFactor: 6,
    replicaBytes: 400 * MIB,
    heapGiB: 4,
    shardQtimeP50: 2,
    shardQtimeP99: 10,
    distributedP50: 6,
    distributedP99: 40,
    docsPerSecond: 2000,
  })
  return {
    command: 'node tools/bench-solr/dist/scale.js',
    options: { ...parseScaleArgs([]), dir: '/tmp/x' },
    machine: {
      cpu: 'AMD EPYC',
      cores: 2,
      memoryBytes: 24 * 2 ** 30,
      node: 'v20.20.2',
      java: 'openjdk version "17"',
      os: 'Debian GNU/Linux 12 (bookworm)',
    },
    startedAt: '2026-11-26T07:00:00.000Z',
    endedAt: '2026-11-26T08:00:00.000Z',
    phases: [{ phase: 'pubmatch: build', before: [1, 2, 3], after: [1.5, 2, 3], seconds: 900 }],
    embeddedBuild: {
      docs: 1_000_000,
      seconds: 1000,
      inputSeconds: 100,
      cpuSeconds: 1050,
      docsPerSecond: 1111.1,
      docsPerCpuSecond: 1052.6,
      tailSeconds: 60,
      peakRssMiB: 2800,
      indexBytes: 600 * MIB,
      fileBytes: { sto: 200 * MIB, pos: 250 * MIB, pst: 150 * MIB },
      segments: 1,
      errors: 0,
      workers: 0,
    },
    embeddedServe: {
      docs: 1_000_000,
      openMs: 2000,
      rssAfterOpenMiB: 650,
      rssAfterQueriesMiB: 700,
      peakRssMiB: 720,
      queries: {
        queries: 3,
        warmup: 1,
        latency,
        failed: {},
        totals: { q1: 0, q2: 5, q3: 40 },
        emptyQueries: 1,
      },
    },
    solrIndexing: {
      docs: 1_000_000,
      batchSize: 1000,
      concurrency: 2,
      prepSeconds: 70,
      prepReused: false,
      seconds: 500,
      commitSeconds: 5,
      docsPerSecond: 2000,
      jvmCpuSeconds: 900,
      clientCpuSeconds: 20,
      docsPerJvmCpuSecond: 1111,
      numFound: 1_000_000,
    },
    solrSize: {
      cores: [
        {
          core: 'synth_shard1_replica_n1',
          shard: 'shard1',
          node: 'n1',
          leader: true,
          numDocs: 500_000,
          sizeInBytes: 400 * MIB,
          segmentCount: 12,
        },
      ],
      indexBytes: 1600 * MIB,
      replicaBytes: 400 * MIB,
      copyBytes: 800 * MIB,
      diskBytes: 3 * 2 ** 30,
      tlogBytes: 1.2 * 2 ** 30,
      indexDirBytes: 1600 * MIB,
    },
    solrQueries: {
      queries: 3,
      warmup: 1,
      latency: solrLatency,
      qtime: summarizePasses([
        [2, 3, 30],
        [1, 1, 1],
      ]),
      failed: { UNKNOWN_FIELD: 1 },
      totals: { q1: 0, q2: 5, q3: 44 },
      emptyQueries: 1,
      notSent: 0,
      singleShard: { qtime: summarizeLatencies([2, 10]), wall: summarizeLatencies([3, 12]) },
    },
    solrMemory: {
      afterQueries: {
        jvmRssMiB: 5000,
        jvmPeakRssMiB: 5200,
        jvmRssAnonMiB: 4000,
        jvmRssFileMiB: 1000,
        nodeRssMiB: 150,
        nodePeakRssMiB: 200,
      },
    },
    solrHeap: '4g',
    parity: compareTotals([
      { id: 'q1', text: 'asthma', embedded: 0, solr: 0 },
      { id: 'q2', text: 'cancer', embedded: 5, solr: 5 },
      { id: 'q3', text: 'cox-2 | x', embedded: 40, solr: 44 },
    ]),
    projection: {
      solr,
      embedded: projectEmbeddedShards({
        measuredDocs: 1_000_000,
        docsPerShard: solr.docsPerShard,
        shards: solr.shards,
        replicas: 2,
        indexBytes: 600 * MIB,
        rssAfterOpenBytes: 650 * MIB,
        p50: latency.firstPass.p50,
        p99: latency.firstPass.p99,
        coordinatorMs: 1,
      }),
    },
    errors: [],
  }
}

describe('formatting', () => {
  it('formats integers, milliseconds and bytes', () => {
    expect(formatInt(1234567.4)).toBe('1,234,567')
    expect([formatMs(0.3912), formatMs(12.74), formatMs(361.6), formatMs(1487.2)]).toEqual([
      '0.39',
      '12.7',
      '362',
      '1,487',
    ])
    expect([formatBytes(587 * MIB), formatBytes(19.2 * 2 ** 30)]).toEqual(['587 MiB', '19.2 GiB'])
    expect([formatInt(Number.NaN), formatMs(Number.POSITIVE_INFINITY)]).toEqual(['–', '–'])
  })
})

describe('renderScaleReport', () => {
  it('puts both engines in the key table with docs/s, size, latency, QTime and RSS', () => {
    const report = renderScaleReport(fixture())
    expect(report).toContain(
      '| engine | docs | shards × replicas | index docs/s | index size | query p50 / p95 / p99 ms (pass 1) | Solr QTime p50 / p99 ms | RSS |',
    )
    expect(report).toContain(
      '| pubmatch embedded | 1,000,000 | 1 × 1 | 1,111 (1,053/CPU-s) | 600 MiB (629 B/doc; 419 without stored records) | 0.40 / 12.0 / 12.0 (mean 4.20) | – | 650 MiB serving (after open); build peak 2,800 MiB |',
    )
    expect(report).toContain(
      '| SolrCloud (local, 2 nodes) | 1,000,000 | 2 × 2 | 2,000 (1,111/JVM CPU-s) | 1.6 GiB in 4 replicas; one copy 800 MiB (839 B/doc) | 6.00 / 40.0 / 40.0 (mean 16.7) | 3.00 / 30.0 | JVM 5,000 MiB (peak 5,200; -Xmx4g); Node client 150 MiB |',
    )
    expect(report).toContain('| pubmatch: build | 900 | 1.00 / 2.00 / 3.00 | 1.50 / 2.00 / 3.00 |')
    expect(report).not.toContain('Incomplete run')
    expect(report).toContain('- Index files: pos 250 MiB, sto 200 MiB, pst 150 MiB.')
    expect(report).toContain('so the comparable size is the index without it: 400 MiB (419 B/doc).')
  })

  it('renders the projection with the hand-computed cluster next to the cited embedded plan', () => {
    const report = renderScaleReport(fixture())
    expect(report).toContain('| shards × replicas | 12 × 2 | 12 × 2 | 12 × 2 |')
    expect(report).toContain('| index per shard (one replica) | 2.3 GiB | 1.8 GiB | 1.7 GiB |')
    // p99: 10 × 6 + (40 − 10) = 90; embedded: 12 × 3 + 1 = 37
    expect(report).toContain(
      '| match all, top 500: p99 ms | 90.0 (shard 60.0 + fan-out 30.0) | 37.0 (+1 ms coordinator) | 90.0 |',
    )
    expect(report).toContain('| indexing 36M at this run’s rate | 5.0 h (2 cores) | – | – |')
  })

  it('says when a run is incomplete and leaves missing phases empty', () => {
    const results: ScaleResults = {
      ...fixture(),
      solrIndexing: undefined,
      solrSize: undefined,
      solrQueries: undefined,
      solrMemory: undefined,
      parity: undefined,
      projection: undefined,
      errors: [{ phase: 'Solr: indexing', message: 'ran past its limit of 75.0 min' }],
    }
    const report = renderScaleReport(results)
    expect(report).toContain('**Incomplete run**: Solr: indexing: ran past its limit of 75.0 min')
    expect(report).toContain('| SolrCloud (local, 2 nodes) | – | 2 × 2 | – | – | – | – | – |')
    expect(report).toContain('Not computed (the SolrCloud phases did not complete).')
  })
})

describe('renderParity', () => {
  it('reports agreement, the largest difference and escapes table characters', () => {
    const text = renderParity(fixture().parity).join('\n')
    expect(text).toContain('**2 agree exactly** (1 of them match nothing on both)')
    expect(text).toContain('Largest difference: 4')
    expect(text).toContain("| `cox-2 ' x` | 40 | 44 |")
  })
})

describe('a saved run read back for --report', () => {
  it('has the shape the report relies on (the fixture, through JSON)', () => {
    const saved: unknown = JSON.parse(JSON.stringify(fixture()))
    expect(checkJson(saved, SCALE_RESULTS, { file: 'scale.json' })).toEqual(saved)
  })

  it('is refused, naming the file and the field, when it is not', () => {
    const saved = JSON.parse(JSON.stringify(fixture())) as { solrQueries: { qtime: { firstPass: Record<string, unknown> } } }
    saved.solrQueries.qtime.firstPass['p99'] = null
    expect(() => checkJson(saved, SCALE_RESULTS, { file: '.cache/results/scale-x.json' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: .cache/results/scale-x.json: solrQueries.qtime.firstPass.p99 is null, expected a number]`,
    )
  })
})
