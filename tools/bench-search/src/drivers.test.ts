import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { xapianBm25 } from '@pubmatch/bm25f/internal'
import { afterAll, describe, expect, it } from 'vitest'
import { findXapianPython, probeAnchor, type AnchorName } from './anchors.ts'
import {
  anchorBuild,
  anchorBuildResult,
  anchorServe,
  anchorServeResult,
  DRIVER_BUILD_OUTPUT,
  DRIVER_QUERY_OUTPUT,
  type DriverQueryOutput,
} from './drivers.ts'
import type { SearchCell } from './query-sets.ts'
import { ANCHOR_VENV, anchorVenvStatus, venvPython } from './venv.ts'

const or = (limit: number): SearchCell => ({ set: 'log-bag', match: 'any', limit, pruning: true })
const and = (limit: number): SearchCell => ({ set: 'log-bag', match: 'all', limit, pruning: true })

const queryOutput = (matches: number | null): DriverQueryOutput => ({
  openMs: 1,
  rssAfterOpenMiB: 15,
  peakRssMiB: 17,
  indexBytes: 1000,
  docs: 3,
  cells: [
    {
      queries: 2,
      latenciesMs: [9, 7, 1, 3],
      cpuMs: [8, 6, 1, 2],
      matches,
      emptyQueries: 1,
    },
  ],
})

describe('anchorServeResult', () => {
  it('summarises the driver output round by round, with the same statistics as pubmatch', () => {
    const result = anchorServeResult('xapian', 'nfcorpus', [or(500)], 2, queryOutput(5))
    expect(result.engine).toBe('xapian')
    const [cell] = result.cells
    expect(cell).toMatchObject({
      set: 'log-bag',
      match: 'any',
      limit: 500,
      queries: 2,
      rounds: 2,
      errors: 0,
    })
    // round 2 = [1, 3]: nearest-rank p50 1, p95 and p99 3, mean 2; round 1 = [9, 7], mean 8
    expect(cell!.latency).toEqual({ count: 2, p50: 1, p95: 3, p99: 3, mean: 2, max: 3 })
    expect(cell!.firstRound.mean).toBe(8)
    expect(cell!.cpuMsPerQuery).toBe(1.5)
    expect(cell!.matchesPerQuery).toBe(2.5)
  })

  it('leaves matches out when the engine does not count them (PISA)', () => {
    const result = anchorServeResult('pisa', 'nfcorpus', [or(500)], 2, queryOutput(null))
    expect(result.engine).toBe('pisa')
    expect(result.cells[0]).not.toHaveProperty('matchesPerQuery')
    expect(result.cells[0]!.emptyQueries).toBe(1)
  })

  it('refuses an output whose cells or rounds do not match what was asked', () => {
    expect(() =>
      anchorServeResult('tantivy', 'nfcorpus', [or(500), and(500)], 2, queryOutput(5)),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: tantivy_driver.py query: 1 cells in its output, 2 asked for]`,
    )
    expect(() =>
      anchorServeResult('tantivy', 'nfcorpus', [or(500)], 3, queryOutput(5)),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: tantivy_driver.py query, cell 0: 4 latencies and 4 CPU times, expected 2 queries × 3 rounds = 6]`,
    )
  })
})

