import { existsSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { defaultReaders, ingestFiles, MANIFEST_FILE, openCorpus } from '@pubmatch/ingest'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel, trainBestMatch, type ForwardIndex } from '@pubmatch/ltr'
import { FORWARD_META_FILE, MESH_CACHE_FILE } from './corpus-data.ts'
import { readLabelledQueries } from './labelled-queries.ts'
import { openSearch, RESULT_WINDOW, type SearchEngine } from './search-engine.ts'
import { openSearchPool } from './search-pool.ts'
import { updateIndex } from './update-index.ts'

const shared = fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

async function ingest(corpus: string, paths: string[]): Promise<void> {
  const store = await openCorpus(corpus, { create: true })
  try {
    await ingestFiles(store, paths, { readers: defaultReaders() })
  } finally {
    await store.close()
  }
}

describe.runIf(existsSync(shared))('openSearch over PubMed XML (NLM MEDLINE sample, MeSH)', () => {
  let dir: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-pubmed-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'pubmed-xml/medsamp2006.xml'), join(shared, 'mesh/desc-samples.xml')])
    const built = await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    expect(built).toMatchObject({ docCount: 88, added: 88, errors: 0, built: true })
    engine = await openSearch({ index: join(dir, 'index') })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('pages through one ranking: page 2 continues page 1', () => {
    const all = engine.search('cell OR patients', { limit: 30 })
    const first = engine.search('cell OR patients', { limit: 10 })
    const second = engine.search('cell OR patients', { offset: 10, limit: 10 })
    expect(all.total).toBeGreaterThan(20)
    expect([...first.hits, ...second.hits].map((h) => h.id)).toEqual(all.hits.slice(0, 20).map((h) => h.id))
    expect(second.hits.map((h) => h.rank)).toEqual(Array.from({ length: 10 }, (_, i) => 11 + i))
    expect(second.reranked).toBe(false)
  })

  it('re-ranks exactly the first `candidates` hits with PRF, whatever the page or run length', () => {
    const prf = { candidates: 10 }
    const first = engine.run('cell OR patients', 1000)
    const short = engine.run('cell OR patients', 10, { prf })
    const long = engine.run('cell OR patients', 1000, { prf })
    expect(first.hits.length).toBeGreaterThan(20)
    expect(long.hits.slice(0, 10).map((h) => h.id)).toEqual(short.hits.map((h) => h.id))
    // the same ten documents, re-ordered; the rest in first-stage order
    expect(new Set(long.hits.slice(0, 10).map((h) => h.id))).toEqual(new Set(first.hits.slice(0, 10).map((h) => h.id)))
    expect(long.hits.slice(10).map((h) => h.id)).toEqual(first.hits.slice(10).map((h) => h.id))
    // pages of a search agree with each other and with the run
    const page1 = engine.search('cell OR patients', { limit: 10, prf })
    const page3 = engine.search('cell OR patients', { offset: 20, limit: 10, prf })
    expect(page1.hits.map((h) => h.id)).toEqual(long.hits.slice(0, 10).map((h) => h.id))
    expect(page3.hits.map((h) => h.id)).toEqual(long.hits.slice(20, 30).map((h) => h.id))
  })

  it('sorts by publication date, newest first', () => {
    const result = engine.search('cell OR patients', { sort: 'date', limit: 50 })
    const dates = result.hits.map((hit) => engine.reader.numericValue('pubdate', hit.docNumber) ?? -Infinity)
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    expect(result.hits).toHaveLength(Math.min(50, result.total))
  })

  it('explains a document: its first-stage tree adds up to its score', () => {
    const top = engine.search('cell', { limit: 1, explain: true }).hits[0]!
    const explained = engine.explain(top.id, 'cell')
    expect(explained.matches).toBe(true)
    expect(explained.firstStage?.rank).toBe(1)
    expect(explained.firstStage?.explain?.value).toBeCloseTo(top.score, 12)
    expect(explained.secondStage).toBeUndefined()
    const none = engine.explain(top.id, 'zzzyzzy')
    expect(none.matches).toBe(false)
    expect(() => engine.explain('1', 'cell')).toThrowError(expect.objectContaining({ code: 'NOT_FOUND' }))
  })

  it('stores abstracts and ids for result lists, and highlights the query in them', () => {
    const hit = engine.search('cell', { limit: 1 }).hits[0]!
    expect(hit.document.abstract?.length).toBeGreaterThan(100)
    const marked = engine.highlights(hit.document, 'cell')
    expect(marked.snippet.matches.length).toBeGreaterThan(0)
    for (const [a, b] of marked.snippet.matches) {
      expect(marked.snippet.text.slice(a, b).toLowerCase()).toMatch(/^cell/)
    }
  })

  it('refuses a page beyond the result window', () => {
    expect(() => engine.search('cell', { offset: RESULT_WINDOW, limit: 10 })).toThrowError(/beyond the result window of 10000/)
  })
})

