/**
 * A Solr-only engine with a model deployed in its collection (`openSolrEngine({ backend, model:
 * NAME })`: both stages on the shards) against the embedded engine with the same model over the
 * same collection's first stage (`attachSolrBackend`: Solr's candidates, the local features and
 * model): the bundled sample indexed into a local SolrCloud (2 shards) and into the embedded
 * engine, a model trained on the sample (fixture judgements: MeSH headings) saved as a folder and
 * deployed into the collection. On 15 queries: the same first page (ids, ranks, model scores,
 * first-stage ranks and scores, records), a page across the reranked head and the first stage's
 * tail, the same TREC run, the same fallbacks, and the same explanation (the 179 values and the
 * per-feature contributions, within 1e-9 relative). Needs the Maven module of `@pubmatch/solr`
 * built; CI always has it, so there it never skips.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import type { FeatureContribution } from '@pubmatch/ltr'
import {
  createSolrClient,
  deployModel,
  indexCorpus,
  javaBuilt,
  startLocalCluster,
  type LocalCluster,
} from '@pubmatch/solr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSearch, type EngineResult, type SearchEngine } from '../src/search-engine.ts'
import { attachSolrBackend, type SolrSearch } from '../src/solr-backend.ts'
import { openSolrEngine, type SolrEngine } from '../src/solr-engine.ts'
import { meshQueries, sampleIndex, trainSampleModel } from './sample.ts'

const RUN = javaBuilt() || process.env.CI !== undefined
const COLLECTION = 'serve'
const MODEL = 'sample'

/** |a − b| relative to the larger magnitude (0 when both are 0). */
function relative(a: number, b: number): number {
  const scale = Math.max(Math.abs(a), Math.abs(b))
  return scale === 0 ? 0 : Math.abs(a - b) / scale
}

