/**
 * Best Match with a query memory (M1–M3) reranked inside SolrCloud against the embedded engine: as
 * `solr-rerank.test.ts`, with a model trained with a memory (`trainModel(…, { memory: {} })`: the
 * training queries remembered). `deployModel` sends the memory analysed by the collection's analyzer
 * (`memory-terms.jsonl`); each shard computes M1–M3 from it and the query's tokens (`pm.tokens`).
 * The reference is `@pubmatch/ltr`'s extractor with `withQueryMemory` over the model's
 * `memory.jsonl` (as `openReranker` builds it: the index's title analyzer, no remembered query left
 * out), given the same candidates with the Solr first-stage scores and total, and the TypeScript
 * scorer of the same model. Needs the Maven module of `@pubmatch/solr` built.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchResult } from '@pubmatch/bm25f'
import { scoreRows } from '@pubmatch/lightgbm-wasm'
import {
  bestMatchExtractor,
  loadModel,
  type LabelledQuery,
} from '@pubmatch/ltr'
import { createQueryMemory, withQueryMemory } from '@pubmatch/ltr/internal'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrReranker,
  deployModel,
  indexCorpus,
  javaBuilt,
  loadModelOnReplicas,
  solrFields,
  startLocalCluster,
  type LocalCluster,
  type SolrClient,
  type SolrFirstStageOptions,
} from '@pubmatch/solr'
import { readDeployedFile } from '@pubmatch/solr/internal'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineInternals, openSearch, type SearchEngine } from '../src/search-engine.ts'
import { meshQueries, sampleIndex, trainSampleModel } from './sample.ts'

const RUN = javaBuilt() || process.env.CI !== undefined
const COLLECTION = 'bmm'
const DEPTH = 500
const QUERIES = 20

/** |a − b| relative to the larger magnitude (0 when both are 0). */
function relative(a: number, b: number): number {
  const scale = Math.max(Math.abs(a), Math.abs(b))
  return scale === 0 ? 0 : Math.abs(a - b) / scale
}

