import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MANIFEST_FILE } from '@pubmatch/ingest'
import type { ForwardIndex } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import { SOLR_SCHEMA_VERSION } from '@pubmatch/solr/internal'
import { ingest, sampleIndex } from '../test/sample.ts'
import { FORWARD_META_FILE, MESH_CACHE_FILE } from './corpus-data.ts'
import { openFeedbackSessions } from './feedback.ts'
import { engineInternals, openSearch, reopenSearch, RESULT_WINDOW, withModel, type SearchEngine } from './search-engine.ts'
import { attachSolrBackend } from './solr-backend.ts'
import { updateIndex } from './update-index.ts'

describe('openSearch over the bundled PubMed sample (692 MEDLINE citations, MeSH)', () => {
  let dir: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-sample-'))
    const { index } = await sampleIndex(dir)
    engine = await openSearch({ index })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('indexes every citation: 604 + 88', () => {
    // medline16n0902's DeleteCitation names a PMID none of the files holds
    expect(engine.docCount).toBe(692)
    expect(engine.settings.fieldSet).toBe('pubmed')
    expect(engine.firstStage).toMatchObject({ ranker: 'bm25f', analyzer: 'biomedical', fieldSet: 'pubmed', match: 'all', syntax: 'pubmed' })
  })

  it('pages through one ranking: page 2 continues page 1', () => {
    const all = engine.search('cell OR patients', { limit: 30 })
    const first = engine.search('cell OR patients', { limit: 10 })
    const second = engine.search('cell OR patients', { offset: 10, limit: 10 })
    expect(all.total).toBeGreaterThan(30)
    expect([...first.hits, ...second.hits].map((h) => h.id)).toEqual(all.hits.slice(0, 20).map((h) => h.id))
    expect(second.hits.map((h) => h.rank)).toEqual(Array.from({ length: 10 }, (_, i) => 11 + i))
    expect(second.reranked).toBe(false)
    // without a model a page is the first stage's order
    expect(all.hits.map((h) => h.id)).toEqual(engine.firstStageSearch('cell OR patients', { limit: 30 }).hits.map((h) => h.id))
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
    // without a model the run's scores keep that order: n − i for the i-th (0-based) of n hits
    const n = long.hits.length
    expect(long.hits.slice(0, 3).map((h) => h.score)).toEqual([n, n - 1, n - 2])
    // pages of a search agree with each other and with the run
    const page1 = engine.search('cell OR patients', { limit: 10, prf })
    const page3 = engine.search('cell OR patients', { offset: 20, limit: 10, prf })
    expect(page1.hits.map((h) => h.id)).toEqual(long.hits.slice(0, 10).map((h) => h.id))
    expect(page3.hits.map((h) => h.id)).toEqual(long.hits.slice(20, 30).map((h) => h.id))
    expect(page1.prf?.terms.length).toBeGreaterThan(0)
  })

  it('sorts by publication date, newest first', () => {
    const { reader } = engineInternals(engine)
    const result = engine.search('cell OR patients', { sort: 'date', limit: 50 })
    const dates = result.hits.map((hit) => reader.numericValue('pubdate', hit.docNumber) ?? -Infinity)
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    expect(result.hits).toHaveLength(Math.min(50, result.total))
    expect(new Set(dates).size).toBeGreaterThan(5)
  })

  it('filters by year, publication type, language and id', () => {
    const all = engine.search('cell OR patients OR protein', { limit: 1000 })
    const years = engine.search('cell OR patients OR protein', { limit: 1000, filters: { years: [2000, 2006] } })
    expect(years.total).toBeGreaterThan(0)
    expect(years.total).toBeLessThan(all.total)
    expect(years.hits.every((hit) => hit.document.year !== undefined && hit.document.year >= 2000 && hit.document.year <= 2006)).toBe(true)
    const reviews = engine.search('cell OR patients OR protein', { limit: 1000, filters: { publicationTypes: ['Review'] } })
    expect(reviews.total).toBeGreaterThan(0)
    expect(reviews.hits.every((hit) => hit.document.pubTypes.some((type) => type.toLowerCase() === 'review'))).toBe(true)
    const notEnglish = engine.search('cell OR patients OR protein', { limit: 1000, filters: { languages: ['ger', 'fre', 'rus', 'jpn', 'spa', 'ita', 'pol'] } })
    expect(notEnglish.hits.every((hit) => !hit.document.languages.includes('eng'))).toBe(true)
    const two = all.hits.slice(3, 5).map((hit) => hit.id)
    expect(engine.search('cell OR patients OR protein', { filters: { ids: two } }).hits.map((hit) => hit.id)).toEqual(two)
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
    expect(engine.document(hit.id)).toEqual(hit.document)
    expect(engine.document('1')).toBeUndefined()
    const marked = engine.highlights(hit.document, 'cell')
    expect(marked.snippet.matches.length).toBeGreaterThan(0)
    for (const [a, b] of marked.snippet.matches) {
      expect(marked.snippet.text.slice(a, b).toLowerCase()).toMatch(/^cell/)
    }
  })

  it('keeps the records of the hits it shows, parsed, up to its record cache’s size, and shares them with a new model', async () => {
    const small = await openSearch({ index: engine.indexDir, recordCache: 5 })
    const { reader, records } = engineInternals(small)
    const page = small.search('cell OR patients', { limit: 20 })
    expect(page.hits).toHaveLength(20)
    for (const hit of page.hits) {
      expect(hit.document).toEqual(reader.stored(hit.docNumber))
    }
    expect(records.stats).toEqual({ hits: 0, misses: 20 })
    expect(records.size).toBe(5)
    // the last five are kept: shown again, they are the same objects, not read again
    const again = small.search('cell OR patients', { offset: 15, limit: 5 })
    expect(again.hits.map((hit) => hit.document)).toEqual(page.hits.slice(15).map((hit) => hit.document))
    again.hits.forEach((hit, i) => expect(hit.document).toBe(page.hits[15 + i]!.document))
    expect(records.stats).toEqual({ hits: 5, misses: 20 })
    // another model (here none) over the same generation keeps the cache
    expect(engineInternals(await withModel(small, {})).records).toBe(records)
    const none = await openSearch({ index: engine.indexDir, recordCache: 0 })
    none.search('cell OR patients', { limit: 20 })
    expect(engineInternals(none).records.size).toBe(0)
    await expect(openSearch({ index: engine.indexDir, recordCache: -1 })).rejects.toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })

  it('refuses a page beyond the result window', () => {
    expect(() => engine.search('cell', { offset: RESULT_WINDOW, limit: 10 })).toThrowError(/beyond the result window of 10000/)
  })

  it('keeps its parts to itself: the package reaches them, and only for engines openSearch opened', () => {
    expect(Object.keys(engine)).not.toEqual(expect.arrayContaining(['reader']))
    for (const name of ['reader', 'searcher', 'forwardStore', 'highlighter']) {
      expect(name in engine, name).toBe(false)
    }
    expect(engineInternals(engine).reader.docCount).toBe(engine.docCount)
    const copy = { ...engine }
    expect(() => engineInternals(copy)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })

  it('starts a feedback session over the first stage’s candidates and shows their records', async () => {
    const sessions = openFeedbackSessions({ dir: join(dir, 'sessions'), engine: () => engine })
    try {
      const started = await sessions.startLocal('cell OR protein', { candidates: 40 })
      const candidates = engine.firstStageSearch('cell OR protein', { limit: 40 })
      expect(started.total).toBe(candidates.total)
      const session = await sessions.manager.get(started.id)
      expect(session.candidates.ids).toEqual(candidates.hits.map((hit) => hit.id))
      const shown = session.next()[0]!
      expect(candidates.hits.some((hit) => hit.id === shown.id)).toBe(true)
      expect(sessions.document(started.id, shown.id)).toEqual(engine.document(shown.id))
    } finally {
      await sessions.close()
    }
  })
})

describe('what an engine derives from the corpus, kept beside the index (bundled sample)', () => {
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
  const forwardOf = (engine: SearchEngine): Promise<ForwardIndex> => engineInternals(engine).forwardStore()

  it('keeps the MeSH descriptors and the forward store up to date through an index update, and reopens without reading the corpus', async () => {
    const corpus = join(dir, 'corpus')
    const index = join(dir, 'index')
    await ingest(corpus, [samplePath('pubmed', 'medsamp2006.xml'), samplePath('mesh', 'desc-samples.xml')])
    await updateIndex({ corpus, index })
    const first = await openSearch({ index })
    expect(existsSync(join(index, FORWARD_META_FILE))).toBe(false)
    await first.prepareFeatures()
    expect(existsSync(join(index, FORWARD_META_FILE))).toBe(true)
    const cache = JSON.parse(await readFile(join(index, MESH_CACHE_FILE), 'utf8')) as { corpusSegments: string; descriptors: unknown[] }
    expect(cache.corpusSegments).toBe(await segmentsKey(corpus))
    expect(cache.descriptors).toHaveLength(43) // the sample's DescriptorRecords
    const exploded = first.search('neoplasms[mh]', { limit: 100 })
    expect(exploded.total).toBeGreaterThan(0)

    // a new generation: the update refreshes both, so opening it needs no corpus replay
    await ingest(corpus, [samplePath('pubmed', 'pmid_9500320.xml')])
    await updateIndex({ corpus, index })
    const refreshed = JSON.parse(await readFile(join(index, MESH_CACHE_FILE), 'utf8')) as { corpusSegments: string }
    expect(refreshed.corpusSegments).toBe(await segmentsKey(corpus))
    const forwardMeta = JSON.parse(await readFile(join(index, FORWARD_META_FILE), 'utf8')) as { generation: number; docCount: number }
    const reopened = await openSearch({ index })
    expect(reopened.generation).toBeGreaterThan(first.generation)
    // a swap to the new generation starts another record cache (document numbers are the new
    // generation's), holding its records only
    const swapped = await reopenSearch(first, {})
    expect(swapped.generation).toBe(reopened.generation)
    expect(engineInternals(swapped).records).not.toBe(engineInternals(first).records)
    expect(first.document('9500320')).toBeUndefined()
    expect(swapped.document('9500320')?.id).toBe('9500320')
    for (const hit of swapped.search('neoplasms[mh] OR cell', { limit: 100 }).hits) {
      expect(hit.document).toEqual(engineInternals(swapped).reader.stored(hit.docNumber))
    }
    const corpusSegments = (JSON.parse(await readFile(join(corpus, MANIFEST_FILE), 'utf8')) as { segments: Array<{ file: string }> }).segments
    expect(forwardMeta).toMatchObject({ generation: reopened.generation, docCount: 89, corpusSegment: corpusSegments.at(-1)!.file })
    // the update extended the store (one article analysed); it equals one built from the whole corpus
    const rebuiltDir = join(dir, 'rebuilt')
    await cp(index, rebuiltDir, { recursive: true })
    await rm(join(rebuiltDir, FORWARD_META_FILE))
    const extended = await forwardOf(reopened)
    const rebuilt = await forwardOf(await openSearch({ index: rebuiltDir }))
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
    expect((await forwardOf(blind)).id(0)).toBe((await forwardOf(reopened)).id(0))
    const again = blind.search('neoplasms[mh]', { limit: 100 })
    expect(again.hits.map((h) => h.id)).toEqual(reopened.search('neoplasms[mh]', { limit: 100 }).hits.map((h) => h.id))
    expect(again.warnings).toEqual(exploded.warnings)
  })

  it('updates an index only from the corpus it follows; another corpus needs a rebuild', async () => {
    const corpus = join(dir, 'follow-corpus')
    const other = join(dir, 'other-corpus')
    const index = join(dir, 'follow-index')
    await ingest(corpus, [samplePath('pubmed', 'pmid_151222.xml')])
    await ingest(other, [samplePath('pubmed', 'pmid_30078747.xml')])
    await updateIndex({ corpus, index })
    const refused = await updateIndex({ corpus: other, index }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT' })
    expect((refused as Error).message).toContain(`follows the corpus ${corpus}, not ${other}`)
    expect((await openSearch({ index })).document('151222')).toBeDefined()
    await updateIndex({ corpus: other, index, rebuild: true })
    const rebuilt = await openSearch({ index })
    expect([rebuilt.document('151222'), rebuilt.document('30078747')?.id]).toEqual([undefined, '30078747'])
  })
})

/** A stand-in for a SolrCloud collection on a loopback port. */
interface FakeSolr {
  readonly server: Server
  port: number
  /** What every search answers. */
  answer: { numFound: number; docs: Array<{ id: string; score: number }> }
}

/**
 * A stand-in for a SolrCloud collection: it answers the collection-state request with `state` and
 * every search with `answer` (which the test sets), as Solr's JSON does.
 */
async function fakeSolr(state: Record<string, unknown>): Promise<FakeSolr> {
  const fake: FakeSolr = {
    server: createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://localhost')
        const params = new URLSearchParams(chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : url.search)
        const body =
          params.get('id') === '_pubmatch_state'
            ? { responseHeader: { QTime: 0 }, response: { numFound: 1, docs: [{ pubmatch_state: JSON.stringify({ schemaVersion: SOLR_SCHEMA_VERSION, ...state }) }] } }
            : { responseHeader: { QTime: 3 }, response: fake.answer }
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(body))
      })
    }),
    port: 0,
    answer: { numFound: 0, docs: [] },
  }
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve))
  fake.port = (fake.server.address() as AddressInfo).port
  return fake
}