describe.runIf(RUN)('a Solr-only engine reranking on the shards with a deployed model', () => {
  let work: string
  let cluster: LocalCluster | undefined
  let backend: string
  let embedded: SearchEngine
  let attached: SolrSearch
  let solrOnly: SolrEngine
  let queries: string[]
  const measured = {
    scoreMax: 0,
    contributionMax: 0,
    explained: 0,
    pages: 0,
    runs: 0,
    fallbacks: 0,
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-engine-rerank-'))
    const [started, sample] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      sampleIndex(work),
    ])
    cluster = started
    const client = createSolrClient({ urls: cluster.urls(), backoffMs: 100, retries: 8 })
    const indexed = await indexCorpus({
      client,
      corpus: sample.corpus,
      collection: COLLECTION,
      shards: 2,
      replicas: 1,
    })
    expect(indexed.errorList).toEqual([])
    backend = `solr://${cluster
      .urls()
      .map((url) => new URL(url).host)
      .join(',')}/solr/${COLLECTION}`
    const plain = await openSearch({ index: sample.index })
    const labelled = await meshQueries(sample.corpus)
    await trainSampleModel(plain, labelled, join(work, 'model'))
    await deployModel({ client, collection: COLLECTION, dir: join(work, 'model'), name: MODEL })
    embedded = await openSearch({ index: sample.index, model: join(work, 'model') })
    attached = await attachSolrBackend(embedded, { backend })
    solrOnly = await openSolrEngine({ backend, model: MODEL })
    // the MeSH headings with the most matches (the training queries' kind), and three others
    // (a longer query outside the model's range falls back)
    const totals = labelled.map((q) => ({
      text: q.text,
      total: plain.firstStageSearch(q.text).total,
    }))
    queries = [
      ...totals
        .sort((a, b) => b.total - a.total || (a.text < b.text ? -1 : 1))
        .slice(0, 12)
        .map((q) => q.text),
      'breast cancer',
      'patients AND (therapy OR treatment)',
      'review[pt]',
    ]
  })

  afterAll(async () => {
    console.log(JSON.stringify({ queries: queries?.length, ...measured }))
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  const slim = (page: EngineResult): unknown => ({
    total: page.total,
    reranked: page.reranked,
    fallback: page.fallback,
    hits: page.hits.map((hit) => ({
      id: hit.id,
      rank: hit.rank,
      firstStage: { rank: hit.firstStage.rank, score: hit.firstStage.score },
      document: hit.document,
      reranked: hit.secondStage !== undefined,
    })),
  })

  /** Scores agree within 1e-9 relative (the same doubles are expected); returns the largest difference. */
  const sameScores = (mine: readonly number[], theirs: readonly number[]): void => {
    expect(mine).toHaveLength(theirs.length)
    mine.forEach((score, i) => {
      measured.scoreMax = Math.max(measured.scoreMax, relative(score, theirs[i]!))
    })
    expect(measured.scoreMax).toBeLessThanOrEqual(1e-9)
  }

  const sameContributions = (
    mine: { bias: number; contributions: readonly FeatureContribution[] },
    theirs: { bias: number; contributions: readonly FeatureContribution[] },
  ): void => {
    measured.contributionMax = Math.max(measured.contributionMax, relative(mine.bias, theirs.bias))
    expect(mine.contributions.map((c) => [c.feature, c.value])).toEqual(
      theirs.contributions.map((c) => [c.feature, c.value]),
    )
    mine.contributions.forEach((c, i) => {
      measured.contributionMax = Math.max(
        measured.contributionMax,
        relative(c.contribution, theirs.contributions[i]!.contribution),
      )
    })
    expect(measured.contributionMax).toBeLessThanOrEqual(1e-9)
  }

  it('opens with the deployed model, as the embedded engine opens its folder', () => {
    expect(solrOnly.model).toMatchObject({
      name: MODEL,
      id: embedded.model!.id,
      depth: embedded.model!.depth,
      manifest: embedded.model!.manifest,
    })
    expect(solrOnly.firstStage).toEqual(embedded.firstStage)
  })

  it('answers the first page of every query as the embedded engine over the same first stage', async () => {
    let reranked = 0
    for (const query of queries) {
      const [mine, theirs] = await Promise.all([
        solrOnly.search(query, { limit: 20 }),
        attached.search(query, { limit: 20 }),
      ])
      expect(theirs.hits.length, query).toBeGreaterThan(0)
      expect({ query, ...(slim(mine) as object) }).toEqual({ query, ...(slim(theirs) as object) })
      sameScores(
        mine.hits.map((hit) => hit.score),
        theirs.hits.map((hit) => hit.score),
      )
      sameScores(
        mine.hits.flatMap((hit) => (hit.secondStage === undefined ? [] : [hit.secondStage.score])),
        theirs.hits.flatMap((hit) =>
          hit.secondStage === undefined ? [] : [hit.secondStage.score],
        ),
      )
      reranked += mine.reranked ? 1 : 0
      measured.fallbacks += mine.fallback === undefined ? 0 : 1
      measured.pages++
    }
    // most queries are reranked, at least one falls back
    expect(reranked).toBeGreaterThanOrEqual(10)
    expect(measured.fallbacks).toBeGreaterThanOrEqual(1)
  })

  it('pages across the reranked head and the first stage’s tail, and leaves the model out on request', async () => {
    const depth = solrOnly.model!.depth
    for (const query of queries.slice(0, 6)) {
      for (const options of [
        { offset: depth - 10, limit: 20 },
        { offset: depth + 5, limit: 10 },
        { offset: 3, limit: 4, rerank: false },
        { limit: 5, sort: 'date' as const },
      ]) {
        const [mine, theirs] = await Promise.all([
          solrOnly.search(query, options),
          attached.search(query, options),
        ])
        expect({ query, options, ...(slim(mine) as object) }).toEqual({
          query,
          options,
          ...(slim(theirs) as object),
        })
        sameScores(
          mine.hits.map((hit) => hit.score),
          theirs.hits.map((hit) => hit.score),
        )
        measured.pages++
      }
    }
  })

  it('explains each hit of a page with the embedded reranker’s contributions', async () => {
    for (const query of queries.slice(0, 4)) {
      const [mine, theirs] = await Promise.all([
        solrOnly.search(query, { limit: 10, explain: true }),
        attached.search(query, { limit: 10, explain: true }),
      ])
      expect(slim(mine)).toEqual(slim(theirs))
      mine.hits.forEach((hit, i) => {
        const want = theirs.hits[i]!
        expect(hit.firstStage.explain?.label).toBe('bm25f')
        if (want.secondStage?.explain === undefined) {
          expect(hit.secondStage?.explain).toBeUndefined()
          return
        }
        sameContributions(hit.secondStage!.explain!, want.secondStage.explain)
        measured.explained++
      })
    }
  })

  it('explains a document as the embedded engine: rank and score after reranking, values and contributions', async () => {
    const depth = solrOnly.model!.depth
    for (const query of queries) {
      // the reference: the embedded reranker over Solr's candidates, every candidate explained
      const reference = await attached.search(query, { limit: depth, explain: true })
      const picks = [0, 1, 6, reference.hits.length - 1].filter(
        (i, k, all) => i >= 0 && i < reference.hits.length && all.indexOf(i) === k,
      )
      for (const i of picks) {
        const want = reference.hits[i]!
        const mine = await solrOnly.explain(want.id, query)
        expect(mine.matches).toBe(true)
        expect(mine.firstStage).toMatchObject({
          rank: want.firstStage.rank,
          score: want.firstStage.score,
        })
        expect(mine.firstStage!.explain?.label).toBe('bm25f')
        expect(mine.fallback).toEqual(reference.fallback)
        if (reference.fallback !== undefined) {
          // the embedded engine explains a fallen-back query's candidates reranked all the same
          expect(mine.secondStage).toBeDefined()
          continue
        }
        expect(mine.secondStage!.rank).toBe(want.rank)
        sameScores([mine.secondStage!.score], [want.secondStage!.score])
        sameContributions(mine.secondStage!, want.secondStage!.explain!)
        measured.explained++
      }
    }
    // a document beyond the candidates: the first stage's explanation only
    const query = queries[0]!
    const deep = await solrOnly.search(query, { offset: depth, limit: 1 })
    if (deep.hits.length > 0) {
      const beyond = await solrOnly.explain(deep.hits[0]!.id, query)
      expect(beyond.matches).toBe(true)
      expect(beyond.secondStage).toBeUndefined()
    }
    await expect(solrOnly.explain('99999999999', query)).rejects.toSatisfy((error) =>
      isPubmatchError(error, 'NOT_FOUND'),
    )
  })

  it('writes the same run as the embedded engine with the same model over the same first stage', async () => {
    for (const query of queries) {
      const [mine, theirs] = await Promise.all([solrOnly.run(query, 100), attached.run(query, 100)])
      expect({
        query,
        ids: mine.hits.map((hit) => [hit.id, hit.rank]),
        fallback: mine.fallback,
      }).toEqual({
        query,
        ids: theirs.hits.map((hit) => [hit.id, hit.rank]),
        fallback: theirs.fallback,
      })
      sameScores(
        mine.hits.map((hit) => hit.score),
        theirs.hits.map((hit) => hit.score),
      )
      measured.runs++
    }
    // the default depth of a run: the model's
    const [mine, theirs] = await Promise.all([solrOnly.run(queries[0]!), attached.run(queries[0]!)])
    expect(mine.hits.map((hit) => hit.id)).toEqual(theirs.hits.map((hit) => hit.id))
  })

  it('refuses a model the collection does not hold, or one of another first stage, at open', async () => {
    await expect(openSolrEngine({ backend, model: 'absent' })).rejects.toSatisfy(
      (error) =>
        isPubmatchError(error, 'NOT_FOUND') &&
        /model absent is not deployed in collection serve \(it holds sample\)/.test(error.message),
    )
    await expect(
      openSolrEngine({ backend, model: MODEL, ranking: { match: 'any' } }),
    ).rejects.toSatisfy(
      (error) => isPubmatchError(error, 'SCHEMA_MISMATCH') && /match/.test(error.message),
    )
    // a past deadline
    await expect(
      solrOnly.search(queries[0]!, { deadline: performance.now() - 1 }),
    ).rejects.toSatisfy((error) => isPubmatchError(error, 'TIMEOUT'))
  })

  it('reranks with a deployed model that has a query memory (M1–M3) as the embedded engine with its folder', async () => {
    const client = createSolrClient({ urls: cluster!.urls(), backoffMs: 100, retries: 8 })
    const sample = await sampleIndex(work)
    const plain = await openSearch({ index: sample.index })
    await trainSampleModel(plain, await meshQueries(sample.corpus), join(work, 'model-memory'), { k: 20 })
    await deployModel({
      client,
      collection: COLLECTION,
      dir: join(work, 'model-memory'),
      name: 'sample-memory',
    })
    const withMemory = await openSearch({ index: sample.index, model: join(work, 'model-memory') })
    const reference = await attachSolrBackend(withMemory, { backend })
    const served = await openSolrEngine({ backend, model: 'sample-memory' })
    expect(served.model!.manifest.schema.features.slice(-3)).toEqual(['M1', 'M2', 'M3'])
    for (const query of queries) {
      const [mine, theirs] = await Promise.all([served.run(query, 100), reference.run(query, 100)])
      expect({
        query,
        ids: mine.hits.map((hit) => [hit.id, hit.rank]),
        fallback: mine.fallback,
      }).toEqual({
        query,
        ids: theirs.hits.map((hit) => [hit.id, hit.rank]),
        fallback: theirs.fallback,
      })
      sameScores(
        mine.hits.map((hit) => hit.score),
        theirs.hits.map((hit) => hit.score),
      )
    }
  })
})
