import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { loadLightGbm, type LightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel, splitQueries, type LabelledQuery, type TrainedBestMatch } from '@pubmatch/ltr'
import { meshQueries, SAMPLE_BIOC, SAMPLE_PUBMED, sampleIndex } from '../test/sample.ts'
import { updateFulltext } from './fulltext.ts'
import { engineInternals, openSearch, reopenSearch, RESULT_WINDOW, withModel, type SearchEngine } from './search-engine.ts'
import { openSearchPool } from './search-pool.ts'
import { SECTION_FEATURES_SUFFIX } from './section-features.ts'
import { featureSet, trainModel } from './training.ts'

const DEPTH = 20

describe('trainModel and featureSet over the bundled sample; an engine with the model', () => {
  let dir: string
  let index: string
  let lightgbm: LightGbm
  let base: SearchEngine
  let engine: SearchEngine
  let queries: LabelledQuery[]
  let trained: TrainedBestMatch
  /** A training query with more than DEPTH + 5 matches (its query-level features are in range by construction). */
  let query: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-models-'))
    const built = await sampleIndex(dir, [...SAMPLE_PUBMED, ...SAMPLE_BIOC])
    index = built.index
    await updateFulltext({ index })
    base = await openSearch({ index })
    // Fixture judgements, not an evaluation: the sample has no relevance judgements, so each query
    // is a MeSH heading two or more articles carry and its relevant documents are those articles.
    queries = await meshQueries(built.corpus)
    lightgbm = await loadLightGbm()
    trained = await trainModel(base, { lightgbm, queries, depth: DEPTH, trees: 10, earlyStopping: 5 })
    await saveBestMatchModel(join(dir, 'model'), trained)
    engine = await openSearch({ index, model: join(dir, 'model') })
    const kept = new Set(trained.train.queryIds)
    const deep = queries.filter((q) => kept.has(q.id)).map((q) => ({ text: q.text, total: base.firstStageSearch(q.text).total }))
    query = deep.sort((a, b) => b.total - a.total)[0]!.text
  })
  afterAll(async () => {
    await lightgbm?.terminate()
    await rm(dir, { recursive: true, force: true })
  })

  it("records the engine's first stage and splits the queries 65/15/20", () => {
    expect(queries.length).toBeGreaterThan(60)
    expect(trained.manifest.firstStage).toEqual({ ...base.firstStage, depth: DEPTH })
    // n queries: train round(0.65 n), valid round(0.8 n) − round(0.65 n), test the rest
    const n = queries.length
    expect(trained.manifest.training.testQueries).toBe(n - Math.round(0.8 * n))
    const split = splitQueries(queries, 1)
    expect(trained.train.queryIds.every((id) => split.train.some((q) => q.id === id))).toBe(true)
    expect(trained.manifest.schema.version).toBe('bestmatch-179/1')
  })

  it('logs exactly the rows training learned from (featureSet is the same recipe)', async () => {
    const byId = new Map(queries.map((q) => [q.id, q]))
    const set = await featureSet(base, { queries: trained.train.queryIds.map((id) => byId.get(id)!), depth: DEPTH, minRelevantCandidates: 1 })
    expect(set.queryIds).toEqual(trained.train.queryIds)
    expect(set.docIds).toEqual(trained.train.docIds)
    expect([...set.labels]).toEqual([...trained.train.labels])
    expect(set.features.data).toEqual(trained.train.features.data)
    // logging keeps every query with candidates, judged relevant or not
    const logged = await featureSet(base, { queries: [{ id: 'q', text: 'cell', judgements: new Map() }], depth: 5 })
    expect(logged.stats.queries).toBe(1)
    expect(logged.features.numRows).toBe(5)
    expect(logged.features.numFeatures).toBe(179)
  })

  it('reranks the top candidates and continues in first-stage order past them', () => {
    expect(engine.model?.depth).toBe(DEPTH)
    const page = engine.search(query, { offset: DEPTH - 5, limit: 10 })
    expect(page.reranked).toBe(true)
    expect(page.fallback).toBeUndefined()
    expect(page.hits.map((h) => h.rank)).toEqual(Array.from({ length: 10 }, (_, i) => DEPTH - 4 + i))
    // the last 5 reranked candidates (model scores), then the first stage's DEPTH+1st onwards
    expect(page.hits.slice(0, 5).every((h) => h.secondStage !== undefined)).toBe(true)
    expect(page.hits.slice(5).map((h) => h.firstStage.rank)).toEqual(Array.from({ length: 5 }, (_, i) => DEPTH + 1 + i))
    const head = engine.search(query, { limit: DEPTH })
    expect(new Set(head.hits.map((h) => h.firstStage.rank))).toEqual(new Set(Array.from({ length: DEPTH }, (_, i) => i + 1)))
    // a TREC run orders the same way, and its tail scores below the reranked head
    const run = engine.run(query, DEPTH + 10)
    expect(run.hits.slice(0, DEPTH).map((h) => h.id)).toEqual(head.hits.map((h) => h.id))
    expect(run.hits[DEPTH]!.score).toBeLessThan(Math.min(...run.hits.slice(0, DEPTH).map((h) => h.score)))
    // without the model: the first stage
    expect(engine.search(query, { limit: DEPTH, rerank: false }).hits.map((h) => h.id)).toEqual(
      engine.firstStageSearch(query, { limit: DEPTH }).hits.map((h) => h.id),
    )
  })

  it("shows the model's directory, id, depth and manifest, and keeps its reranker among the engine's parts", () => {
    expect(Object.keys(engine.model!).sort()).toEqual(['depth', 'dir', 'id', 'manifest'])
    expect(engine.model!.manifest).toEqual(trained.manifest)
    expect(engineInternals(base).reranker).toBeUndefined()
    const { reranker } = engineInternals(engine)
    // the reranker alone orders the head as the engine's search does
    const first = engine.firstStageSearch(query, { limit: DEPTH })
    expect(reranker!.rerank(query, first).hits.map((h) => h.id)).toEqual(engine.search(query, { limit: DEPTH }).hits.map((h) => h.id))
  })

  it("explains the model's score as its bias plus each feature's contribution", () => {
    const hit = engine.search(query, { limit: 1, explain: true }).hits[0]!
    const explained = engine.explain(hit.id, query)
    const second = explained.secondStage!
    expect(second.rank).toBe(1)
    const sum = second.bias + second.contributions.reduce((total, c) => total + c.contribution, 0)
    expect(sum).toBeCloseTo(second.score, 9)
    expect(second.score).toBeCloseTo(hit.score, 12)
    expect(hit.secondStage?.explain?.bias).toBeCloseTo(second.bias, 12)
  })

  it('pages and reranks a first-stage result computed elsewhere exactly as its own (the Solr backend path)', () => {
    for (const q of [query, 'cell OR protein']) {
      for (const options of [
        { limit: 10 },
        { offset: 15, limit: 10 },
        { limit: 5, sort: 'date' as const },
        { limit: 10, rerank: false },
        { limit: 10, prf: { candidates: 30 } },
      ]) {
        const request = engine.firstStageRequest(options)
        const page = (options.offset ?? 0) + options.limit
        const prf = 'prf' in options ? 30 : 0
        expect(request.limit).toBe(options.sort === 'date' ? RESULT_WINDOW : 'rerank' in options ? page : Math.max(DEPTH, page, prf))
        const result = engine.firstStageSearch(q, { limit: request.limit, ...(request.exactTotal ? { exactTotal: true } : {}) })
        const { tookMs: _a, ...fromElsewhere } = engine.pageFrom(q, result, options)
        const { tookMs: _b, ...direct } = engine.search(q, options)
        expect(fromElsewhere).toEqual(direct)
      }
      const result = engine.firstStageSearch(q, { limit: 1000, tieBreak: 'idDescending', exactTotal: true })
      expect(engine.runFrom(q, result, 1000)).toEqual(engine.run(q, 1000))
    }
  })

  it('leaves a query unlike its training queries in first-stage order and says why, unless the range is widened', async () => {
    // far more words than any MeSH heading: F178 (words) beyond its training range
    const long = queries.map((q) => q.text).join(' OR ')
    const page = engine.search(long, { limit: 10 })
    expect(page.total).toBeGreaterThan(10)
    expect(page.reranked).toBe(false)
    expect(page.fallback?.feature).toMatch(/^F17[6-9]$/)
    expect(page.fallback!.value).toBeGreaterThan(page.fallback!.range[1])
    expect(page.hits.map((h) => h.id)).toEqual(engine.firstStageSearch(long, { limit: 10, exactTotal: true }).hits.map((h) => h.id))
    expect(engine.run(long, 10).fallback).toEqual(page.fallback)
    const explained = engine.explain(page.hits[0]!.id, long)
    expect(explained.fallback).toEqual(page.fallback)
    const widened = await openSearch({ index, model: join(dir, 'model'), rangeMargin: 1e6 })
    expect(widened.search(long, { limit: 10 }).reranked).toBe(true)
  })

  it('swaps the model over the same index parts (withModel, reopenSearch), and answers as an engine opened with it', async () => {
    const same = (a: SearchEngine, b: SearchEngine): void => {
      const [x, y] = [engineInternals(a), engineInternals(b)]
      expect(x.reader).toBe(y.reader)
      expect(x.searcher).toBe(y.searcher)
      expect(x.forwardStore).toBe(y.forwardStore)
    }
    const page = (e: SearchEngine): unknown => {
      const { tookMs: _took, ...rest } = e.search(query, { limit: 10, explain: true })
      return rest
    }
    const swapped = await withModel(base, { model: join(dir, 'model') })
    same(swapped, base)
    expect(swapped.model).toEqual(engine.model)
    expect(swapped.openedWith).toEqual(engine.openedWith)
    expect(page(swapped)).toEqual(page(engine))
    const none = await withModel(swapped, {})
    same(none, base)
    expect(none.model).toBeUndefined()
    expect(page(none)).toEqual(page(base))
    // a reload of a model alone: the index has not moved on, so nothing of it is read again
    const reloaded = await reopenSearch(engine, {})
    same(reloaded, engine)
    expect(reloaded.model?.id).toBe(engine.model!.id)
    expect(page(reloaded)).toEqual(page(engine))
    const dropped = await reopenSearch(engine, { model: null })
    same(dropped, engine)
    expect(dropped.model).toBeUndefined()
    await expect(
      withModel(await openSearch({ index, ranking: { termMapping: true } }), {
        model: join(dir, 'model'),
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    await expect(withModel({ ...engine }, {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })

  it('refuses a model trained on another first stage, and a usage log without a model', async () => {
    const opening = openSearch({ index, model: join(dir, 'model'), ranking: { params: { k1: 0.9 } } })
    await expect(opening).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
    await expect(opening).rejects.toThrowError(/trained on a first stage with params \{\}, but this index searches with params \{"k1":0\.9\}/)
    await expect(openSearch({ index, usageLog: join(dir, 'log') })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })

  it('stops with TIMEOUT past its deadline, between the stages', () => {
    expect(() => engine.search(query, { limit: 10, deadline: performance.now() - 1 })).toThrowError(expect.objectContaining({ code: 'TIMEOUT' }))
  })

  it('trains with the full-text section features, and the engine gives them back to the model', async () => {
    const withSections = await trainModel(base, { lightgbm, queries, depth: DEPTH, trees: 5, earlyStopping: 5, fulltextFeatures: true })
    expect(withSections.manifest.schema.version).toBe(`bestmatch-179/1${SECTION_FEATURES_SUFFIX}`)
    expect(withSections.manifest.schema.features.slice(179)).toContain('S_HAS_FULLTEXT')
    await saveBestMatchModel(join(dir, 'model-sections'), withSections)
    const sections = await openSearch({ index, model: join(dir, 'model-sections') })
    expect(sections.search(query, { limit: 10 }).reranked).toBe(true)
  })

  it('answers the same pages from a pool of worker threads, with highlights, errors as PubmatchError and a time budget', async () => {
    const pool = await openSearchPool(engine, { workers: 2 })
    try {
      expect(pool).toMatchObject({ workers: 2, generation: engine.generation, model: engine.model!.id })
      const asked = [query, 'cell OR protein', 'zzzyzzy']
      const pages = await Promise.all(asked.map((q) => pool.search(q, { limit: 10, explain: true })))
      pages.forEach((page, i) => {
        const direct = engine.search(asked[i]!, { limit: 10, explain: true })
        const { tookMs: _a, hits, ...rest } = page
        const { tookMs: _b, hits: directHits, ...directRest } = direct
        expect(rest).toEqual(directRest)
        expect(hits.map(({ highlights: _h, ...hit }) => hit)).toEqual(directHits)
        expect(hits.map((hit) => hit.highlights)).toEqual(directHits.map((hit) => engine.highlights(hit.document, asked[i]!)))
      })
      expect(pages[0]!.reranked).toBe(true)
      // a page beyond the result window: the worker's error comes back as the same PubmatchError
      const bad = await pool.search(query, { offset: RESULT_WINDOW, limit: 10 }).catch((error: unknown) => error)
      expect(isPubmatchError(bad, 'INVALID_ARGUMENT')).toBe(true)
      expect(() => engine.search(query, { offset: RESULT_WINDOW, limit: 10 })).toThrow((bad as Error).message)
      const late = await pool.search(query, { limit: 10, deadlineAt: Date.now() - 1 }).catch((error: unknown) => error)
      expect(isPubmatchError(late, 'TIMEOUT')).toBe(true)
    } finally {
      await pool.close()
    }
    await expect(openSearchPool(engine, { workers: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
