import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Article } from '@pubmatch/core'
import { readJsonlArticles } from '@pubmatch/ingest'
import { afterAll, describe, expect, it } from 'vitest'
import { generateCorpus } from './generate.ts'
import { writeCorpusJsonl } from './jsonl.ts'
import { loadCorpusModel } from './model.ts'

const model = loadCorpusModel()
const dir = mkdtempSync(join(tmpdir(), 'synth-jsonl-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const builtWorker = existsSync(
  fileURLToPath(new URL('../dist/workers/generate.worker.js', import.meta.url)),
)

describe('writeCorpusJsonl', () => {
  it('writes lines that @pubmatch/ingest readJsonlArticles reads back with the same fields', async () => {
    const path = join(dir, 'corpus.jsonl')
    const progress: number[] = []
    const result = await writeCorpusJsonl({
      path,
      size: 2500,
      seed: 5,
      model,
      progressEvery: 1000,
      onProgress: (written) => progress.push(written),
    })
    expect(result.articles).toBe(2500)
    expect(result.bytes).toBe(readFileSync(path).length)
    expect(progress).toEqual([2000, 2500])
    const expected = [...generateCorpus({ size: 2500, seed: 5, model })]
    const read: Article[] = []
    for await (const record of readJsonlArticles(path)) {
      expect(record.kind).toBe('article')
      if (record.kind === 'article') {
        read.push(record.article)
      }
    }
    expect(read.map((a) => a.id)).toEqual(expected.map((a) => a.id))
    expect(read.map((a) => a.title)).toEqual(expected.map((a) => a.title))
    expect(read.map((a) => a.abstract.map((s) => [s.label, s.text]))).toEqual(
      expected.map((a) => a.abstract.map((s) => [s.label, s.text])),
    )
    expect(
      read.map((a) =>
        a.mesh.map((h) => [
          h.descriptorName,
          h.descriptorUi,
          h.majorTopic,
          h.qualifiers.map((q) => q.name),
        ]),
      ),
    ).toEqual(
      expected.map((a) =>
        a.mesh.map((h) => [
          h.descriptorName,
          h.descriptorUi,
          h.majorTopic,
          h.qualifiers.map((q) => q.name),
        ]),
      ),
    )
    expect(read.map((a) => a.keywords.map((k) => k.text))).toEqual(
      expected.map((a) => a.keywords.map((k) => k.text)),
    )
    expect(read.map((a) => a.pubDate?.year)).toEqual(expected.map((a) => a.pubDate?.year))
    expect(read.map((a) => a.journal?.medlineTa)).toEqual(expected.map((a) => a.journal?.medlineTa))
    expect(read.map((a) => a.publicationTypes)).toEqual(expected.map((a) => a.publicationTypes))
  })

  it('writes whole articles with format article', async () => {
    const path = join(dir, 'articles.jsonl')
    await writeCorpusJsonl({ path, size: 50, seed: 6, model, format: 'article', start: 10 })
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    expect(lines).toEqual(
      [...generateCorpus({ size: 50, seed: 6, model, start: 10 })].map((a) => JSON.stringify(a)),
    )
  })

  it.skipIf(!builtWorker)(
    'writes the same bytes with worker threads (needs pnpm build)',
    async () => {
      const one = join(dir, 'one.jsonl')
      const two = join(dir, 'two.jsonl')
      await writeCorpusJsonl({ path: one, size: 4500, seed: 7 })
      await writeCorpusJsonl({ path: two, size: 4500, seed: 7, workers: 2 })
      expect(readFileSync(two).equals(readFileSync(one))).toBe(true)
    },
  )

  it('rejects a bad size and reports an unwritable path', async () => {
    await expect(
      writeCorpusJsonl({ path: join(dir, 'x'), size: -5, seed: 1, model }),
    ).rejects.toThrow(/size ≥ 0/)
    await expect(
      writeCorpusJsonl({ path: join(dir, 'missing', 'x.jsonl'), size: 5, seed: 1, model }),
    ).rejects.toMatchObject({ code: 'IO' })
  })
})
