import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { article, tempDir, testConfig } from '../../test/helpers.ts'
import { nfArticle, readSampleDocs } from '../../test/nfcorpus.ts'
import { openIndex } from '../index-reader.ts'
import type { IndexProgress } from '../index-writer.ts'
import { NO_MERGES } from '../merge/merge-policy.ts'
import { testCollectionFields } from '../schema/pubmed-fields.ts'
import { buildIndex, defaultWorkerFilename } from './build-index.ts'

async function filesByExtension(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const file of (await readdir(dir)).sort()) {
    if (/^_[0-9a-z]+\.(tdx|pst|pos|nrm|dv|sto|ids)$/.test(file)) {
      out.set(file, (await readFile(join(dir, file))).toString('base64'))
    }
  }
  return out
}

const workerBuilt = existsSync(defaultWorkerFilename())
if (!workerBuilt) {
  console.warn(
    `skipping worker tests: ${defaultWorkerFilename()} is missing (run \`pnpm build\`; turbo's test task builds first)`,
  )
}

describe('buildIndex', () => {
  it('reports progress and applies updates and deletions from the stream', async () => {
    const dir = await tempDir()
    const progress: IndexProgress[] = []
    const result = await buildIndex(
      [
        article({ id: '1', title: 'a b', abstract: '', keywords: [] }),
        article({ id: '2', title: 'b c', abstract: '', keywords: [] }),
        article({ id: '1', title: 'a2', abstract: '', keywords: [] }),
        { deleted: [{ id: '2' }, { id: '404' }] },
        article({ id: '3', title: 'd', abstract: '', keywords: [] }),
      ],
      dir,
      testConfig(),
      { maxBufferedDocs: 2, onProgress: (p) => progress.push(p) },
    )
    expect(result).toMatchObject({ docsAdded: 4, docsDeleted: 1, docCount: 2, errors: [] })
    expect(progress.filter((p) => p.phase === 'flushing').map((p) => p.docsFlushed)).toEqual([2, 4])
    expect(progress.at(-1)).toMatchObject({ docsAdded: 4, docsFlushed: 4, docsDeleted: 1, segmentsFlushed: 2 })
    const reader = await openIndex(dir)
    expect(reader.stored(reader.docNumber('1')!).title).toBe('a2')
    expect(reader.docNumber('2')).toBeUndefined()
  })

  it('reports articles it cannot index and indexes the others', async () => {
    const dir = await tempDir()
    const bad = { ...article({ id: '9', title: 'x', abstract: '', keywords: [] }), version: 1.5 }
    const result = await buildIndex(
      [article({ id: '1', title: 'ok', abstract: '', keywords: [] }), bad, article({ id: '', title: 'no id', abstract: '', keywords: [] })],
      dir,
      testConfig(),
    )
    expect(result.docCount).toBe(1)
    expect(result.errors.map((e) => [e.id, e.error.code, e.error.message])).toEqual([
      ['9', 'INVALID_ARGUMENT', 'document 9: numeric doc value "version" must be a 32-bit integer, got 1.5'],
      ['', 'INVALID_ARGUMENT', 'an article without an id cannot be indexed'],
    ])
  })

  it('rejects a negative worker count and custom analyzers on workers', async () => {
    const dir = await tempDir()
    await expect(buildIndex([], dir, testConfig(), { workers: -1 })).rejects.toThrow(/workers must be a non-negative integer/)
    const { createAnalyzerRegistry } = await import('@pubmatch/analysis')
    const error = await buildIndex([], dir, testConfig({ analyzers: createAnalyzerRegistry() }), { workers: 1 }).catch((e: unknown) => e)
    expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
  })

  it.skipIf(!workerBuilt)('writes the same segments with 2 worker threads as in this thread', async () => {
    const docs = (await readSampleDocs()).map(nfArticle)
    const config = { fields: testCollectionFields({ analyzer: 'whitespace' }), mergePolicy: NO_MERGES }
    const inThread = await tempDir()
    const pooled = await tempDir()
    const a = await buildIndex(docs, inThread, config, { maxBufferedDocs: 160 })
    const b = await buildIndex(docs, pooled, config, { maxBufferedDocs: 160, workers: 2 })
    expect(b).toEqual(a)
    expect(a.segments).toBe(4)
    expect(await filesByExtension(pooled)).toEqual(await filesByExtension(inThread))
  })
})

describe('worker builds', () => {
  it('lets a worker that cannot start fail the build instead of hanging it', async () => {
    const dir = await tempDir()
    const broken = join(dir, 'broken.worker.mjs')
    await writeFile(broken, "throw new Error('cannot start')\n")
    const docs = [article({ id: '1', title: 'a', abstract: '', keywords: [] })]
    await expect(buildIndex(docs, join(dir, 'index'), testConfig(), { workers: 1, workerFilename: broken })).rejects.toThrow(
      /cannot start/,
    )
  })
})

describe('buildIndex with analyzers without a term stream', () => {
  it('writes the same postings from an analyzer without a term stream, giving tokens out of position order, as from one with a term stream', async () => {
    const { createAnalyzer, createAnalyzerRegistry, lowercaseFilter, whitespaceTokenize } = await import('@pubmatch/analysis')
    // `lower` has a term stream (its one filter has a term step); `reversed` has none (a filter
    // without a term step) and gives the tokens last position first.
    const reversedTokenizer = (text: string): ReturnType<typeof whitespaceTokenize> => whitespaceTokenize(text).reverse()
    const lowerNoStep = (token: { term: string; position: number; original?: string }): typeof token => ({ ...token, term: token.term.toLowerCase() })
    const analyzers = createAnalyzerRegistry({
      lower: () => createAnalyzer('lower', whitespaceTokenize, [lowercaseFilter]),
      reversed: () => createAnalyzer('reversed', reversedTokenizer, [lowerNoStep]),
    })
    expect(analyzers.get('lower').termStream).toBeDefined()
    expect(analyzers.get('reversed').termStream).toBeUndefined()
    const docs = (await readSampleDocs()).map(nfArticle)
    const withStream = await tempDir()
    const without = await tempDir()
    await buildIndex(docs, withStream, { fields: testCollectionFields({ analyzer: 'lower' }), analyzers, mergePolicy: NO_MERGES })
    await buildIndex(docs, without, { fields: testCollectionFields({ analyzer: 'reversed' }), analyzers, mergePolicy: NO_MERGES })
    expect(await filesByExtension(without)).toEqual(await filesByExtension(withStream))
    // Positions as the white-space tokens number them: "b a B" gives b at 0 and 2, a at 1.
    const small = await tempDir()
    await buildIndex([article({ id: '1', title: 'b a B', abstract: '', keywords: [] })], small, {
      fields: testCollectionFields({ analyzer: 'reversed' }),
      analyzers,
    })
    const reader = await openIndex(small, { analyzers })
    const cursor = reader.postings('title', 'b')!
    expect(cursor.nextDoc()).toBe(0)
    expect(cursor.freq()).toBe(2)
    expect([...cursor.positions()]).toEqual([0, 2])
  })
})
