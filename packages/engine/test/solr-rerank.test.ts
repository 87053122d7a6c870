/**
 * Best Match's second stage inside SolrCloud against the embedded one: the bundled sample corpus
 * indexed into the embedded engine and into a 2-shard × 2-replica collection of a local
 * SolrCloud, a real model trained on the sample (fixture judgements: MeSH headings) and deployed
 * into the collection, then each query run through the Solr first stage and reranked on the
 * shards (`createSolrReranker`: the Java `pubmatch` rank query, its `[pubmatch]` transformer
 * returning each hit's 179 values). The reference is `@pubmatch/ltr`'s extractor over the embedded
 * index and forward store, given the same candidates with the Solr first-stage scores and total,
 * and the TypeScript scorer of the same model. It lives in the engine's tests because only
 * `engine` sees both `@pubmatch/solr` and `@pubmatch/ltr` (CONTRIBUTING.md, "Layers"). Needs the
 * Maven module of `@pubmatch/solr` built; CI always has it, so there it never skips.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SearchResult } from '@pubmatch/bm25f'
import { scoreRows } from '@pubmatch/lightgbm-wasm'
import {
  BEST_MATCH_SCHEMA,
  bestMatchExtractor,
  createLogStore,
  loadModel,
  readUsage,
  type LabelledQuery,
  type LogEvent,
} from '@pubmatch/ltr'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrReranker,
  deployModel,
  indexCorpus,
  javaBuilt,
  pushUsage,
  solrFields,
  startLocalCluster,
  type LocalCluster,
  type SolrClient,
  type SolrFirstStageOptions,
} from '@pubmatch/solr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineInternals, openSearch, type SearchEngine } from '../src/search-engine.ts'
import { meshQueries, sampleIndex, trainSampleModel } from './sample.ts'

const RUN = javaBuilt() || process.env.CI !== undefined
const COLLECTION = 'bm'
const DEPTH = 500
const QUERIES = 20

/** |a − b| relative to the larger magnitude (0 when both are 0). */
function relative(a: number, b: number): number {
  const scale = Math.max(Math.abs(a), Math.abs(b))
  return scale === 0 ? 0 : Math.abs(a - b) / scale
}