/** Stops a stand-in once its connections are done. */
function stop(fake: FakeSolr): Promise<void> {
  return new Promise((resolve, reject) => fake.server.close((error) => (error === undefined ? resolve() : reject(error))))
}

describe('a Solr backend in front of an engine, without Solr (bundled sample, a loopback stand-in)', () => {
  let dir: string
  let engine: SearchEngine
  let solr: FakeSolr
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-solr-'))
    const { corpus, index } = await sampleIndex(dir)
    engine = await openSearch({ index })
    solr = await fakeSolr({ fieldSet: 'pubmed', analyzer: 'biomedical', k1: 1.2, b: 0.75, corpus, updatedAt: '2026-01-01T00:00:00.000Z' })
  })
  afterAll(async () => {
    await stop(solr)
    await rm(dir, { recursive: true, force: true })
  })

  it("pages Solr's candidates as the engine pages its own, and leaves out documents the local index lacks", async () => {
    const backend = await attachSolrBackend(engine, { backend: `solr://127.0.0.1:${solr.port}/solr/pubmed`, retries: 1 })
    const query = 'cell OR protein'
    const local = engine.firstStageSearch(query, { limit: engine.firstStageRequest({ limit: 10 }).limit })
    solr.answer = { numFound: local.total, docs: [...local.hits.map((hit) => ({ id: hit.id, score: hit.score })), { id: '99999999', score: 0.5 }] }
    const page = await backend.search(query, { limit: 10 })
    expect(page.solrQtimeMs).toBe(3)
    expect(page.hits.map((hit) => hit.id)).toEqual(engine.search(query, { limit: 10 }).hits.map((hit) => hit.id))
    expect(page.warnings.map((warning) => warning.code)).toEqual(['BACKEND_MISMATCH'])
    const ran = await backend.run(query, 1000)
    expect(ran.hits.map((hit) => hit.id)).toEqual(local.hits.map((hit) => hit.id))
  })

  it('refuses a collection of another analyzer or BM25 parameters, and a malformed address', async () => {
    const other = await fakeSolr({ fieldSet: 'pubmed', analyzer: 'biomedical', k1: 0.9, b: 0.75, corpus: dir, updatedAt: '2026-01-01T00:00:00.000Z' })
    try {
      const opening = attachSolrBackend(engine, { backend: `solr://127.0.0.1:${other.port}/solr/pubmed`, retries: 1 })
      await expect(opening).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
      await expect(opening).rejects.toThrowError(/scores with k1 0\.9, b 0\.75; the first stage asks for k1 1\.2, b 0\.75/)
    } finally {
      await stop(other)
    }
    await expect(attachSolrBackend(engine, { backend: 'http://localhost:8983/solr/pubmed' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
