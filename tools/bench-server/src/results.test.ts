import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkJson } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import type { LoadResult } from './load.ts'
import type { PhasesResult } from './phases.ts'
import { renderReport, type BenchResults } from './report.ts'
import { BENCH_RESULTS, HEALTH, SAVED_LABELS, SETUP_RESULT } from './results.ts'
import type { SetupResult } from './setup.ts'
import { summarize } from './stats.ts'

const dir = mkdtempSync(join(tmpdir(), 'bench-server-results-'))
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

const setup: SetupResult = {
  match: 'all',
  corpus: '/c',
  index: '/i',
  docCount: 1000,
  generation: 2,
  queryFile: '/shared/data/pubmed-best-match/data/queries/queries.txt',
  logQueries: 3,
  accepted: ['cancer', 'aspirin asthma'],
  rejected: { QUERY_SYNTAX: 1 },
  matches: { none: 0, under500: 1, atLeast500: 1 },
  models: [{ name: 'A', dir: '/m/a', seed: 1, slice: 'even', queries: 1, trainQueries: 1, trainRows: 500, trees: 10, seconds: 3, grades: { '0': 400, '1': 80, '2': 20 } }],
}

const load: LoadResult = {
  mode: { kind: 'paced', rate: 2 },
  seconds: 2,
  wallSeconds: 2.1,
  responses: [
    { atMs: 100, status: 200, latencyMs: 10, bytes: 100, query: 0, summary: { total: 600, reranked: true, fallback: false, generation: 2, model: 'm', tookMs: 7 } },
    { atMs: 1900, status: 503, latencyMs: 5000, bytes: 50, query: 1 },
  ],
  errors: 0,
  timeouts: 0,
  non2xx: 1,
  statusCounts: { '200': 1, '503': 1 },
  requestsSent: 2,
  events: [{ name: 'reload', startMs: 500, endMs: 700, ok: true, detail: { 'in effect after ms': Number.NaN } }],
}

const noValues = summarize([])
const phases: PhasesResult = {
  rounds: 3,
  model: '/m/a',
  reranked: {
    queries: 1,
    firstStage: summarize([1, 2]),
    features: summarize([3]),
    rerank: summarize([1]),
    scoring: summarize([1]),
    engineSearch: summarize([5]),
    engineSearchCpu: summarize([4]),
    records: summarize([0.5]),
    highlights: summarize([0.2]),
    candidates: summarize([500]),
  },
  fallback: { queries: 0, engineSearch: noValues },
  noMatch: { queries: 0, engineSearch: noValues },
}

const { accepted, ...setupRest } = setup
const results: BenchResults = {
  command: 'pnpm --filter @pubmatch/bench-server bench',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:10:00.000Z',
  machine: { cpus: 2, cpuModel: 'cpu', memGiB: 8, node: 'v20', os: 'Linux 6' },
  quiet: { waits: [] },
  setup: { ...setupRest, acceptedCount: accepted.length },
  modelNames: { 'x/1': 'A' },
  runs: [
    {
      name: 'paced',
      description: '2 req/s',
      startedAt: '2026-01-01T00:01:00.000Z',
      loadBefore: [0.5, 0.4, 0.3],
      loadAfter: [1, 0.5, 0.3],
      server: { script: 'serve.js', startMs: 900, model: 'A' },
      load,
      usage: { seconds: 2, cpuSeconds: 1, cpuPercent: 50, cpuPercentPeak: 80, rssPeakMiB: 300, rssMeanMiB: 250, rssFirstMiB: 200, rssLastMiB: 280, samples: 5 },
      metrics: { pubmatch_search_seconds_count: 2 },
    },
  ],
  phases,
}

describe('a whole run’s results, read back for --report', () => {
  it('keeps its NaNs (summaries of no values) through JSON and renders as it did', () => {
    const file = join(dir, 'results.json')
    writeFileSync(file, `${JSON.stringify(results)}\n`)
    const read = readJsonFileSync(file, BENCH_RESULTS, { nullAsNaN: true })
    expect(read.phases!.fallback.engineSearch).toEqual(noValues)
    expect(renderReport(read)).toBe(renderReport(results))
  })

  it('is refused, naming the file and the field, when it is not of its shape', () => {
    const file = join(dir, 'damaged.json')
    writeFileSync(file, JSON.stringify({ ...results, runs: [{ ...results.runs[0], load: { ...load, mode: { kind: 'steady', rate: 2 } } }] }))
    expect(() => readJsonFileSync(file, BENCH_RESULTS, { nullAsNaN: true })).toThrowError(
      `${file}: runs[0].load.mode.kind is "steady", expected "paced", "max" or "burst"`,
    )
  })
})

describe('setup’s files', () => {
  it('reads setup’s result and labels back, and names a damaged one', () => {
    expect(checkJson(JSON.parse(JSON.stringify(setup)), SETUP_RESULT, { file: 'setup-all.json' })).toEqual(setup)
    const labels = { grades: { q1: 2 }, queries: [{ id: 'q1', text: 'cancer', judgements: [['123', 2]] }] }
    expect(checkJson(labels, SAVED_LABELS, { file: 'labels.json' })).toEqual(labels)
    expect(() => checkJson({ ...labels, queries: [{ id: 'q1', text: 'cancer', judgements: [['123']] }] }, SAVED_LABELS, { file: 'labels-all-even.json' }))
      .toThrowErrorMatchingInlineSnapshot(`[PubmatchError: labels-all-even.json: queries[0].judgements[0] is ["123"], expected an array of 2]`)
    expect(() => checkJson({ ...setup, models: [{ ...setup.models[0], name: 'C' }] }, SETUP_RESULT, { file: 'setup-all.json' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: setup-all.json: models[0].name is "C", expected "A" or "B"]`,
    )
  })
})

describe('the server’s /health', () => {
  it('is checked', () => {
    expect(checkJson({ status: 'ok', generation: 3, documents: 10, firstStage: 'bm25f', modelDir: '/m' }, HEALTH, { file: 'http://127.0.0.1:1/health' })).toMatchObject({ generation: 3 })
    expect(() => checkJson({ status: 'ok' }, HEALTH, { file: 'http://127.0.0.1:1/health' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: http://127.0.0.1:1/health: generation is missing, expected a non-negative integer]`,
    )
  })
})
