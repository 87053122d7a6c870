import { describe, expect, it } from 'vitest'
import { buildCpuRate, buildRate, renderResults, scalingInputs } from './render.ts'
import type {
  BenchResults,
  BuildResult,
  CaseRecord,
  CellResult,
  CorpusResults,
  ServeResult,
} from './results.ts'

const record = <T>(result: T): CaseRecord<T> => ({
  result,
  loadBefore: [1, 1, 1],
  loadAfter: [2, 2, 2],
  processSeconds: 3,
})

const build = (
  corpus: string,
  docs: number,
  bytesPerDoc: number,
  engine: 'pubmatch' | 'xapian' = 'pubmatch',
): BuildResult => ({
  engine,
  corpus,
  docs,
  seconds: docs / 1000 + 10,
  inputSeconds: 10,
  cpuSeconds: docs / 2000 + 10,
  tailSeconds: 1,
  peakRssMiB: 500,
  indexBytes: docs * bytesPerDoc,
  fileBytes: { pst: docs * bytesPerDoc * 0.4, pos: docs * bytesPerDoc * 0.6 },
  date: '2026-11-22T03:00:00.000Z',
})

const cell = (match: 'all' | 'any', p50: number, p99: number, cpu: number): CellResult => ({
  set: 'log-pubmed',
  match,
  limit: 500,
  pruning: true,
  queries: 10,
  rounds: 3,
  errors: 0,
  latency: { count: 20, p50, p95: p99, p99, mean: p50, max: p99 },
  firstRound: { count: 10, p50, p95: p99, p99, mean: p50, max: p99 },
  cpuMsPerQuery: cpu,
  postingsPerQuery: 100,
})

const serve = (corpus: string, docs: number, rss: number, scale: number): ServeResult => ({
  engine: 'pubmatch',
  corpus,
  docs,
  openMs: 10,
  rssAfterOpenMiB: rss,
  peakRssMiB: rss + 50,
  indexBytes: 0,
  cells: [
    cell('all', 1 * scale, 2 * scale, 1 * scale),
    cell('any', 2 * scale, 4 * scale, 2 * scale),
  ],
})

const synth = (
  corpus: string,
  docs: number,
  bytesPerDoc: number,
  rss: number,
  scale: number,
): CorpusResults => ({
  corpus,
  label: corpus,
  docs,
  build: { pubmatch: record(build(corpus, docs, bytesPerDoc)) },
  serve: { pubmatch: record(serve(corpus, docs, rss, scale)) },
})

const results = (corpora: CorpusResults[]): BenchResults => ({
  started: '2026-11-22T03:00:00.000Z',
  finished: '2026-11-22T04:00:00.000Z',
  command: 'pnpm --filter @pubmatch/bench-search bench',
  machine: 'test machine',
  rounds: 3,
  logQueries: { measured: 10, warmup: 2 },
  corpora,
})

describe('buildRate and buildCpuRate', () => {
  it('leave the input production time out', () => {
    const b = build('synth-100k', 100_000, 700) // 110 s wall, 60 CPU-s, 10 s input
    expect(buildRate(b)).toBe(1000)
    expect(buildCpuRate(b)).toBe(2000)
  })
})

describe('scalingInputs', () => {
  it('takes bytes/doc, serving RSS and the pruned top-500 log-pubmed cell of both sizes', () => {
    const pair = [
      synth('synth-100k', 1e5, 700, 150, 1),
      synth('synth-1m', 1e6, 650, 600, 10),
    ] as const
    expect(scalingInputs(pair, 'any')).toEqual({
      bytesPerDoc: [
        { docs: 1e5, value: 700 },
        { docs: 1e6, value: 650 },
      ],
      servingRssMiB: [
        { docs: 1e5, value: 150 },
        { docs: 1e6, value: 600 },
      ],
      p50Ms: [
        { docs: 1e5, value: 2 },
        { docs: 1e6, value: 20 },
      ],
      p99Ms: [
        { docs: 1e5, value: 4 },
        { docs: 1e6, value: 40 },
      ],
      cpuMsPerQuery: [
        { docs: 1e5, value: 2 },
        { docs: 1e6, value: 20 },
      ],
    })
  })
})

describe('renderResults', () => {
  it('projects to 36M articles from the two synthetic corpora', () => {
    const text = renderResults(
      results([synth('synth-100k', 1e5, 700, 150, 1), synth('synth-1m', 1e6, 650, 600, 10)]),
    )
    // 650 − 50·log10(36) = 572.185 bytes/doc → 572.185 · 36e6 / 2^30 = 19.2 GiB
    expect(text).toContain(
      '| index bytes/doc (log-linear) | 700 | 650 | -50 per decade | 572 → **19.2 GiB** |',
    )
    // RSS: 100 MiB + 0.0005 MiB/doc → 18,100 MiB = 17.7 GiB
    expect(text).toContain('**17.7 GiB**')
    // p50 of match all: 1 → 10 ms, α = 1 → 360 ms
    expect(text).toContain(
      '| log queries, match all, top 500: p50 ms | 1.00 | 10.00 | α = 1.00 | 360.00 |',
    )
    expect(text).toContain('## Projection to PubMed (36M articles)')
  })

  it('leaves the projection and Xapian sections out when their measurements are missing', () => {
    const text = renderResults(results([synth('synth-100k', 1e5, 700, 150, 1)]))
    expect(text).not.toContain('Projection')
    expect(text).not.toContain('against Xapian')
    expect(text).toContain('| synth-100k | pubmatch | log-pubmed all 500 | 10 × 3 | 0 | 1.00 |')
  })

  it('compares with Xapian cell by cell', () => {
    const ours = synth('synth-100k', 1e5, 700, 150, 1)
    const xapianServe: ServeResult = { ...serve('synth-100k', 1e5, 20, 0.5), engine: 'xapian' }
    const withXapian: CorpusResults = {
      ...ours,
      build: { ...ours.build, xapian: record(build('synth-100k', 1e5, 3000, 'xapian')) },
      serve: { ...ours.serve, xapian: record(xapianServe) },
    }
    const text = renderResults(results([withXapian]))
    // match all: pubmatch p50 1 ms / p99 2 ms vs Xapian 0.5 / 1 → ×2.00
    expect(text).toContain(
      '| synth-100k | log-pubmed all ↔ OP_AND 500 | 1.00 / 2.00 / 1.00 | 0.50 / 1.00 / 0.50 | ×2.00 | ×2.00 |',
    )
  })
})
