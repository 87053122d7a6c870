import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Qrels, Run } from '@pubmatch/core'
import { evaluate } from '@pubmatch/eval'
import { loadLightGbm, scoreRows, type LightGbm } from '@pubmatch/lightgbm-wasm'
import { createToyWorld, TOY_SCHEMA } from '../test/toy.ts'
import { formatLetor, formatLightGbmText, parseLetor } from './letor.ts'
import { loadModel, loadModelMemory, saveModel, saveModelMemory, scoreSolrLtr, toSolrLtr, MODEL_FORMAT, type ModelManifest } from './model.ts'
import { createReranker } from './rerank.ts'
import { gridCombinations, gridSearch, trainRanker } from './train.ts'
import { buildTrainingSet, selectFeatures, selectQueries, type TrainingSet } from './training-set.ts'

function ndcg10(runs: Map<string, Array<{ id: string; score: number }>>, qrels: Qrels): number {
  const run: Run = { tag: 't', queries: new Map() }
  for (const [qid, list] of runs) {
    run.queries.set(
      qid,
      list.map((entry) => ({ docId: entry.id, score: entry.score })),
    )
  }
  return evaluate(run, qrels, { measures: ['ndcg_cut.10'] }).mean['ndcg_cut_10']!
}

describe('buildTrainingSet', () => {
  it('groups candidate rows by query with graded labels and skips queries LambdaMART cannot learn from', () => {
    const world = createToyWorld(6, 12, 7)
    const empty = { id: 'none', text: 'not-a-toy-query', judgements: new Map([['x', 1]]) }
    const set = buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: [...world.queries, empty], depth: 10 })
    const kept = world.queries.filter((q) => [...q.judgements.keys()].some((id) => world.searcher.search(q.text, { limit: 10 }).hits.some((h) => h.id === id)))
    expect(set.stats.queries).toBe(kept.length)
    expect(set.stats.skipped).toContainEqual({ id: 'none', reason: 'no-candidates' })
    expect([...set.groups].every((size) => size === 10)).toBe(true)
    expect(set.features.numRows).toBe(10 * kept.length)
    expect(set.features.numFeatures).toBe(4)
    // row 0 is the first candidate of the first kept query, with its grade and first-stage score
    const first = kept[0]!
    const hit = world.searcher.search(first.text, { limit: 10 }).hits[0]!
    expect(set.docIds[0]).toBe(hit.id)
    expect(set.labels[0]).toBe(first.judgements.get(hit.id) ?? 0)
    expect(set.features.data[3]).toBe(hit.score)
    expect(set.firstStageRanks[0]).toBe(1)
  })

  it('rejects fractional grades and bad depths with typed errors', () => {
    const world = createToyWorld(1, 5, 1)
    const bad = { ...world.queries[0]!, judgements: new Map([['D1-0-0', 1.5]]) }
    expect(() => buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: [bad] })).toThrow(/grade of D1-0-0/)
    expect(() => buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: [], depth: 0 })).toThrow(/depth/)
  })

  it('selects queries and feature columns', () => {
    const world = createToyWorld(4, 5, 3)
    const set = buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: world.queries })
    const one = selectQueries(set, (id) => id === set.queryIds[1])
    expect(one.queryIds).toEqual([set.queryIds[1]])
    expect([...one.features.data]).toEqual([...set.features.data.subarray(set.groups[0]! * 4, (set.groups[0]! + set.groups[1]!) * 4)])
    const cols = selectFeatures(set, [3, 0])
    expect(cols.features.numFeatures).toBe(2)
    expect(cols.features.data[0]).toBe(set.features.data[3])
    expect(cols.features.data[1]).toBe(set.features.data[0])
    expect(() => selectFeatures(set, [4])).toThrow(/outside/)
  })
})

