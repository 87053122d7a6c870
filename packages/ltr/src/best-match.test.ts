import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emptyArticle } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { createSearcher, type FirstStageRanker } from '@pubmatch/bm25f'
import { createIndexWriter, openIndex, testCollectionFields, type IndexReader } from '@pubmatch/index'
import { loadLightGbm, type LightGbm } from '@pubmatch/lightgbm-wasm'
import { acceptedRange, checkFirstStage, memoryQueries, openReranker, saveBestMatchModel, splitQueries, trainBestMatch, type CurrentFirstStage, type TrainedBestMatch } from './best-match.ts'
import { buildForwardIndex, type ForwardIndex } from './features/forward.ts'
import type { LabelledQuery } from './types.ts'
import { knownItemQueries, readSampleCitations } from '../test/sample.ts'

function readQueries(file: string, qrels: Map<string, Map<string, number>>): LabelledQuery[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, text] = line.split('\t') as [string, string]
      return { id, text, judgements: qrels.get(id) ?? new Map<string, number>() }
    })
}

function readQrels(file: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [q, , d, g] = line.split(/\s+/) as [string, string, string, string]
    const map = out.get(q) ?? new Map<string, number>()
    map.set(d, Number(g))
    out.set(q, map)
  }
  return out
}

describe('acceptedRange', () => {
  it('is the training range by default, widened by margin × its width (at least 1) on request', () => {
    expect(acceptedRange([1, 11])).toEqual([1, 11])
    expect(acceptedRange([1, 11], 1)).toEqual([-9, 21])
    expect(acceptedRange([2, 2], 3)).toEqual([-1, 5])
  })
})

/** A collection to run the recipe on: documents (title, abstract), queries and their variants. */
interface Collection {
  readonly docs: readonly { id: string; title: string; abstract: string }[]
  readonly titles: LabelledQuery[]
  readonly variants: LabelledQuery[]
  /** The test part of the 65/15/20 split: 20 % of the title queries, rounded. */
  readonly testQueries: number
}

/** NFCorpus of the real data set, indexed as `pubmatch index` indexes it; 120 training title queries. */
function nfcorpus(): Collection {
  const nf = sharedDataPath('nfcorpus')
  const docs = readFileSync(join(nf, 'corpus.docs'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, text] = line.split('\t') as [string, string]
      return { id, title: text.slice(0, 80), abstract: text.slice(80) }
    })
  const qrels = readQrels(join(nf, 'train/s-3.qrel'))
  return {
    docs,
    titles: readQueries(join(nf, 'train/q-titles.queries'), qrels).slice(0, 120),
    variants: readQueries(join(nf, 'train/q-vidtitles.queries'), qrels),
    testQueries: 24,
  }
}

/**
 * The sample corpus's 526 MEDLINE citations with an abstract, and a known-item title query for
 * each of the 94 of them that have MeSH headings (counted in the raw XML).
 */
function sample(): Collection {
  const citations = readSampleCitations()
  return { docs: citations, ...knownItemQueries(citations, 120), testQueries: 19 }
}

describeRecipe('Best Match recipe on the sample corpus (MEDLINE titles as known-item queries)', sample, [])
describeRecipe('Best Match recipe on NFCorpus', nfcorpus, ['real-data'])

