import { describe, expect, it } from 'vitest'
import { bestAnchor, buildCpuRate, buildRate, renderResults, scalingInputs } from './render.ts'
import type {
  BenchResults,
  BuildResult,
  CaseRecord,
  CellResult,
  CorpusResults,
  Engine,
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
  engine: Engine = 'pubmatch',
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

  it('leaves the projection and anchor sections out when their measurements are missing', () => {
    const text = renderResults(results([synth('synth-100k', 1e5, 700, 150, 1)]))
    expect(text).not.toContain('Projection')
    expect(text).not.toContain('against the anchors')
    expect(text).toContain('| synth-100k | pubmatch | log-pubmed all 500 | 10 × 3 | 0 | 1.00 |')
  })

  it('compares with every anchor cell by cell, as ratios to the fastest anchor and to each', () => {
    const ours = synth('synth-100k', 1e5, 700, 150, 1)
    // tantivy: half pubmatch's times; PISA: the best p50 of "all" but the worst p99
    const tantivyServe: ServeResult = { ...serve('synth-100k', 1e5, 20, 0.5), engine: 'tantivy' }
    const pisaServe: ServeResult = {
      ...serve('synth-100k', 1e5, 10, 0.25),
      engine: 'pisa',
      cells: [cell('all', 0.25, 4, 0.4)],
    }
    const anchorBuild = (engine: Engine, seconds: number, bytesPerDoc: number): BuildResult => ({
      ...build('synth-100k', 1e5, bytesPerDoc, engine),
      seconds,
      version: engine === 'tantivy' ? '0.27.0' : '0.4.9',
      ...(engine === 'tantivy'
        ? { config: { fields: 'one bag', count: 'off' }, postingsBytes: 2.5e7, storedBytes: 1e6 }
        : {}),
    })
    const withAnchors: CorpusResults = {
      ...ours,
      build: {
        ...ours.build,
        pubmatch: record({ ...ours.build.pubmatch!.result, postingsBytes: 3e7, storedBytes: 4e7 }),
        tantivy: record(anchorBuild('tantivy', 60, 350)),
        pisa: record(anchorBuild('pisa', 35, 175)),
      },
      serve: { ...ours.serve, tantivy: record(tantivyServe), pisa: record(pisaServe) },
    }
    const text = renderResults({
      ...results([withAnchors]),
      anchorsSkipped: { xapian: 'left out by --anchors' },
    })
    expect(text).toContain('- Xapian skipped: left out by --anchors')
    expect(text).toContain(
      '| corpus | queries, match, hits | pubmatch p50 / p99 ms | tantivy p50 / p99 ms | PISA p50 / p99 ms | fastest anchor (p50 / p99) | p50 ÷ fastest | p99 ÷ fastest | CPU ms/query ÷ fastest | ÷ tantivy p50 / p99 | ÷ PISA p50 / p99 |',
    )
    // all: pubmatch 1 / 2 ms; tantivy 0.5 / 1; PISA 0.25 / 4. Fastest p50 PISA: 1/0.25 = ×4.00;
    // fastest p99 tantivy: 2/1 = ×2.00; CPU 1 ms against PISA's 0.4: ×2.50;
    // ÷ tantivy 1/0.5, 2/1; ÷ PISA 1/0.25, 2/4
    expect(text).toContain(
      '| synth-100k | log-pubmed all 500 | 1.00 / 2.00 | 0.50 / 1.00 | 0.25 / 4.00 | PISA / tantivy | **×4.00** | **×2.00** | ×2.50 | ×2.00 / ×2.00 | ×4.00 / ×0.50 |',
    )
    // any: only tantivy ran it (1 / 2 ms against pubmatch's 2 / 4)
    expect(text).toContain(
      '| synth-100k | log-pubmed any 500 | 2.00 / 4.00 | 1.00 / 2.00 | – | tantivy | **×2.00** | **×2.00** | ×2.00 | ×2.00 / ×2.00 | – |',
    )
    // docs/s: pubmatch 1e5/(110 − 10) = 1,000; tantivy 1e5/(60 − 10) = 2,000; PISA 1e5/(35 − 10) = 4,000
    expect(text).toContain(
      '| synth-100k | build docs/s (higher is better) | 1,000 | 2,000 | 4,000 | PISA | **×0.25** | ×0.50 | ×0.25 |',
    )
    // index: 700, 350 and 175 bytes/doc × 1e5 = 66.8, 33.4 and 16.7 MiB
    expect(text).toContain(
      '| synth-100k | index MiB (lower is better) | 66.8 | 33.4 | 16.7 | PISA | **×4.00** | ×2.00 | ×4.00 |',
    )
    // postings + positions apart from stored records: 3e7/1e5 = 300 against tantivy's 250 (×1.20);
    // stored 400 against 10 (×40.0); PISA states neither
    expect(text).toContain(
      '| synth-100k | postings + positions bytes/doc (title, abstract) (lower is better) | 300 | 250 | – | tantivy | **×1.20** | ×1.20 | – |',
    )
    expect(text).toContain(
      '| synth-100k | stored records bytes/doc (lower is better) | 400 | 10 | – | tantivy | **×40.0** | ×40.0 | – |',
    )
    // the configuration as the driver stated it, – for what it did not state
    expect(text).toContain('| tantivy | 0.27.0 | one bag | – | – | – | – | off | – |')
  })

  it("lists every engine's NFCorpus dev nDCG@10, Xapian's also from older results files", () => {
    const nf = synth('nfcorpus', 3394, 700, 150, 1)
    const withNdcg = (engine: Engine, ndcg10: number): CaseRecord<ServeResult> =>
      record({ ...serve('nfcorpus', 3394, 20, 0.5), engine, ndcg10 })
    const text = renderResults(
      results([
        {
          ...nf,
          serve: { pubmatch: withNdcg('pubmatch', 0.3), tantivy: withNdcg('tantivy', 0.31) },
          xapianNdcg10: 0.2979,
          label: 'NFCorpus',
        },
      ]),
    )
    expect(text).toContain(': pubmatch 0.3000, tantivy 0.3100, Xapian 0.2979 (reference README')
  })
})

describe('bestAnchor', () => {
  it('picks the lowest time or the highest rate, ignoring missing and non-finite values', () => {
    expect(bestAnchor({ tantivy: 2, pisa: 1, xapian: 3 }, 'lower')).toEqual({
      anchor: 'pisa',
      value: 1,
    })
    expect(bestAnchor({ tantivy: 2, pisa: 1, xapian: 3 }, 'higher')).toEqual({
      anchor: 'xapian',
      value: 3,
    })
    expect(bestAnchor({ tantivy: Number.NaN, xapian: 3 }, 'lower')).toEqual({
      anchor: 'xapian',
      value: 3,
    })
    expect(bestAnchor({}, 'lower')).toBeUndefined()
  })
})
