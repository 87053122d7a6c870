import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, samplePath } from '../test/run-cli.ts'

const sample = samplePath('')


describe.runIf(existsSync(bin))('pubmatch full-text search by section (built CLI, bundled sample)', () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-fulltext-'))
    index = join(dir, 'index')
    expect((await pubmatch('ingest', sample, '-c', join(dir, 'corpus'), '-q')).code).toBe(0)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('indexes the full texts by section, trains, inspects and plots PAV, and searches with each strategy', async () => {
    const indexed = await pubmatch('index', '-c', join(dir, 'corpus'), '-i', index, '-q', '--fulltext', '--json')
    expect(indexed.code).toBe(0)
    const summary = JSON.parse(indexed.stdout) as { fulltext: { articles: number; passages: number } }
    expect(summary.fulltext.articles).toBe(8)
    expect(summary.fulltext.passages).toBeGreaterThan(100)
    const before = await pubmatch('search', '-i', index, '--fulltext', 'sum-logodds', 'bone')
    expect([before.code, before.stderr]).toEqual([64, expect.stringMatching(/^pubmatch: INVALID_ARGUMENT: .*needs a section model/)])
    const trained = await pubmatch('fulltext', 'train', '-i', index, '--known-item', '--json')
    expect(trained.code).toBe(0)
    expect(JSON.parse(trained.stdout)).toMatchObject({ queries: 4 })
    const inspected = await pubmatch('fulltext', 'inspect', '-i', index)
    expect(inspected.stdout).toMatch(/^pubmatch-section-model\/1/)
    expect(inspected.stdout).toMatch(/^ABSTRACT\s+\d+/m)
    const svg = join(dir, 'pav.svg')
    expect((await pubmatch('fulltext', 'plot', '-i', index, '-o', svg)).code).toBe(0)
    expect(await readFile(svg, 'utf8')).toMatch(/^<svg /)
    for (const strategy of ['sum-logodds', 'max-logodds', 'merged', 'abstract']) {
      const found = await pubmatch('search', '-i', index, '--fulltext', strategy, 'cells', '--json', '-n', '3')
      expect([strategy, found.code]).toEqual([strategy, 0])
      const result = JSON.parse(found.stdout) as { strategy: string; total: number; hits: Array<{ rank: number }> }
      expect(result.strategy).toBe(strategy)
      expect(result.hits.map((h) => h.rank)).toEqual(result.hits.map((_, i) => i + 1))
    }
  })
})