/** The recipe's suite over one collection. */
function describeRecipe(name: string, load: () => Collection, tags: string[]): void {
  describe(name, { tags }, () => {
    let dir: string
    let reader: IndexReader
    let forward: ForwardIndex
    let searcher: FirstStageRanker
    let lightgbm: LightGbm
    let firstStage: CurrentFirstStage
    let titles: LabelledQuery[]
    let variants: LabelledQuery[]
    let trained: TrainedBestMatch
    let testQueries: number

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ltr-best-match-'))
      const collection = load()
      const writer = await createIndexWriter(join(dir, 'index'), { fields: testCollectionFields({ analyzer: 'biomedical' }) })
      const docs = []
      for (const { id, title, abstract } of collection.docs) {
        await writer.addArticle({ ...emptyArticle(id, 'test-collection'), title, abstract: [{ text: abstract }] })
        docs.push({ id, title, abstract, mesh: [] })
      }
      await writer.commit()
      await writer.close()
      reader = await openIndex(join(dir, 'index'))
      forward = buildForwardIndex(docs, { analyzer: reader.analyzer('title') })
      searcher = createSearcher(reader, { match: 'any', syntax: 'plain' })
      firstStage = {
        ranker: 'bm25f',
        params: {},
        analyzer: 'biomedical',
        fieldSet: 'test-collection',
        fields: ['title', 'abstract'],
        match: 'any',
        syntax: 'plain',
      }
      titles = collection.titles
      variants = collection.variants
      testQueries = collection.testQueries
      lightgbm = await loadLightGbm()
      trained = trainBestMatch({
        lightgbm,
        reader,
        forward,
        syntax: 'plain',
        searcher,
        firstStage,
        queries: titles,
        seed: 7,
        memory: { k: 10, variants: [variants] },
        depth: 40,
        trees: 20,
        earlyStopping: 10,
      })
    })

    afterAll(async () => {
      await lightgbm?.terminate()
      await rm(dir, { recursive: true, force: true })
    })

    it('remembers only training queries and their variants in split mode, never validation or test ones', () => {
      const split = splitQueries(titles, 7)
      const trainIds = new Set(split.train.map((q) => q.id))
      const heldOut = new Set([...split.valid, ...split.test].map((q) => q.id))
      const remembered = trained.memory!
      const baseIds = remembered.map((q) => q.id.replace(/#\d+$/, ''))
      expect(baseIds.every((id) => trainIds.has(id))).toBe(true)
      expect(baseIds.some((id) => heldOut.has(id))).toBe(false)
      // the variants of training queries are there, those of held-out queries are not
      const variantIds = new Set(variants.map((q) => q.id))
      const expectedVariants = split.train.filter((q) => variantIds.has(q.id)).length
      expect(remembered.length).toBe(split.train.length + expectedVariants)
      expect(trained.manifest.training.memory).toEqual({ queries: split.train.length + expectedVariants, k: 10 })
      expect(memoryQueries(split.train, [variants]).map((q) => q.id)).toEqual(remembered.map((q) => q.id))
    })

    it('writes typed first-stage and training records and held-out figures', () => {
      const { manifest } = trained
      expect(manifest.firstStage).toEqual({ ...firstStage, depth: 40 })
      expect(manifest.training).toMatchObject({ validation: 'split 65/15/20 (seed 7)', depth: 40, testQueries, seed: 7, usageLog: null })
      expect(manifest.metrics['test_first_stage_ndcg_cut_10']).toBeTypeOf('number')
      expect(manifest.metrics['test_reranked_ndcg_cut_10']).toBeTypeOf('number')
      // query-level features have their training range recorded
      expect(Object.keys(manifest.queryRanges ?? {})).toContain('F176')
    })

    it('refuses to rerank over another first stage, naming what differs', async () => {
      await saveBestMatchModel(join(dir, 'model'), trained)
      expect(() => checkFirstStage(trained.manifest, { ...firstStage, params: { k1: 0.9 } }, 'm')).toThrowError(
        /^m was trained on a first stage with params \{\}, but this index searches with params \{"k1":0\.9\}/,
      )
      await expect(openReranker(join(dir, 'model'), { reader, forward, syntax: 'plain', firstStage: { ...firstStage, analyzer: 'whitespace' } })).rejects.toMatchObject({
        code: 'SCHEMA_MISMATCH',
      })
      const manifest = JSON.parse(await readFile(join(dir, 'model', 'manifest.json'), 'utf8')) as { training: { memory: unknown } }
      expect(manifest.training.memory).toEqual(trained.manifest.training.memory)
    })

    it('appends extra feature blocks, records them in the schema, and needs them back to rerank', async () => {
      // a toy block: the candidate id's length and whether it ends in an even digit
      const block = {
        suffix: '+toy-2/1',
        features: [
          { id: 'T1', name: 'id_length', group: 'document' as const, description: 'id length', neutral: 0 },
          { id: 'T2', name: 'id_even', group: 'document' as const, description: 'id ends in an even digit', neutral: 0 },
        ],
        compute: (_query: string, ids: readonly string[]) => Float64Array.from(ids.flatMap((id) => [id.length, Number(id.at(-1)) % 2 === 0 ? 1 : 0])),
      }
      const withBlock = trainBestMatch({ lightgbm, reader, forward, syntax: 'plain', searcher, firstStage, queries: titles.slice(0, 60), depth: 20, trees: 5, earlyStopping: 5, blocks: [block] })
      expect(withBlock.manifest.schema.version).toBe('bestmatch-179/1+toy-2/1')
      expect(withBlock.manifest.schema.features.slice(-2)).toEqual(['T1', 'T2'])
      await saveBestMatchModel(join(dir, 'model-block'), withBlock)
      await expect(openReranker(join(dir, 'model-block'), { reader, forward, syntax: 'plain', firstStage })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
      const reranker = await openReranker(join(dir, 'model-block'), { reader, forward, syntax: 'plain', firstStage, blocks: [block] })
      expect(reranker.rerank(titles[0]!.text, searcher.search(titles[0]!.text, { limit: 20 })).hits).toHaveLength(20)
    })

    it('leaves a query far outside its training range in first-stage order, and says why', async () => {
      const reranker = await openReranker(join(dir, 'model'), { reader, forward, syntax: 'plain', firstStage })
      const long = `${titles.map((q) => q.text).join(' ')} ${titles.map((q) => q.text).join(' ')}`
      const result = searcher.search(long, { limit: 40 })
      const out = reranker.rerank(long, result)
      expect(out.fallback).toBeDefined()
      expect(out.fallback!.value).toBeGreaterThan(out.fallback!.range[1])
      expect(out.hits.map((h) => h.id)).toEqual(result.hits.map((h) => h.id))
      // an ordinary query is reranked
      const normal = reranker.rerank(titles[0]!.text, searcher.search(titles[0]!.text, { limit: 40 }))
      expect(normal.fallback).toBeUndefined()
    })
  })
}