describe.runIf(existsSync(shared))('what an engine derives from the corpus, kept beside the index', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-derived-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const segmentsKey = async (corpus: string): Promise<string> => {
    const manifest = JSON.parse(await readFile(join(corpus, MANIFEST_FILE), 'utf8')) as { segments: unknown }
    return createHash('sha256').update(JSON.stringify(manifest.segments)).digest('hex')
  }

  it('keeps the MeSH descriptors and the forward store up to date through an index update, and reopens without reading the corpus', async () => {
    const corpus = join(dir, 'corpus')
    const index = join(dir, 'index')
    await ingest(corpus, [join(shared, 'pubmed-xml/medsamp2006.xml'), join(shared, 'mesh/desc-samples.xml')])
    await updateIndex({ corpus, index })
    const first = await openSearch({ index })
    await first.forwardStore()
    const cache = JSON.parse(await readFile(join(index, MESH_CACHE_FILE), 'utf8')) as { corpusSegments: string; descriptors: unknown[] }
    expect(cache.corpusSegments).toBe(await segmentsKey(corpus))
    expect(cache.descriptors).toHaveLength(43) // the sample's DescriptorRecords
    const exploded = first.search('neoplasms[mh]', { limit: 100 })
    expect(exploded.total).toBeGreaterThan(0)

    // a new generation: the update refreshes both, so opening it needs no corpus replay
    await ingest(corpus, [join(shared, 'pubmed-xml/pmid_9500320.xml')])
    await updateIndex({ corpus, index })
    const refreshed = JSON.parse(await readFile(join(index, MESH_CACHE_FILE), 'utf8')) as { corpusSegments: string }
    expect(refreshed.corpusSegments).toBe(await segmentsKey(corpus))
    const forwardMeta = JSON.parse(await readFile(join(index, FORWARD_META_FILE), 'utf8')) as { generation: number; docCount: number }
    const reopened = await openSearch({ index })
    expect(reopened.generation).toBeGreaterThan(first.generation)
    const corpusSegments = (JSON.parse(await readFile(join(corpus, MANIFEST_FILE), 'utf8')) as { segments: Array<{ file: string }> }).segments
    expect(forwardMeta).toMatchObject({ generation: reopened.generation, docCount: 89, corpusSegment: corpusSegments.at(-1)!.file })
    // the update extended the store (one article analysed); it equals one built from the whole corpus
    const rebuiltDir = join(dir, 'rebuilt')
    await cp(index, rebuiltDir, { recursive: true })
    await rm(join(rebuiltDir, FORWARD_META_FILE))
    const extended = await reopened.forwardStore()
    const rebuilt = await (await openSearch({ index: rebuiltDir })).forwardStore()
    expect(extended.docCount).toBe(rebuilt.docCount)
    const streams = (store: ForwardIndex, id: string): string[][] =>
      (['title', 'abstract', 'mesh'] as const).map((name) => {
        const { offsets, terms, flags } = store.field(name)
        const d = store.docIndex(id)
        return [...terms.subarray(offsets[d], offsets[d + 1])].map((t, k) => `${t < 0 ? '_' : store.term(t)}/${flags[offsets[d]! + k]!}`)
      })
    for (let d = 0; d < rebuilt.docCount; d++) {
      expect(streams(extended, rebuilt.id(d))).toEqual(streams(rebuilt, rebuilt.id(d)))
    }

    // proof that opening reads neither: with every corpus segment damaged it still opens and maps [mh] alike
    const segments = join(corpus, 'segments')
    for (const file of await readdir(segments)) {
      await writeFile(join(segments, file), 'not a segment')
    }
    const blind = await openSearch({ index })
    expect((await blind.forwardStore()).id(0)).toBe((await reopened.forwardStore()).id(0))
    const again = blind.search('neoplasms[mh]', { limit: 100 })
    expect(again.hits.map((h) => h.id)).toEqual(reopened.search('neoplasms[mh]', { limit: 100 }).hits.map((h) => h.id))
    expect(again.warnings).toEqual(exploded.warnings)
  })
})

