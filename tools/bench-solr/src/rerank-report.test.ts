import { describe, expect, it } from 'vitest'
import { parseRerankArgs } from './rerank-args.ts'
import { summarizeLoad, type LoadSummary, type RequestSample } from './rerank-load.ts'
import { formatRatio, renderRerankReport } from './rerank-report.ts'
import { compareTopIds, deriveRerank, type RerankResults } from './rerank-results.ts'

const MIB = 2 ** 20

/** Requests due 100 ms apart with the given (a, b) times; total = a + b. */
function load(pairs: ReadonlyArray<readonly [number, number]>, failed = 0): LoadSummary {
  const samples: RequestSample[] = pairs.map(([a, b], i) => ({
    i,
    due: i * 100,
    ms: a + b,
    aMs: a,
    bMs: b,
    reranked: true,
  }))
  for (let k = 0; k < failed; k++) {
    samples.push({ i: pairs.length + k, due: (pairs.length + k) * 100, ms: 1, error: 'NETWORK' })
  }
  return summarizeLoad(samples)
}

function sample(count: number, p50: number, p99: number) {
  return { count, mean: p50, min: 0, max: p99, p50, p90: p99, p95: p99, p99 }
}

function fixture(): RerankResults {
  const solrSerial = load([
    [10, 20],
    [20, 40],
    [30, 60],
  ])
  return {
    command: 'node tools/bench-solr/dist/rerank-scale.js --docs 200000',
    options: { ...parseRerankArgs(['--docs', '200000']), dir: '/tmp/x' },
    machine: {
      cpu: 'Xeon',
      cores: 2,
      memoryBytes: 24 * 2 ** 30,
      node: 'v20.20.2',
      java: 'openjdk 17',
      os: 'Debian 12',
    },
    startedAt: '2026-11-27T23:05:00.000Z',
    endedAt: '2026-11-27T23:20:00.000Z',
    phases: [{ phase: 'embedded', before: [1.2, 2, 3], after: [1.8, 2, 3], seconds: 120 }],
    errors: [],
    solrHeap: '4g',
    setup: {
      corpus: '/c',
      index: '/i',
      docCount: 200_000,
      corpusSeconds: 0,
      indexSeconds: 0,
      forwardSeconds: 1,
      reused: true,
      models: [
        {
          name: 'A',
          dir: '/a',
          seed: 1,
          queries: 150,
          trainRows: 60_000,
          trees: 500,
          modelBytes: 2 * MIB,
          seconds: 100,
          grades: { 0: 10, 1: 5, 2: 1 },
          reused: true,
        },
        {
          name: 'B',
          dir: '/b',
          seed: 2,
          queries: 150,
          trainRows: 61_000,
          trees: 500,
          modelBytes: 2 * MIB,
          seconds: 100,
          grades: { 0: 10 },
          reused: false,
        },
      ],
    },
    embedded: {
      docCount: 200_000,
      openMs: 900,
      forwardMs: 1,
      rssAfterOpenMiB: 400,
      rssAfterQueriesMiB: 500,
      peakRssMiB: 520,
      accepted: ['q1', 'q2'],
      rejected: { UNKNOWN_FIELD: 1 },
      serial: load([
        [5, 5],
        [10, 10],
        [15, 15],
      ]),
      firstStage: load([[1, 0]]),
      paced: [
        { rate: 5, summary: load([[5, 5]]) },
        { rate: 10, summary: load([[6, 6]]) },
      ],
      topIds: { q1: ['1', '2'], q2: ['3', '4'] },
    },
    indexing: { docs: 200_000, seconds: 400, docsPerSecond: 500, errors: 0 },
    deployed: { name: 'A', deployMs: 500, loadMs: 200, trees: 500, modelBytes: 2 * MIB },
    size: {
      cores: [],
      indexBytes: 4 * 300 * MIB,
      replicaBytes: 300 * MIB,
      copyBytes: 600 * MIB,
      diskBytes: 2000 * MIB,
      tlogBytes: 100 * MIB,
      indexDirBytes: 1200 * MIB,
    },
    jvm: {
      before: {
        memory: {
          jvmRssMiB: 2000,
          jvmPeakRssMiB: 2100,
          jvmRssAnonMiB: 1500,
          jvmRssFileMiB: 500,
          nodeRssMiB: 100,
          nodePeakRssMiB: 100,
        },
        heap: {
          before: { totalMiB: 1024, usedMiB: 800 },
          afterGc: { totalMiB: 1024, usedMiB: 300 },
        },
      },
    },
    solr: {
      rssStartMiB: 70,
      rssAfterLatencyMiB: 120,
      rssEndMiB: 125,
      peakRssMiB: 130,
      serial: solrSerial,
      firstStage: load([[8, 0]]),
      paced: [
        { rate: 5, summary: load([[10, 20]]) },
        { rate: 10, summary: load([[12, 24]], 1) },
      ],
      qtime: { a: sample(3, 8, 25), b: sample(3, 30, 50) },
      // one shard alone: (a) QTime p50 1 / p99 4; (b) 10 / 40 for 250 candidates
      shard: { a: sample(200, 1, 4), b: sample(200, 10, 40), candidates: 250 },
      topIds: { q1: ['1', '2'], q2: ['4', '3'], q3: ['9'] },
      errors: [],
    },
  }
}