describe("the drivers' JSON output", () => {
  const build = {
    docs: 3,
    seconds: 2,
    parseSeconds: 0.5,
    tailSeconds: 0.25,
    cpuSeconds: 1.5,
    peakRssMiB: 40,
    indexBytes: 4096,
    buildBytes: 8192,
    segments: 1,
    version: '0.27.0',
    config: { fields: 'one bag', count: 'off' },
  }

  it('reads a build line after whatever the driver logged, into a BuildResult', () => {
    const stdout = `indexing…\n${JSON.stringify(build)}\n`
    const raw = lastJsonLine(stdout, DRIVER_BUILD_OUTPUT, 'tantivy_driver.py build')
    const result = anchorBuildResult('tantivy', 'nfcorpus', raw, new Date('2026-11-28T00:00:00Z'))
    expect(result).toEqual({
      engine: 'tantivy',
      corpus: 'nfcorpus',
      docs: 3,
      seconds: 2,
      inputSeconds: 0.5,
      tailSeconds: 0.25,
      cpuSeconds: 1.5,
      peakRssMiB: 40,
      indexBytes: 4096,
      buildBytes: 8192,
      segments: 1,
      date: '2026-11-28T00:00:00.000Z',
      version: '0.27.0',
      config: { fields: 'one bag', count: 'off' },
    })
  })

  it('refuses a build line without a version, or with a configuration that is not text', () => {
    const { version: _version, ...noVersion } = build
    expect(() =>
      lastJsonLine(JSON.stringify(noVersion), DRIVER_BUILD_OUTPUT, 'pisa_driver.py build'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the last line of pisa_driver.py build: version is missing, expected a string]`,
    )
    expect(() =>
      lastJsonLine(
        JSON.stringify({ ...build, config: { k1: 1.2 } }),
        DRIVER_BUILD_OUTPUT,
        'pisa_driver.py build',
      ),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the last line of pisa_driver.py build: config.k1 is 1.2, expected a string]`,
    )
  })

  it('reads a query line with null matches and refuses a traceback after it', () => {
    const line = JSON.stringify(queryOutput(null))
    expect(lastJsonLine(line, DRIVER_QUERY_OUTPUT, 'pisa_driver.py query').cells[0]!.matches).toBe(
      null,
    )
    expect(() =>
      lastJsonLine(
        `${line}\nTraceback (most recent call last):`,
        DRIVER_QUERY_OUTPUT,
        'pisa_driver.py query',
      ),
    ).toThrow(/the last line of pisa_driver.py query/)
    expect(() =>
      lastJsonLine(
        JSON.stringify({
          ...queryOutput(1),
          cells: [{ ...queryOutput(1).cells[0], latenciesMs: ['1'] }],
        }),
        DRIVER_QUERY_OUTPUT,
        'tantivy_driver.py query',
      ),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the last line of tantivy_driver.py query: cells[0].latenciesMs[0] is "1", expected a number]`,
    )
  })
})

/** Writes JSON lines of queries `{ id: q<i>, text }` and returns the path. */
function queryFile(dir: string, name: string, texts: readonly string[]): string {
  const path = join(dir, `${name}.jsonl`)
  writeFileSync(
    path,
    texts.map((text, i) => JSON.stringify({ id: `q${i}`, text })).join('\n') + '\n',
  )
  return path
}

/** A TREC run's lines, split into their six fields. */
const runLines = (path: string): string[][] =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => line.split(' '))

const python = findXapianPython()

describe.skipIf(python === null)('xapian_driver.py (needs python3-xapian)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-xapian-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("scores with BM25Weight(1.2, 0, 1, 0.75, 0.5): @pubmatch/bm25f's xapianBm25 values", async () => {
    // Words Porter2 leaves alone and no stop word: each word is indexed twice (the word with
    // its position and its Z-stem), so Xapian's lengths are 6, 8 and 2 (avgdl 16/3).
    const docs = [
      { id: 'd1', title: 'cat', abstract: 'cat dog' },
      { id: 'd2', title: 'dog', abstract: 'fish bird fish' },
      { id: 'd3', title: 'bird', abstract: '' },
    ]
    const docsPath = join(dir, 'docs.jsonl')
    writeFileSync(docsPath, docs.map((d) => JSON.stringify(d)).join('\n') + '\n')
    const stopwords = join(dir, 'stop.txt')
    writeFileSync(stopwords, 'the\nof\n')
    const db = join(dir, 'db')
    const build = await anchorBuild(python!, 'xapian', 'tiny', docsPath, db, stopwords)
    expect(build).toMatchObject({ engine: 'xapian', corpus: 'tiny', docs: 3, segments: 1 })
    expect(build.indexBytes).toBeGreaterThan(0)
    expect(build.version).toMatch(/^1\./)
    expect(probeAnchor(python!, 'xapian')).toEqual({
      ok: true,
      version: build.version,
      config: build.config,
    })
    expect(Object.keys(build.config ?? {})).toEqual(
      expect.arrayContaining(['fields', 'analysis', 'stopwords', 'scoring', 'query', 'count']),
    )

    const runOr = join(dir, 'or.run')
    const runAnd = join(dir, 'and.run')
    const served = await anchorServe(
      python!,
      'xapian',
      'tiny',
      db,
      join(dir, 'spec.json'),
      [
        {
          cell: or(10),
          queries: queryFile(dir, 'or', ['cat', 'the bird']),
          warmup: null,
          stopwords,
          run: runOr,
        },
        {
          cell: and(10),
          queries: queryFile(dir, 'and', ['dog fish']),
          warmup: null,
          stopwords,
          run: runAnd,
        },
      ],
      1,
    )
    expect(served.docs).toBe(3)
    expect(served.cells.map((c) => c.queries)).toEqual([2, 1])

    const score = (docFreq: number, tf: number, length: number): number =>
      xapianBm25({
        collection: { docCount: 3, fields: [{ name: 'bag', totalLength: 16 }] },
        term: { docFreq },
        tfs: [tf],
        lengths: [length],
      }).value
    // cat: n = 1, tf 2 in d1 (length 6): tw = 2.5/1.5 < 2 → 1.8333; 2.2·ln(1.8333)·2/(1.2·(1.125·0.75 + 0.25) + 2)
    const orRun = runLines(runOr)
    expect(orRun[0]!.slice(0, 4)).toEqual(['q0', 'Q0', 'd1', '1'])
    expect(Number(orRun[0]![4])).toBeCloseTo(0.8051313315349098, 12)
    expect(Number(orRun[0]![4])).toBeCloseTo(score(1, 2, 6), 12)
    // "the bird": the stop word is dropped; bird (n = 2) in d3 (length 2, normlen 0.375 → 0.5) then d2
    expect(orRun.slice(1).map((l) => [l[0], l[2], Number(l[4]).toFixed(12)])).toEqual([
      ['q1', 'd3', score(2, 1, 2).toFixed(12)],
      ['q1', 'd2', score(2, 1, 8).toFixed(12)],
    ])
    // OP_AND: only d2 has both words; dog (n = 2, tf 1) + fish (n = 1, tf 2) at length 8
    const andRun = runLines(runAnd)
    expect(andRun).toHaveLength(1)
    expect(andRun[0]![2]).toBe('d2')
    expect(Number(andRun[0]![4])).toBeCloseTo(score(2, 1, 8) + score(1, 2, 8), 12)
    expect(Number(andRun[0]![4])).toBeCloseTo(0.9484960985581632, 12)
  })
})

/**
 * The venv anchors' tiny corpus: five documents, stop words "the" and "of" in d4 and d5. tantivy
 * drops stop words when indexing (lengths 3, 4, 1, 2, 2: avgdl 12/5 = 2.4); PISA indexes them
 * (lengths 3, 4, 1, 3, 3: avgdl 14/5 = 2.8).
 */
const TINY = [
  { id: 'd1', title: 'cat', abstract: 'cat dog' },
  { id: 'd2', title: 'dog', abstract: 'fish bird fish' },
  { id: 'd3', title: 'bird', abstract: '' },
  { id: 'd4', title: 'zebra', abstract: 'the zebra' },
  { id: 'd5', title: 'yak', abstract: 'of yak' },
]

/**
 * Builds the tiny corpus with an anchor's driver and runs "cat", "the bird" (any), "dog fish"
 * and "dog unicorn" (all: no hit, a word no document has).
 */
async function tinyRuns(
  anchor: AnchorName,
  python: string,
  dir: string,
): Promise<{ or: string[][]; and: string[][]; matches: (number | undefined)[] }> {
  const docsPath = join(dir, 'docs.jsonl')
  writeFileSync(docsPath, TINY.map((d) => JSON.stringify(d)).join('\n') + '\n')
  const stopwords = join(dir, 'stop.txt')
  writeFileSync(stopwords, 'the\nof\n')
  const index = join(dir, anchor)
  const build = await anchorBuild(python, anchor, 'tiny', docsPath, index, stopwords)
  expect(build).toMatchObject({ engine: anchor, corpus: 'tiny', docs: 5 })
  expect(build.indexBytes).toBeGreaterThan(0)
  expect(Object.keys(build.config ?? {})).toEqual(
    expect.arrayContaining([
      'fields',
      'analysis',
      'stopwords',
      'scoring',
      'query',
      'count',
      'build',
    ]),
  )
  // what `version` states is what the build states: a cached build is reused only while they agree
  expect(probeAnchor(python, anchor)).toEqual({
    ok: true,
    version: build.version,
    config: build.config,
  })
  const runOr = join(dir, `${anchor}-or.run`)
  const runAnd = join(dir, `${anchor}-and.run`)
  const served = await anchorServe(
    python,
    anchor,
    'tiny',
    index,
    join(dir, `${anchor}-spec.json`),
    [
      {
        cell: or(10),
        queries: queryFile(dir, 'or', ['cat', 'the bird']),
        warmup: queryFile(dir, 'warm', ['zebra']),
        stopwords,
        run: runOr,
      },
      {
        cell: and(10),
        queries: queryFile(dir, 'and', ['dog fish', 'dog unicorn']),
        warmup: null,
        stopwords,
        run: runAnd,
      },
    ],
    2,
  )
  expect(served).toMatchObject({ engine: anchor, docs: 5 })
  expect(served.cells.map((c) => [c.queries, c.rounds, c.latency.count, c.emptyQueries])).toEqual([
    [2, 2, 2, 0],
    [2, 2, 2, 1],
  ])
  return {
    or: runLines(runOr),
    and: runLines(runAnd),
    matches: served.cells.map((c) => c.matchesPerQuery),
  }
}

const venv = anchorVenvStatus(ANCHOR_VENV) === 'current' ? venvPython(ANCHOR_VENV) : null

describe.skipIf(venv === null)(
  "the venv anchors' drivers (need tools/bench-search/.venv, made by `pnpm bench`)",
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-anchors-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('tantivy_driver.py scores with BM25 k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5))', async () => {
      expect(probeAnchor(venv!, 'tantivy')).toMatchObject({ ok: true, version: '0.27.0' })
      const runs = await tinyRuns('tantivy', venv!, dir)
      // N = 5, avgdl 2.4, K(dl) = 1.2·(0.25 + 0.75·dl/2.4). cat (n = 1: idf ln 4 = 1.386294) in
      // d1, tf 2, dl 3: 1.386294 · 2·2.2/(2 + 1.425) = 1.780933
      expect(runs.or[0]!.slice(0, 4)).toEqual(['q0', 'Q0', 'd1', '1'])
      expect(Number(runs.or[0]![4])).toBeCloseTo(1.7809329, 5)
      // "the bird": "the" dropped; bird (n = 2: idf ln 2.4 = 0.875469) in d3 (dl 1):
      // 0.875469 · 2.2/(1 + 0.675) = 1.149869, then d2 (dl 4): 0.875469 · 2.2/(1 + 1.8) = 0.687868
      expect(runs.or.slice(1).map((l) => [l[0], l[2]])).toEqual([
        ['q1', 'd3'],
        ['q1', 'd2'],
      ])
      expect(Number(runs.or[1]![4])).toBeCloseTo(1.1498694, 5)
      expect(Number(runs.or[2]![4])).toBeCloseTo(0.6878683, 5)
      // all: only d2; dog 0.687868 + fish (n = 1, tf 2, dl 4) 1.386294 · 4.4/(2 + 1.8) = 1.605183
      expect(runs.and.map((l) => l[2])).toEqual(['d2'])
      expect(Number(runs.and[0]![4])).toBeCloseTo(2.2930512, 5)
      // exact counts: cat 1 + bird 2 over 2 queries; dog AND fish 1, dog AND unicorn 0
      expect(runs.matches).toEqual([1.5, 0.5])
    })

    it('pisa_driver.py scores with BM25 k1 1.2, b 0.75, idf max(1e-6, ln((N − n + 0.5)/(n + 0.5)))', async () => {
      expect(probeAnchor(venv!, 'pisa')).toMatchObject({ ok: true, version: '0.4.9' })
      const runs = await tinyRuns('pisa', venv!, dir)
      // N = 5, avgdl 2.8 (stop words indexed), K(dl) = 1.2·(0.25 + 0.75·dl/2.8). cat (n = 1:
      // ln 3 = 1.098612) in d1, tf 2, dl 3: 1.098612 · 2.2 · 2/(2 + 1.264286) = 1.480843
      expect(runs.or[0]!.slice(0, 4)).toEqual(['q0', 'Q0', 'd1', '1'])
      expect(Number(runs.or[0]![4])).toBeCloseTo(1.4808428, 5)
      // "the bird": "the" dropped by the driver; bird (n = 2: ln 1.4 = 0.336472) in d3 (dl 1):
      // 0.336472 · 2.2/(1 + 0.621429) = 0.456535, then d2 (dl 4): 0.336472 · 2.2/(1 + 1.585714) = 0.286280
      expect(runs.or.slice(1).map((l) => [l[0], l[2]])).toEqual([
        ['q1', 'd3'],
        ['q1', 'd2'],
      ])
      expect(Number(runs.or[1]![4])).toBeCloseTo(0.456535, 5)
      expect(Number(runs.or[2]![4])).toBeCloseTo(0.2862802, 5)
      // all: only d2; dog 0.286280 + fish (n = 1, tf 2, dl 4) 1.098612 · 2.2 · 2/(2 + 1.585714) = 1.348098;
      // "dog unicorn" finds nothing, although PISA alone would drop the unknown word
      expect(runs.and.map((l) => l[2])).toEqual(['d2'])
      expect(Number(runs.and[0]![4])).toBeCloseTo(1.6343782, 5)
      // PISA does not count matches
      expect(runs.matches).toEqual([undefined, undefined])
    })
  },
)