describe.runIf(existsSync(shared))('openSearch with a Best Match model (NFCorpus)', () => {
  let dir: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-nf-'))
    await ingest(join(dir, 'corpus'), [join(shared, 'nfcorpus/corpus.docs')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    const base = await openSearch({ index: join(dir, 'index') })
    const queries = (await readLabelledQueries(join(shared, 'nfcorpus/train/q-titles.queries'), join(shared, 'nfcorpus/train/s-3.qrel'))).slice(0, 150)
    const lightgbm = await loadLightGbm()
    const trained = trainBestMatch({
      lightgbm,
      reader: base.reader,
      forward: await base.forwardStore(),
      syntax: base.firstStage.syntax,
      searcher: base.searcher,
      firstStage: base.firstStage,
      queries,
      depth: 30,
      trees: 15,
      earlyStopping: 10,
    })
    await lightgbm.terminate()
    await saveBestMatchModel(join(dir, 'model'), trained)
    engine = await openSearch({ index: join(dir, 'index'), model: join(dir, 'model') })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reranks the top candidates and continues in first-stage order past them', () => {
    expect(engine.model?.depth).toBe(30)
    const query = 'vitamin d and breast cancer'
    const page = engine.search(query, { offset: 25, limit: 10 })
    expect(page.reranked).toBe(true)
    expect(page.hits.map((h) => h.rank)).toEqual([26, 27, 28, 29, 30, 31, 32, 33, 34, 35])
    // ranks 26–30 are reranked candidates (model scores); 31– are the first stage's 31st onwards
    expect(page.hits.slice(0, 5).every((h) => h.secondStage !== undefined)).toBe(true)
    expect(page.hits.slice(5).map((h) => h.firstStage.rank)).toEqual([31, 32, 33, 34, 35])
    const head = engine.search(query, { limit: 30 })
    expect(new Set(head.hits.map((h) => h.firstStage.rank))).toEqual(new Set(Array.from({ length: 30 }, (_, i) => i + 1)))
    // a TREC run orders the same way
    const run = engine.run(query, 40)
    expect(run.hits.slice(0, 30).map((h) => h.id)).toEqual(head.hits.map((h) => h.id))
  })

  it('answers the same pages from a pool of worker threads, with highlights, errors as PubmatchError and a time budget', async () => {
    const pool = await openSearchPool(engine, { workers: 2 })
    try {
      expect(pool).toMatchObject({ workers: 2, generation: engine.generation, model: engine.model!.id })
      const queries = ['vitamin d and breast cancer', 'statins', 'fish oil omega-3 heart', 'zzzyzzy']
      const pages = await Promise.all(queries.map((q) => pool.search(q, { limit: 10, explain: true })))
      pages.forEach((page, i) => {
        const direct = engine.search(queries[i]!, { limit: 10, explain: true })
        const { tookMs: _a, hits, ...rest } = page
        const { tookMs: _b, hits: directHits, ...directRest } = direct
        expect(rest).toEqual(directRest)
        expect(hits.map(({ highlights: _h, ...hit }) => hit)).toEqual(directHits)
        expect(hits.map((hit) => hit.highlights)).toEqual(directHits.map((hit) => engine.highlights(hit.document, queries[i]!)))
      })
      expect(pages[0]!.reranked).toBe(true)
      // a page beyond the result window: the worker's error comes back as the same PubmatchError
      const bad = await pool.search('statins', { offset: RESULT_WINDOW, limit: 10 }).catch((error: unknown) => error)
      expect(isPubmatchError(bad, 'INVALID_ARGUMENT')).toBe(true)
      expect(() => engine.search('statins', { offset: RESULT_WINDOW, limit: 10 })).toThrow((bad as Error).message)
      const late = await pool.search('vitamin d and breast cancer', { limit: 10, deadlineAt: Date.now() - 1 }).catch((error: unknown) => error)
      expect(isPubmatchError(late, 'TIMEOUT')).toBe(true)
    } finally {
      await pool.close()
    }
    await expect(openSearchPool(engine, { workers: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })

  it('pages and reranks a first-stage result computed elsewhere exactly as its own (the Solr backend path)', () => {
    for (const query of ['vitamin d and breast cancer', 'statins']) {
      for (const options of [{ limit: 10 }, { offset: 25, limit: 10 }, { limit: 5, sort: 'date' as const }, { limit: 10, rerank: false }]) {
        const request = engine.firstStageRequest(options)
        const page = (options.offset ?? 0) + options.limit
        expect(request.limit).toBe(options.sort === 'date' ? RESULT_WINDOW : options.rerank === false ? page : Math.max(30, page))
        const result = engine.searcher.search(query, { limit: request.limit, ...(request.exactTotal ? { exactTotal: true } : {}) })
        const { tookMs: _a, ...fromElsewhere } = engine.pageFrom(query, result, options)
        const { tookMs: _b, ...direct } = engine.search(query, options)
        expect(fromElsewhere).toEqual(direct)
      }
      const result = engine.searcher.search(query, { limit: 1000, tieBreak: 'idDescending', exactTotal: true })
      expect(engine.runFrom(query, result, 1000)).toEqual(engine.run(query, 1000))
    }
  })

  it("explains the model's score as its bias plus each feature's contribution", () => {
    const hit = engine.search('vitamin d and breast cancer', { limit: 1, explain: true }).hits[0]!
    const explained = engine.explain(hit.id, 'vitamin d and breast cancer')
    const second = explained.secondStage!
    expect(second.rank).toBe(1)
    const sum = second.bias + second.contributions.reduce((total, c) => total + c.contribution, 0)
    expect(sum).toBeCloseTo(second.score, 9)
    expect(second.score).toBeCloseTo(hit.score, 12)
    expect(hit.secondStage?.explain?.bias).toBeCloseTo(second.bias, 12)
  })

  it('refuses a model trained on another first stage', async () => {
    const opening = openSearch({ index: join(dir, 'index'), model: join(dir, 'model'), ranking: { params: { k1: 0.9 } } })
    await expect(opening).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
    await expect(opening).rejects.toThrowError(/trained on a first stage with params \{\}, but this index searches with params \{"k1":0\.9\}/)
  })
})