describe('LETOR and LightGBM text', () => {
  const set: TrainingSet = {
    features: { data: Float64Array.from([0.5, 0, 2, 1.25, 3, 0]), numRows: 3, numFeatures: 2 },
    labels: Int32Array.from([2, 0, 1]),
    groups: Int32Array.from([2, 1]),
    queryIds: ['q1', 'q2'],
    docIds: ['d1', 'd2', 'd3'],
    firstStageRanks: Int32Array.from([1, 2, 1]),
    stats: { queries: 2, skipped: [] },
  }

  it('writes the lines RankLib and SVMrank read', () => {
    expect(formatLetor(set)).toBe('2 qid:q1 1:0.5 2:0 # d1\n0 qid:q1 1:2 2:1.25 # d2\n1 qid:q2 1:3 2:0 # d3\n')
    expect(formatLetor(set, { dense: false })).toBe('2 qid:q1 1:0.5 # d1\n0 qid:q1 1:2 2:1.25 # d2\n1 qid:q2 1:3 # d3\n')
    expect(formatLightGbmText(set)).toEqual({ data: '2 0:0.5\n0 0:2 1:1.25\n1 0:3\n', query: '2\n1\n' })
  })

  it('reads them back, and names the line of a bad one', () => {
    const back = parseLetor(formatLetor(set, { dense: false }), 2)
    expect([...back.features.data]).toEqual([...set.features.data])
    expect([...back.labels]).toEqual([2, 0, 1])
    expect([...back.groups]).toEqual([2, 1])
    expect(back.docIds).toEqual(['d1', 'd2', 'd3'])
    expect(() => parseLetor('1 qid:a 1:1\n1 qid:a 3:1\n', 2, 'x.letor')).toThrow(/x\.letor:2: bad feature "3:1"/)
    expect(() => parseLetor('1 qid:a 1:1\n1 qid:b 1:1\n1 qid:a 1:1\n', 2)).toThrow(/not consecutive/)
  })
})