describe('compareTopIds', () => {
  it('counts same order, same set and the mean overlap over the queries both answered', () => {
    // q1 same order; q2 same set, other order; q3 missing on the embedded side; q4 half
    const a = compareTopIds(
      { q1: ['1', '2'], q2: ['4', '3'], q3: ['9'], q4: ['5', '6'] },
      { q1: ['1', '2'], q2: ['3', '4'], q4: ['5', '7'] },
    )
    expect(a).toEqual({ queries: 3, sameOrder: 1, sameSet: 2, meanOverlap: (1 + 1 + 0.5) / 3 })
    expect(compareTopIds({}, {}).meanOverlap).toBeNaN()
  })
})

describe('deriveRerank', () => {
  it('projects the first stage and the rerank onto 12 shards of 3M', () => {
    const results = fixture()
    deriveRerank(results)
    const { cluster, second } = results.projection!
    // 100,000 per measured shard, 3M per projected shard → 12 shards, scale 30
    expect([cluster.shards, cluster.scale]).toEqual([12, 30])
    // (a) distributed: 10, 20, 30 → p50 20, p99 30; p50 = 1·30 + (20 − 1) = 49; p99 = 4·30 + (30 − 4) = 146
    expect([cluster.p50, cluster.p99]).toEqual([49, 146])
    // (b) distributed: 20, 40, 60 → p50 40, p99 60; shard ×(500/12)/250 = 1/6:
    // p50 = 10/6 + (40 − 10) = 31.667; p99 = 40/6 + (60 − 40) = 26.667
    expect(second.p50).toBeCloseTo(10 / 6 + 30, 9)
    expect(second.p99).toBeCloseTo(40 / 6 + 20, 9)
    expect(second.totalP99).toBeCloseTo(146 + 40 / 6 + 20, 9)
    expect(second.bytesPerDoc).toBeCloseTo((300 * MIB) / 100_000, 9)
    expect(results.agreement).toEqual({ queries: 2, sameOrder: 1, sameSet: 2, meanOverlap: 1 })
  })
})

describe('renderRerankReport', () => {
  it('renders the latency, memory and projection tables with ratios to the embedded engine', () => {
    const results = fixture()
    deriveRerank(results)
    const text = renderRerankReport(results)
    expect(text).toContain('Command: `node tools/bench-solr/dist/rerank-scale.js --docs 200000`')
    // Solr one client 30 / 60 / 90 against embedded 10 / 20 / 30: nearest rank p50 = the 2nd → 60 / 20 = 3.00×
    expect(text).toContain(
      '| reranked, one client | 20.0 / 30.0 / 30.0 | 60.0 / 90.0 / 90.0 | 3.00× | 3.00× | 0 / 0 | 3 / 3 |',
    )
    expect(text).toContain(
      '| reranked, paced 10 req/s | 12.0 / 12.0 / 12.0 | 36.0 / 36.0 / 36.0 | 3.00× | 3.00× | 0 / **1** (NETWORK 1) | 1 / 1 |',
    )
    // (a) 60 of 180 ms summed
    expect(text).toContain('| one client | 20.0 / 30.0 / 30.0 | 40.0 / 60.0 / 60.0 | 33 % | 67 % |')
    expect(text).toContain('Embedded / Solr client RSS after the queries: 4.17×')
    expect(text).toContain(
      '| after indexing and the deploy of model A | 2,000 MiB | 2,100 MiB | 800 MiB of 1,024 MiB | 300 MiB of 1,024 MiB |',
    )
    expect(text).toContain(
      '| shards × replicas, nodes | 12 × 2 (3,000,000 per shard), 24 nodes | one replica per node |',
    )
    expect(text).toContain('| index bytes per article (one replica) | 3,146 |')
    // scale.ts's match-all and embedded-row assumptions are left out, the second stage's added
    expect(text).not.toContain('match-all queries here are not pruned')
    expect(text).not.toContain('The embedded rows use')
    expect(text).toContain(
      '- Request (b) on one shard costs time linear in the candidates it holds',
    )
    expect(text).not.toContain('smoke run')
    expect(text).not.toContain('**Note:**')
    expect(
      renderRerankReport({ ...results, options: { ...results.options, note: '200k, not 1M' } }),
    ).toContain('**Note:** 200k, not 1M')
  })

  it('says when a run is a smoke run and lists errors', () => {
    const results = fixture()
    results.errors.push({ phase: 'Solr: indexCorpus', message: 'boom' })
    const quick = { ...results, options: { ...results.options, quick: true } }
    const text = renderRerankReport(quick)
    expect(text).toContain('**A smoke run (`--quick`), not a result.**')
    expect(text).toContain('- Solr: indexCorpus: boom')
    expect(text).toContain('Not computed')
  })
})

describe('formatRatio', () => {
  it('prints two decimals below 10 and one above, a dash for unknowns', () => {
    expect(formatRatio(3, 2)).toBe('1.50×')
    expect(formatRatio(250, 10)).toBe('25.0×')
    expect(formatRatio(1, 0)).toBe('–')
    expect(formatRatio(undefined, 1)).toBe('–')
    expect(formatRatio(Number.NaN, 1)).toBe('–')
  })
})
