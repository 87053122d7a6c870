import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { xapianBm25 } from '@pubmatch/bm25f/internal'
import { afterAll, describe, expect, it } from 'vitest'
import type { SearchCell } from './query-sets.ts'
import { findXapianPython, xapianBuild, xapianServe, xapianServeResult } from './xapian.ts'

const or = (limit: number): SearchCell => ({ set: 'log-bag', match: 'any', limit, pruning: true })
const and = (limit: number): SearchCell => ({ set: 'log-bag', match: 'all', limit, pruning: true })

describe('xapianServeResult', () => {
  it('summarises the driver output round by round, with the same statistics as pubmatch', () => {
    const result = xapianServeResult('nfcorpus', [or(500)], 2, {
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
          matchesEstimated: 5,
          emptyQueries: 1,
        },
      ],
    })
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
    expect(cell!.latency).toEqual({ count: 2, p50: 1, p95: 3, p99: 3, mean: 2, max: 3 })
    expect(cell!.firstRound.mean).toBe(8)
    expect(cell!.cpuMsPerQuery).toBe(1.5)
    expect(cell!.matchesPerQuery).toBe(2.5)
  })
})

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
    const build = await xapianBuild(python!, 'tiny', docsPath, db, stopwords)
    expect(build).toMatchObject({ engine: 'xapian', corpus: 'tiny', docs: 3 })
    expect(build.indexBytes).toBeGreaterThan(0)

    const queries = (name: string, texts: string[]): string => {
      const path = join(dir, `${name}.jsonl`)
      writeFileSync(
        path,
        texts.map((text, i) => JSON.stringify({ id: `q${i}`, text })).join('\n') + '\n',
      )
      return path
    }
    const runOr = join(dir, 'or.run')
    const runAnd = join(dir, 'and.run')
    const served = await xapianServe(
      python!,
      'tiny',
      db,
      join(dir, 'spec.json'),
      [
        {
          cell: or(10),
          queries: queries('or', ['cat', 'the bird']),
          warmup: null,
          stopwords,
          run: runOr,
        },
        {
          cell: and(10),
          queries: queries('and', ['dog fish']),
          warmup: null,
          stopwords,
          run: runAnd,
        },
      ],
      1,
    )
    expect(served.docs).toBe(3)
    expect(served.cells.map((c) => c.queries)).toEqual([2, 1])

    const lines = (path: string): string[][] =>
      readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => line.split(' '))
    const score = (docFreq: number, tf: number, length: number): number =>
      xapianBm25({
        collection: { docCount: 3, fields: [{ name: 'bag', totalLength: 16 }] },
        term: { docFreq },
        tfs: [tf],
        lengths: [length],
      }).value
    // cat: n = 1, tf 2 in d1 (length 6): tw = 2.5/1.5 < 2 → 1.8333; 2.2·ln(1.8333)·2/(1.2·(1.125·0.75 + 0.25) + 2)
    const orRun = lines(runOr)
    expect(orRun[0]!.slice(0, 4)).toEqual(['q0', 'Q0', 'd1', '1'])
    expect(Number(orRun[0]![4])).toBeCloseTo(0.8051313315349098, 12)
    expect(Number(orRun[0]![4])).toBeCloseTo(score(1, 2, 6), 12)
    // "the bird": the stop word is dropped; bird (n = 2) in d3 (length 2, normlen 0.375 → 0.5) then d2
    expect(orRun.slice(1).map((l) => [l[0], l[2], Number(l[4]).toFixed(12)])).toEqual([
      ['q1', 'd3', score(2, 1, 2).toFixed(12)],
      ['q1', 'd2', score(2, 1, 8).toFixed(12)],
    ])
    // OP_AND: only d2 has both words; dog (n = 2, tf 1) + fish (n = 1, tf 2) at length 8
    const andRun = lines(runAnd)
    expect(andRun).toHaveLength(1)
    expect(andRun[0]![2]).toBe('d2')
    expect(Number(andRun[0]![4])).toBeCloseTo(score(2, 1, 8) + score(1, 2, 8), 12)
    expect(Number(andRun[0]![4])).toBeCloseTo(0.9484960985581632, 12)
  })
})