describe('training, models and reranking (LightGBM in WebAssembly)', () => {
  let lightgbm: LightGbm
  const world = createToyWorld(120, 30, 11)
  const validWorld = createToyWorld(40, 30, 12)
  const train = buildTrainingSet({ searcher: world.searcher, extractor: world.extractor, queries: world.queries })
  const valid = buildTrainingSet({ searcher: validWorld.searcher, extractor: validWorld.extractor, queries: validWorld.queries })
  const dir = mkdtempSync(join(tmpdir(), 'ltr-model-'))
  const manifest = (iterations: number): ModelManifest => ({
    format: MODEL_FORMAT,
    createdAt: '2026-11-22T00:00:00.000Z',
    schema: { version: TOY_SCHEMA.version, features: TOY_SCHEMA.features.map((f) => f.id) },
    training: {
      queries: 'toy',
      qrels: 'toy',
      validation: 'toy',
      usageLog: null,
      depth: 30,
      trainQueries: train.stats.queries,
      trainRows: train.features.numRows,
      validQueries: valid.stats.queries,
      testQueries: 0,
      seconds: 0,
      seed: 1,
      memory: null,
    },
    lightgbm: { params: {}, iterations },
    metrics: {},
    firstStage: { ranker: 'toy', params: {}, analyzer: 'toy', fieldSet: 'toy', fields: ['title'], match: 'any', syntax: 'plain', depth: 30 },
  })

  const scratch: string[] = [dir]
  beforeAll(async () => {
    lightgbm = await loadLightGbm()
  })
  afterAll(() => {
    for (const path of scratch) {
      rmSync(path, { recursive: true, force: true })
    }
  })

  it('learns to beat the first stage, and the saved model reranks identically without WebAssembly', async () => {
    const curve: number[] = []
    const trained = trainRanker({
      lightgbm,
      train,
      valid,
      params: { num_leaves: 7, min_data_in_leaf: 10 },
      numBoostRound: 60,
      earlyStoppingRounds: 20,
      featureNames: TOY_SCHEMA.features.map((f) => f.id),
      onIteration: (_i, evals) => curve.push(evals[0]!.value),
    })
    expect(curve.length).toBeGreaterThan(5)
    expect(trained.validMetrics['ndcg@20']).toBeGreaterThan(curve[0]! - 1e-12)
    // quality and topicality carry the signal; noise must matter least
    expect(trained.gainImportance[2]!).toBeLessThan(trained.gainImportance[0]!)
    expect(trained.gainImportance[2]!).toBeLessThan(trained.gainImportance[1]!)

    await saveModel(dir, manifest(trained.iterations), trained.modelText)
    const model = await loadModel(dir, TOY_SCHEMA)
    const reranker = createReranker(validWorld.extractor, model)
    const firstStage = new Map<string, Array<{ id: string; score: number }>>()
    const reranked = new Map<string, Array<{ id: string; score: number }>>()
    const qrels: Qrels = new Map()
    for (const query of validWorld.queries) {
      qrels.set(query.id, new Map(query.judgements))
      const result = validWorld.searcher.search(query.text)
      firstStage.set(query.id, result.hits.map((hit) => ({ id: hit.id, score: hit.score })))
      reranked.set(query.id, reranker.rerank(query.text, result).hits.map((hit) => ({ id: hit.id, score: hit.score })))
    }
    const before = ndcg10(firstStage, qrels)
    const after = ndcg10(reranked, qrels)
    expect(after).toBeGreaterThan(before + 0.15)

    // the TS scorer equals LightGBM's own predict
    const booster = lightgbm.loadModel(model.text)
    try {
      const wasm = booster.predict(valid.features)
      const ts = scoreRows(model.model, valid.features, { raw: true })
      for (let i = 0; i < wasm.length; i++) {
        expect(Math.abs(wasm[i]! - ts[i]!)).toBeLessThanOrEqual(1e-12)
      }
    } finally {
      booster.free()
    }
  })

  it('explains each reranked score as bias + feature contributions', async () => {
    const model = await loadModel(dir, TOY_SCHEMA)
    const reranker = createReranker(validWorld.extractor, model)
    const query = validWorld.queries[0]!
    const { hits } = reranker.rerank(query.text, validWorld.searcher.search(query.text), { explain: true })
    for (const hit of hits) {
      const sum = hit.explain!.bias + hit.explain!.contributions.reduce((a, c) => a + c.contribution, 0)
      expect(Math.abs(sum - hit.score)).toBeLessThan(1e-9)
    }
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1))
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits.at(-1)!.score)
  })

  it('exports to Solr LTR JSON that scores like the model', async () => {
    const model = await loadModel(dir, TOY_SCHEMA)
    const solr = toSolrLtr(model, { name: 'bm', store: 'pubmatch' })
    expect(solr.class).toBe('org.apache.solr.ltr.model.MultipleAdditiveTreesModel')
    expect(solr.features.map((f) => f.name)).toEqual(['T1', 'T2', 'T3', 'T4'])
    const ts = scoreRows(model.model, valid.features, { raw: true })
    for (let r = 0; r < 200; r++) {
      const row = new Map(solr.features.map((f, c) => [f.name, valid.features.data[r * 4 + c]!]))
      expect(scoreSolrLtr(solr, row)).toBeCloseTo(ts[r]!, 9)
    }
    // round trip through JSON text, as Solr receives it
    expect(JSON.parse(JSON.stringify(solr))).toEqual(solr)
  })

  it('refuses a model trained on another feature schema', async () => {
    await expect(loadModel(dir, { ...TOY_SCHEMA, version: 'toy/2' })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
    const reordered = { ...TOY_SCHEMA, features: [...TOY_SCHEMA.features].reverse() }
    await expect(loadModel(dir, reordered)).rejects.toThrow(/column 0: model "T1", extractor "T4"/)
    await expect(loadModel(join(dir, 'missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const broken = mkdtempSync(join(tmpdir(), 'ltr-broken-'))
    scratch.push(broken)
    writeFileSync(join(broken, 'manifest.json'), readFileSync(join(dir, 'manifest.json')))
    writeFileSync(join(broken, 'model.txt'), 'tree\nversion=v4\nnum_class=1\n')
    await expect(loadModel(broken)).rejects.toMatchObject({ code: 'UNSUPPORTED_FORMAT' })
  })

  it('reuses the parsed trees of a model loaded earlier only while the directory holds the same model', async () => {
    const earlier = await loadModel(dir, TOY_SCHEMA)
    const again = await loadModel(dir, TOY_SCHEMA, { reuse: earlier })
    expect(again.model).toBe(earlier.model)
    expect(again.manifest).toEqual(earlier.manifest)
    // the reused model is still checked against the schema it will be used with
    await expect(loadModel(dir, { ...TOY_SCHEMA, version: 'toy/2' }, { reuse: earlier })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
    const other = mkdtempSync(join(tmpdir(), 'ltr-other-'))
    scratch.push(other)
    const manifestText = readFileSync(join(dir, 'manifest.json'), 'utf8')
    // one tree fewer: another model text, parsed anew (and scoring as its own trees)
    const text = readFileSync(join(dir, 'model.txt'), 'utf8')
    writeFileSync(join(other, 'manifest.json'), manifestText)
    writeFileSync(join(other, 'model.txt'), text)
    expect((await loadModel(other, TOY_SCHEMA, { reuse: earlier })).model).toBe(earlier.model)
    writeFileSync(join(other, 'model.txt'), text.replace(/\nTree=1\n[\s\S]*?\n\n(?=Tree=2\n)/, '\n'))
    const changed = await loadModel(other, TOY_SCHEMA, { reuse: earlier })
    expect(changed.model).not.toBe(earlier.model)
    expect(changed.model.trees.length).toBe(earlier.model.trees.length - 1)
    // the same text under another manifest (another creation time) is loaded anew too
    writeFileSync(join(other, 'model.txt'), text)
    writeFileSync(join(other, 'manifest.json'), JSON.stringify({ ...(JSON.parse(manifestText) as ModelManifest), createdAt: '2000-01-01T00:00:00.000Z' }))
    const renamed = await loadModel(other, TOY_SCHEMA, { reuse: earlier })
    expect(renamed.model).not.toBe(earlier.model)
    expect(renamed.manifest.createdAt).toBe('2000-01-01T00:00:00.000Z')
  })

  it('refuses a manifest that is not JSON or not of its shape, naming the file and the field', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'ltr-manifest-'))
    scratch.push(broken)
    writeFileSync(join(broken, 'model.txt'), readFileSync(join(dir, 'model.txt')))
    const good = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ModelManifest
    const message = async (manifest: string): Promise<string> => {
      writeFileSync(join(broken, 'manifest.json'), manifest)
      const error = await loadModel(broken).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'UNSUPPORTED_FORMAT', details: { file: join(broken, 'manifest.json') } })
      return (error as Error).message.replace(broken, '<dir>')
    }
    expect(await message(JSON.stringify({ ...good, firstStage: { ...good.firstStage, match: 'some' } }))).toMatchInlineSnapshot(
      `"<dir>/manifest.json: firstStage.match is "some", expected "all" or "any""`,
    )
    expect(await message(JSON.stringify({ ...good, queryRanges: { F176: [0] } }))).toMatchInlineSnapshot(
      `"<dir>/manifest.json: queryRanges.F176 is [0], expected an array of 2"`,
    )
    expect(await message(JSON.stringify({ ...good, format: 'pubmatch-ltr-model/3' }))).toMatchInlineSnapshot(
      `"<dir>/manifest.json: format is "pubmatch-ltr-model/3", expected "pubmatch-ltr-model/2""`,
    )
    expect(await message(JSON.stringify({ ...good, format: 'pubmatch-ltr-model/1' }))).toMatchInlineSnapshot(
      `"<dir>/manifest.json is a pubmatch-ltr-model/1 manifest, which does not record its first stage exactly; retrain the model with \`pubmatch train\`"`,
    )
    expect(await message('{"format": "pubmatch-ltr-model/2",')).toMatchInlineSnapshot(`"<dir>/manifest.json is not valid JSON (position 34): "{"format": "pubmatch-ltr-model/2",""`)
  })

  it('reads a query memory back, and names the file, line and field of a damaged one', async () => {
    const memory = mkdtempSync(join(tmpdir(), 'ltr-memory-'))
    scratch.push(memory)
    await saveModelMemory(memory, [{ id: 'q1', text: 'aspirin asthma', judgements: new Map([['D1', 2]]) }])
    expect(await loadModelMemory(memory)).toEqual([{ id: 'q1', text: 'aspirin asthma', judgements: new Map([['D1', 2]]) }])
    writeFileSync(join(memory, 'memory.jsonl'), '{"id": "q1", "text": "aspirin asthma", "judgements": {"D1": 2}}\n{"id": "q2", "text": "x", "judgements": {"D1": -1}}\n')
    const error = await loadModelMemory(memory).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'UNSUPPORTED_FORMAT' })
    expect((error as Error).message.replace(memory, '<dir>')).toMatchInlineSnapshot(`"<dir>/memory.jsonl:2: judgements.D1 is -1, expected a non-negative integer"`)
  })

  it('grid search picks parameters by k-fold cross-validation', () => {
    expect(gridCombinations({ a: [1, 2], b: ['x'] })).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: 'x' },
    ])
    const points = gridSearch({
      lightgbm,
      train: selectQueries(train, (_id, g) => g < 60),
      grid: { num_leaves: [2, 7] },
      params: { min_data_in_leaf: 10 },
      folds: 3,
      numBoostRound: 30,
      earlyStoppingRounds: 10,
    })
    expect(points).toHaveLength(2)
    expect(points[0]!.folds).toHaveLength(3)
    expect(points[0]!.meanNdcg).toBeGreaterThanOrEqual(points[1]!.meanNdcg)
  })
})
