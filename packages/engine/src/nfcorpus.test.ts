/**
 * The engine with a model on real data: NFCorpus (3,394 documents, graded train judgements), on top
 * of the bundled-sample suites. Skipped, and listed, without the real data set.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel } from '@pubmatch/ltr'
import { ingest } from '../test/sample.ts'
import { readLabelledQueries } from './labelled-queries.ts'
import { openSearch, RESULT_WINDOW, type SearchEngine } from './search-engine.ts'
import { openSearchPool } from './search-pool.ts'
import { trainModel } from './training.ts'
import { updateIndex } from './update-index.ts'

describe('openSearch with a Best Match model (NFCorpus)', { tags: ['real-data'] }, () => {
  let dir: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-nf-'))
    await ingest(join(dir, 'corpus'), [sharedDataPath('nfcorpus', 'corpus.docs')])
    await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
    const base = await openSearch({ index: join(dir, 'index') })
    const queries = (await readLabelledQueries(sharedDataPath('nfcorpus', 'train', 'q-titles.queries'), sharedDataPath('nfcorpus', 'train', 's-3.qrel'))).slice(
      0,
      150,
    )
    const lightgbm = await loadLightGbm()
    const trained = await trainModel(base, {
      lightgbm,
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
        const result = engine.firstStageSearch(query, { limit: request.limit, ...(request.exactTotal ? { exactTotal: true } : {}) })
        const { tookMs: _a, ...fromElsewhere } = engine.pageFrom(query, result, options)
        const { tookMs: _b, ...direct } = engine.search(query, options)
        expect(fromElsewhere).toEqual(direct)
      }
      const result = engine.firstStageSearch(query, { limit: 1000, tieBreak: 'idDescending', exactTotal: true })
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