describe.runIf(RUN)('Best Match reranked inside SolrCloud against the embedded engine', () => {
  let work: string
  let cluster: LocalCluster | undefined
  let client: SolrClient
  let engine: SearchEngine
  let queries: LabelledQuery[]
  let firstStageOptions: SolrFirstStageOptions

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-rerank-'))
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
    // Fixture judgements, not an evaluation: each query a MeSH heading two or more articles carry,
    // its relevant documents those articles (the sample has no relevance judgements).
    queries = await meshQueries(sample.corpus)
    await trainSampleModel(engine, queries, join(work, 'model'))
    await deployModel({ client, collection: COLLECTION, dir: join(work, 'model'), name: 'sample' })
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

  it('computes the 179 features and the model scores of the embedded engine, and ranks the candidates alike', async () => {
    const { reader, forwardStore } = engineInternals(engine)
    const extractor = bestMatchExtractor({
      reader,
      forward: await forwardStore(),
      syntax: engine.firstStage.syntax,
    })
    const model = await loadModel(join(work, 'model'))
    const firstStage = createSolrFirstStage(firstStageOptions)
    const reranker = createSolrReranker({ ...firstStageOptions, model: 'sample' })
    const width = BEST_MATCH_SCHEMA.features.length
    expect(width).toBe(179)
    const columnMax = new Float64Array(width)
    let scoreMax = 0
    let floatMax = 0
    let rows = 0
    let ranked = 0
    let used = 0
    const orderMismatches: string[] = []
    let tiedExactly = 0
    let tiedAsFloat = 0
    const worst = new Map<number, string>()
    // the queries with the most candidates first (a query of one match ranks nothing)
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
      const solr = await reranker.rerank(q.text, first, {
        rows: first.hits.length,
        features: true,
        outOfRange: 'rerank',
      })
      expect(solr.fallback).toBeUndefined()
      // the IDFs' statistics are the collection's (2 shards), not the shard's
      expect(solr.statistics!.docCount).toBe(reader.docCount)
      for (const t of solr.statistics!.terms) {
        expect(t).toEqual({
          term: t.term,
          title: reader.docFreq('title', t.term),
          abstract: reader.docFreq('abstract', t.term),
          any: reader.docFreqAny(t.term, ['title', 'abstract']),
        })
      }
      expect(solr.hits.map((h) => h.id).sort()).toEqual(first.hits.map((h) => h.id).sort())

      // the reference: the embedded extractor over the same candidates, Solr's scores and total
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
        expect(got.firstStageScore).toBe(hit.score)
        for (let c = 0; c < width; c++) {
          const want = matrix.data[i * width + c]!
          const have = got.features![c]!
          const feature = BEST_MATCH_SCHEMA.features[c]!
          if (Number.isInteger(want) && feature.id !== 'F143') {
            // counts, one-hot values, positions of whole numbers: exactly
            expect([hit.id, feature.id, have]).toEqual([hit.id, feature.id, want])
          }
          if (relative(have, want) > columnMax[c]!) {
            worst.set(c, `${q.text} ${hit.id} ${have} ${want}`)
          }
          columnMax[c] = Math.max(columnMax[c]!, relative(have, want))
        }
        scoreMax = Math.max(scoreMax, relative(got.modelScore!, scores[i]!))
        floatMax = Math.max(floatMax, relative(got.score, scores[i]!))
        rows++
      })

      // the embedded order: model score, ties by first-stage rank. Solr's coordinator merges the
      // shards' lists by their 32-bit float scores, so equal floats are ties there: the ranking
      // agrees with the embedded one up to the order within a group of equal float scores.
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
    const report = BEST_MATCH_SCHEMA.features
      .map((feature, c) => ({ feature: feature.id, max: columnMax[c]!, worst: worst.get(c) }))
      .filter((entry) => entry.max > 0)
    console.log(
      JSON.stringify({
        orderMismatches,
        queries: used,
        rows,
        rankedAlike: ranked,
        tiedExactly,
        tiedAsFloat,
        modelScoreMaxRelative: scoreMax,
        floatScoreMaxRelative: floatMax,
        columnsNotExact: report,
      }),
    )
    expect(used).toBeGreaterThanOrEqual(15)
    expect(orderMismatches).toEqual([])
    for (let c = 0; c < width; c++) {
      expect([BEST_MATCH_SCHEMA.features[c]!.id, columnMax[c]! <= 1e-9]).toEqual([
        BEST_MATCH_SCHEMA.features[c]!.id,
        true,
      ])
    }
    expect(scoreMax).toBeLessThanOrEqual(1e-6)
    expect(floatMax).toBeLessThanOrEqual(1e-6)
  })

  it('reads past usage (F2–F3) written in place from a click log, as the embedded engine reads the same log', async () => {
    const { reader, forwardStore } = engineInternals(engine)
    const firstStage = createSolrFirstStage(firstStageOptions)
    const reranker = createSolrReranker({ ...firstStageOptions, model: 'sample' })
    const query = queries.find((q) => engine.firstStageSearch(q.text).total >= 30)!
    const before = await firstStage.search(query.text, { limit: DEPTH })
    const shown = before.hits.slice(0, 20)
    // a log: one search showing 20 hits; hit i opened (i mod 3) + 1 times, every fourth's full
    // text requested once; and a click on a document the collection does not hold
    const time = '2026-11-01T10:00:00.000Z'
    const log = (ids: readonly string[]): LogEvent[] => [
      {
        type: 'search',
        id: 's1',
        time,
        session: 'u1',
        query: query.text,
        filters: [],
        total: before.total,
        results: [...ids, 'NOT-IN-COLLECTION'].map((id, i) => ({ position: i + 1, id })),
      },
      ...[...ids, 'NOT-IN-COLLECTION'].flatMap((id, i): LogEvent[] => [
        ...Array.from({ length: (i % 3) + 1 }, (): LogEvent => ({ type: 'action', time, session: 'u1', search: 's1', id, position: i + 1, kind: 'abstract_click' })),
        ...(i % 4 === 0 ? [{ type: 'action', time, session: 'u1', search: 's1', id, position: i + 1, kind: 'fulltext_request' } as const] : []),
      ]),
    ]
    const compare = async (logDir: string): Promise<{ f2: Map<string, number>; rows: number }> => {
      const usage = await readUsage(logDir)
      const extractor = bestMatchExtractor({ reader, forward: await forwardStore(), syntax: engine.firstStage.syntax }, usage.total)
      const first = await firstStage.search(query.text, { limit: DEPTH })
      const solr = await reranker.rerank(query.text, first, { rows: first.hits.length, features: true, outOfRange: 'rerank' })
      const matrix = extractor.extract(query.text, {
        hits: first.hits.map((hit) => ({ id: hit.id, docNumber: reader.docNumber(hit.id)!, score: hit.score, rank: hit.rank })),
        total: first.total,
        totalRelation: 'eq',
        query: first.query,
        warnings: [],
        stats: { docsScored: 0, postingsScored: 0, docsMatched: first.total, windows: 0, blocksSkipped: 0, clauses: 0, pruned: false },
      })
      const width = BEST_MATCH_SCHEMA.features.length
      const byId = new Map(solr.hits.map((hit) => [hit.id, hit]))
      const f2 = new Map<string, number>()
      first.hits.forEach((hit, i) => {
        const got = byId.get(hit.id)!.features!
        // F2 and F3 (columns 1 and 2), and every other column, as the embedded extractor's
        expect([hit.id, got.slice(1, 3)]).toEqual([hit.id, Array.from(matrix.data.subarray(i * width + 1, i * width + 3))])
        for (let c = 0; c < width; c++) {
          expect(relative(got[c]!, matrix.data[i * width + c]!)).toBeLessThanOrEqual(1e-9)
        }
        f2.set(hit.id, got[1]!)
      })
      return { f2, rows: first.hits.length }
    }

    const logA = join(work, 'usage-a')
    const storeA = createLogStore(logA)
    await storeA.append(log(shown.map((hit) => hit.id)))
    await storeA.close()
    const pushed = await pushUsage({ client, collection: COLLECTION, usage: await readUsage(logA), batchSize: 7 })
    expect(pushed).toEqual({ documents: 21, updated: 20, reset: 0, unknown: 1, unknownIds: ['NOT-IN-COLLECTION'] })
    const a = await compare(logA)
    // hand-derived: hit 0 opened once, hit 1 twice, hit 2 three times, hit 3 once…
    expect(shown.map((hit) => a.f2.get(hit.id))).toEqual(shown.map((_, i) => (i % 3) + 1))
    // the update was in place: the articles keep their indexed-only fields (same first stage)
    const after = await firstStage.search(query.text, { limit: DEPTH })
    expect(after.hits.map((hit) => [hit.id, hit.score])).toEqual(before.hits.map((hit) => [hit.id, hit.score]))
    expect(after.total).toBe(before.total)

    // a newer log without the first 5 documents: theirs go back to 0
    const logB = join(work, 'usage-b')
    const storeB = createLogStore(logB)
    await storeB.append(log(shown.slice(5).map((hit) => hit.id)))
    await storeB.close()
    const again = await pushUsage({ client, collection: COLLECTION, usage: await readUsage(logB) })
    expect(again).toMatchObject({ documents: 16, updated: 15, reset: 5, unknown: 1 })
    const b = await compare(logB)
    expect(shown.slice(0, 5).map((hit) => b.f2.get(hit.id))).toEqual([0, 0, 0, 0, 0])
    expect(shown.slice(5).map((hit) => b.f2.get(hit.id))).toEqual(shown.slice(5).map((_, i) => (i % 3) + 1))
  })

  it('keeps the first stage’s order for a query outside the model’s range, and says why', async () => {
    const firstStage = createSolrFirstStage(firstStageOptions)
    const reranker = createSolrReranker({ ...firstStageOptions, model: 'sample' })
    // F178 (words of the query): far more than any MeSH heading of the training queries has
    const text = Array.from({ length: 40 }, () => 'cell').join(' ')
    const first = await firstStage.search(text, { limit: DEPTH })
    expect(first.hits.length).toBeGreaterThan(1)
    const kept = await reranker.rerank(text, first, { rows: first.hits.length, features: true })
    expect(kept.fallback).toMatchObject({ feature: 'F178', value: 40 })
    // first-stage order and scores (equal scores may come in another order: Solr breaks them by
    // internal doc id and shard, the first stage by id)
    expect(kept.hits.map((hit) => hit.score)).toEqual(first.hits.map((hit) => hit.score))
    expect(kept.hits.map((hit) => hit.id).sort()).toEqual(first.hits.map((hit) => hit.id).sort())
    expect(kept.hits.every((hit) => hit.modelScore === null && hit.features?.length === 179)).toBe(
      true,
    )
    const reranked = await reranker.rerank(text, first, { rows: 5, outOfRange: 'rerank' })
    expect(reranked.fallback).toBeUndefined()
    // an unknown model is Solr's 404, named
    const unknown = createSolrReranker({ ...firstStageOptions, model: 'missing' })
    await expect(unknown.rerank(text, first)).rejects.toThrow(/missing/)
  })
})
