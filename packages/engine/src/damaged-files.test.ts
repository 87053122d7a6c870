import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { FORWARD_META_FILE, MESH_CACHE_FILE } from './corpus-data.ts'
import { openSearch } from './search-engine.ts'
import { readIndexSettings, SETTINGS_FILE } from './settings.ts'
import { updateIndex } from './update-index.ts'

/** The error a promise rejects with, its directory replaced by `<dir>` in the message. */
async function failure(promise: Promise<unknown>, dir: string): Promise<{ code: string; message: string; file: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(isPubmatchError(error)).toBe(true)
  const { code, message, details } = error as PubmatchError
  return { code, message: message.replaceAll(dir, '<dir>'), file: typeof details.file === 'string' ? details.file.replaceAll(dir, '<dir>') : details.file }
}

describe('the files an engine keeps beside its index, damaged (sample corpus: medsamp2006 + MeSH samples)', () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-damaged-'))
    const corpus = join(dir, 'corpus')
    index = join(dir, 'index')
    const store = await openCorpus(corpus, { create: true })
    try {
      await ingestFiles(store, [samplePath('pubmed', 'medsamp2006.xml'), samplePath('mesh', 'desc-samples.xml')], { readers: defaultReaders() })
    } finally {
      await store.close()
    }
    await updateIndex({ corpus, index })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('refuses settings (pubmatch.json) that are not JSON or not of their shape, naming the file', async () => {
    const file = join(index, SETTINGS_FILE)
    const good = await readFile(file, 'utf8')
    try {
      await writeFile(file, good.replace(/"fieldSet": "pubmed"/, '"fieldSet": "medline"'))
      expect(await failure(readIndexSettings(index), dir)).toMatchInlineSnapshot(`
        {
          "code": "INDEX_CORRUPTED",
          "file": "<dir>/index/pubmatch.json",
          "message": "<dir>/index/pubmatch.json: fieldSet is "medline", expected "pubmed" or "test-collection"",
        }
      `)
      await writeFile(file, good.slice(0, 40))
      expect((await failure(openSearch({ index }), dir)).message).toMatch(/^<dir>\/index\/pubmatch.json is not valid JSON/)
    } finally {
      await writeFile(file, good)
    }
  })

  it('refuses a forward store whose forward.json is not of its shape, naming the file', async () => {
    await (await openSearch({ index })).prepareFeatures()
    const file = join(index, FORWARD_META_FILE)
    const good = await readFile(file, 'utf8')
    try {
      await writeFile(file, good.replace(/"docCount": \d+/, '"docCount": "88"'))
      expect(await failure((await openSearch({ index })).prepareFeatures(), dir)).toMatchInlineSnapshot(`
        {
          "code": "INDEX_CORRUPTED",
          "file": "<dir>/index/forward.json",
          "message": "<dir>/index/forward.json: docCount is "88", expected a non-negative integer",
        }
      `)
    } finally {
      await writeFile(file, good)
    }
  })

  it('rebuilds a MeSH cache (mesh.json) that is not of its shape', async () => {
    const file = join(index, MESH_CACHE_FILE)
    const good = JSON.parse(await readFile(file, 'utf8')) as { corpusSegments: string; descriptors: Array<Record<string, unknown>> }
    expect(good.descriptors).toHaveLength(43)
    await writeFile(file, JSON.stringify({ ...good, descriptors: [{ ...good.descriptors[0], treeNumbers: 'C04' }] }))
    const engine = await openSearch({ index })
    expect(engine.search('neoplasms[mh]', { limit: 1 }).total).toBeGreaterThan(0)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(good)
  })
})