describe.runIf(RUN)('Best Match with a query memory reranked inside SolrCloud', () => {
  let work: string
  let cluster: LocalCluster | undefined
  let client: SolrClient
  let engine: SearchEngine
  let queries: LabelledQuery[]
  let firstStageOptions: SolrFirstStageOptions

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-rerank-memory-'))
    const [started, sample] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      sampleIndex(work),
    ])
    cluster = started
    client = createSolrClient({ urls: cluster.urls(), backoffMs: 100, retries: 8 })
    const indexed = await indexCorpus({
      client,
      corpus: sample.corpus,
      collection: COLLECTION,
      shards: 2,
      replicas: 2,
    })
    expect(indexed.errorList).toEqual([])
    engine = await openSearch({ index: sample.index })
    // fixture judgements (MeSH headings), as solr-rerank.test.ts
    queries = await meshQueries(sample.corpus)
    const trained = await trainSampleModel(engine, queries, join(work, 'model'), { k: 20 })
    expect(trained.manifest.schema.version).toBe('bestmatch-179/1+memory-3/1')
    await deployModel({ client, collection: COLLECTION, dir: join(work, 'model'), name: 'memory' })
    firstStageOptions = {
      client,
      collection: COLLECTION,
      fields: solrFields('pubmed'),
      analyzer: engineInternals(engine).analyzer,
      match: engine.firstStage.match,
      syntax: engine.firstStage.syntax,
    }
  })

  afterAll(async () => {
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  it('stores the memory analysed, and every replica loads it', async () => {
    const memory = await readFile(join(work, 'model', 'memory.jsonl'), 'utf8')
    const stored = await readDeployedFile({
      client,
      collection: COLLECTION,
      name: 'memory',
      file: 'memory-terms.jsonl',
    })
    const lines = stored.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; terms: string[] })
    expect(lines.map((line) => line.id)).toEqual(
      memory
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    )
    expect(lines.every((line) => line.terms.length > 0)).toBe(true)
    // a memory model uploaded without its analysed form (an older client) is refused, named
    await expect(
      client.request({
        path: `${COLLECTION}/pubmatch/models`,
        params: { action: 'upload', name: 'no-terms' },
        body: {
          manifest: JSON.parse(
            await readFile(join(work, 'model', 'manifest.json'), 'utf8'),
          ) as unknown,
          model: await readFile(join(work, 'model', 'model.txt'), 'utf8'),
          memory,
        },
        retry: false,
      }),
    ).rejects.toThrow(/no-terms.*memoryTerms/)
    const replicas = await loadModelOnReplicas({ client, collection: COLLECTION, name: 'memory' })
    expect(replicas).toHaveLength(4)
    expect(
      replicas.every(
        (replica) => replica.memory && replica.features === 182 && replica.schemaFeatures === 182,
      ),
    ).toBe(true)
  })

  it('computes the 182 features and the model scores of the embedded engine, and ranks the candidates alike', async () => {
    const { reader, forwardStore } = engineInternals(engine)
    const model = await loadModel(join(work, 'model'))
    const remembered: LabelledQuery[] = (
      await readFile(join(work, 'model', 'memory.jsonl'), 'utf8')
    )
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const value = JSON.parse(line) as {
          id: string
          text: string
          judgements: Record<string, number>
        }
        return {
          id: value.id,
          text: value.text,
          judgements: new Map(Object.entries(value.judgements)),
        }
      })
    const memory = createQueryMemory({
      queries: remembered,
      analyzer: reader.analyzer('title'),
      k: model.manifest.training.memory!.k,
    })
    const extractor = withQueryMemory(
      bestMatchExtractor({
        reader,
        forward: await forwardStore(),
        syntax: engine.firstStage.syntax,
      }),
      memory,
    )
    const width = extractor.schema.features.length
    expect(width).toBe(182)
    expect(model.manifest.schema.features).toEqual(
      extractor.schema.features.map((feature) => feature.id),
    )
    const firstStage = createSolrFirstStage(firstStageOptions)
    const reranker = createSolrReranker({ ...firstStageOptions, model: 'memory' })
    const columnMax = new Float64Array(width)
    let scoreMax = 0
    let floatMax = 0
    let rows = 0
    let withEvidence = 0
    let ranked = 0
    let used = 0
    const orderMismatches: string[] = []
    let tiedExactly = 0
    let tiedAsFloat = 0
    const rememberedIds = new Set(remembered.map((q) => q.id))
    let rememberedQueries = 0
    const totals = queries.map((q) => ({ q, total: engine.firstStageSearch(q.text).total }))
    const chosen = totals
      .sort((a, b) => b.total - a.total || (a.q.id < b.q.id ? -1 : 1))
      .slice(0, QUERIES)
    for (const { q } of chosen) {
      const first = await firstStage.search(q.text, { limit: DEPTH })
      if (first.hits.length < 2) {
        continue
      }
      used++
      rememberedQueries += rememberedIds.has(q.id) ? 1 : 0
      const solr = await reranker.rerank(q.text, first, {
        rows: first.hits.length,
        features: true,
        outOfRange: 'rerank',
      })
      expect(solr.fallback).toBeUndefined()
      expect(solr.hits.map((h) => h.id).sort()).toEqual(first.hits.map((h) => h.id).sort())
      const candidates: SearchResult = {
        hits: first.hits.map((hit) => ({
          id: hit.id,
          docNumber: reader.docNumber(hit.id)!,
          score: hit.score,
          rank: hit.rank,
        })),
        total: first.total,
        totalRelation: 'eq',
        query: first.query,
        warnings: [],
        stats: {
          docsScored: 0,
          postingsScored: 0,
          docsMatched: first.total,
          windows: 0,
          blocksSkipped: 0,
          clauses: 0,
          pruned: false,
        },
      }
      const matrix = extractor.extract(q.text, candidates)
      const scores = scoreRows(model.model, matrix, { raw: true })
      const byId = new Map(solr.hits.map((hit) => [hit.id, hit]))
      first.hits.forEach((hit, i) => {
        const got = byId.get(hit.id)!
        expect(got.features).toHaveLength(width)
        for (let c = 0; c < width; c++) {
          const want = matrix.data[i * width + c]!
          const have = got.features![c]!
          const id = extractor.schema.features[c]!.id
          if (Number.isInteger(want) && id !== 'F143') {
            expect([hit.id, id, have]).toEqual([hit.id, id, want])
          }
          columnMax[c] = Math.max(columnMax[c]!, relative(have, want))
        }
        withEvidence += matrix.data[i * width + 179]! > 0 ? 1 : 0
        scoreMax = Math.max(scoreMax, relative(got.modelScore!, scores[i]!))
        floatMax = Math.max(floatMax, relative(got.score, scores[i]!))
        rows++
      })
      // the embedded order (model score, ties by first-stage rank), up to ties among equal floats
      const order = first.hits.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b)
      const embeddedScores = order.map((i) => Math.fround(scores[i]!))
      const solrScores = solr.hits.map((hit) => Math.fround(byId.get(hit.id)!.modelScore!))
      if (JSON.stringify(solrScores) !== JSON.stringify(embeddedScores)) {
        orderMismatches.push(q.text)
        continue
      }
      solr.hits.forEach((hit, r) => {
        const want = first.hits[order[r]!]!
        if (hit.id === want.id) {
          ranked++
        } else {
          expect(Math.fround(hit.modelScore!)).toBe(Math.fround(scores[order[r]!]!))
          if (hit.modelScore === scores[order[r]!]) {
            tiedExactly++
          } else {
            tiedAsFloat++
          }
        }
      })
    }
    // how much the model leans on M1–M3: its splits on columns 179–181
    const splits = [
      ...(await readFile(join(work, 'model', 'model.txt'), 'utf8')).matchAll(
        /^split_feature=(.*)$/gm,
      ),
    ].flatMap((m) => m[1]!.split(' ').map(Number))
    const memorySplits = splits.filter((feature) => feature >= 179).length
    const notExact = extractor.schema.features
      .map((feature, c) => ({ feature: feature.id, max: columnMax[c]! }))
      .filter((entry) => entry.max > 0)
    console.log(
      JSON.stringify({
        orderMismatches,
        queries: used,
        rememberedQueries,
        rows,
        rowsWithMemoryEvidence: withEvidence,
        memorySplits,
        splits: splits.length,
        rankedAlike: ranked,
        tiedExactly,
        tiedAsFloat,
        modelScoreMaxRelative: scoreMax,
        floatScoreMaxRelative: floatMax,
        columnsNotExact: notExact,
      }),
    )
    expect(used).toBeGreaterThanOrEqual(15)
    // the memory takes part: remembered queries find themselves, and their relevant candidates get evidence
    expect(withEvidence).toBeGreaterThan(0)
    expect(orderMismatches).toEqual([])
    for (let c = 0; c < width; c++) {
      expect([extractor.schema.features[c]!.id, columnMax[c]! <= 1e-9]).toEqual([
        extractor.schema.features[c]!.id,
        true,
      ])
    }
    expect(scoreMax).toBeLessThanOrEqual(1e-6)
    expect(floatMax).toBeLessThanOrEqual(1e-6)
  })
})
