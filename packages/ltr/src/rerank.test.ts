import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadLightGbm, parseLightGbmModel, type LightGbm } from '@pubmatch/lightgbm-wasm'
import { createToyWorld, TOY_SCHEMA } from '../test/toy.ts'
import { createBestMatchReranker } from './best-match.ts'
import { MODEL_FORMAT, type ModelManifest, type RankerModel } from './model.ts'
import { createReranker } from './rerank.ts'
import { trainRanker } from './train.ts'
import { buildTrainingSet } from './training-set.ts'

describe('one rerank, one result shape: the head reranked, the tail in first-stage order', () => {
  const world = createToyWorld(40, 30, 21)
  let lightgbm: LightGbm
  let model: RankerModel
  beforeAll(async () => {
    lightgbm = await loadLightGbm()
    const train = buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: world.queries })
    const trained = trainRanker({
      lightgbm,
      train,
      params: { num_leaves: 7, min_data_in_leaf: 10 },
      numBoostRound: 10,
      featureNames: TOY_SCHEMA.features.map((f) => f.id),
    })
    const manifest: ModelManifest = {
      format: MODEL_FORMAT,
      createdAt: '2026-11-22T00:00:00.000Z',
      schema: { version: TOY_SCHEMA.version, features: TOY_SCHEMA.features.map((f) => f.id) },
      training: {
        queries: 'toy',
        qrels: 'toy',
        validation: 'none',
        usageLog: null,
        depth: 30,
        trainQueries: 40,
        trainRows: 1200,
        validQueries: 0,
        testQueries: 0,
        seconds: 0,
        seed: 1,
        memory: null,
      },
      lightgbm: { params: trained.params, iterations: trained.iterations },
      metrics: {},
      firstStage: { ranker: 'toy', params: {}, analyzer: 'toy', fieldSet: 'toy', fields: ['title'], match: 'any', syntax: 'plain', depth: 30 },
    }
    model = { manifest, text: trained.modelText, model: parseLightGbmModel(trained.modelText) }
  })
  afterAll(async () => {
    await lightgbm.terminate()
  })

  it('reranks the first `depth` hits and scores the rest below them, strictly decreasing, in first-stage order', () => {
    const reranker = createReranker(world.extractor, model)
    const query = world.queries[0]!
    const result = world.searcher.search(query.text)
    expect(result.hits).toHaveLength(30)
    const all = reranker.rerank(query.text, result)
    expect(all.hits.map((hit) => hit.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    expect(all.fallback).toBeUndefined()

    const cut = reranker.rerank(query.text, result, { depth: 5 })
    const head = reranker.rerank(query.text, { ...result, hits: result.hits.slice(0, 5) })
    expect(cut.hits.slice(0, 5)).toEqual(head.hits)
    // the tail: first-stage hits 6–30; with m the head's lowest score and n = 25 tail hits, the
    // i-th (1-based) gets m − 1 − i / (n + 1): m − 1 − 1/26 first, m − 1 − 25/26 last
    const m = Math.min(...head.hits.map((hit) => hit.score))
    const tail = cut.hits.slice(5)
    expect(tail.map((hit) => hit.id)).toEqual(result.hits.slice(5).map((hit) => hit.id))
    expect(tail.map((hit) => hit.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 6))
    expect(tail[0]!.score).toBe(m - 1 - 1 / 26)
    expect(tail[24]!.score).toBe(m - 1 - 25 / 26)
    expect(tail.every((hit, i) => hit.firstStageRank === i + 6 && hit.firstStageScore === result.hits[i + 5]!.score)).toBe(true)

    // nothing reranked: every hit in first-stage order below 0 (−1 − i/31)
    const none = reranker.rerank(query.text, result, { depth: 0 })
    expect(none.hits.map((hit) => hit.id)).toEqual(result.hits.map((hit) => hit.id))
    expect(none.hits[0]!.score).toBe(-1 - 1 / 31)
  })

  it('leaves a query outside the accepted range in first-stage order with the same shape, and says why', () => {
    // T1 (quality) lies in [0, 1): a range of [2, 3] puts every query outside it
    const narrow: RankerModel = { ...model, manifest: { ...model.manifest, queryRanges: { T1: [2, 3] } } }
    const reranker = createBestMatchReranker('toy-model', narrow, world.extractor)
    const query = world.queries[1]!
    const result = world.searcher.search(query.text)
    const out = reranker.rerank(query.text, result, { depth: 10 })
    const quality = world.extractor.extract(query.text, { ...result, hits: result.hits.slice(0, 1) }).data[0]!
    expect(out.fallback).toEqual({ feature: 'T1', value: quality, range: [2, 3] })
    expect(out.hits.map((hit) => hit.id)).toEqual(result.hits.map((hit) => hit.id))
    // the head keeps its first-stage scores; the tail goes below the lowest of them
    expect(out.hits.slice(0, 10).map((hit) => hit.score)).toEqual(result.hits.slice(0, 10).map((hit) => hit.score))
    expect(out.hits[10]!.score).toBe(result.hits[9]!.score - 1 - 1 / 21)
    // `outOfRange: 'rerank'` reranks it as the plain reranker does
    const forced = reranker.rerank(query.text, result, { depth: 10, outOfRange: 'rerank' })
    expect(forced).toEqual(createReranker(world.extractor, model).rerank(query.text, result, { depth: 10 }))
  })
})
