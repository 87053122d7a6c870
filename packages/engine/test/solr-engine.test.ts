/**
 * The Solr-only engine (`openSolrEngine`) against the embedded engine with its first stage in the
 * same collection (`attachSolrBackend`: Solr's ranking, the local index's records): the bundled
 * sample corpus indexed into a local SolrCloud (2 shards) and into the embedded engine. Same ids,
 * ranks, scores, records, highlights and totals on the first page of every query; facets equal to
 * the embedded engine's counts over the same matching set; `document(id)` equal to the local
 * store's record; the date sort and a later page; the explanation tree's shape; a model folder
 * refused (a Solr-only engine reranks with a model deployed in the collection:
 * solr-engine-rerank.test.ts).
 * Needs the Maven module of `@pubmatch/solr` built; CI always has it, so there it never skips.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import {
  createSolrClient,
  indexCorpus,
  javaBuilt,
  startLocalCluster,
  type LocalCluster,
} from '@pubmatch/solr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSearch, type SearchEngine } from '../src/search-engine.ts'
import { attachSolrBackend, type SolrSearch } from '../src/solr-backend.ts'
import { openSolrEngine, type SolrEngine } from '../src/solr-engine.ts'
import { sampleIndex } from './sample.ts'

const RUN = javaBuilt() || process.env.CI !== undefined

const QUERIES = [
  'review[pt]',
  'eng[la] AND 2004:2006[dp]',
  '16000000:16999999[pmid] OR 2005[dp]',
  'journal article[pt] NOT eng[la]',
  'cancer',
  'breast cancer',
  '"heart rate"',
  'protein[ti]',
  'cells NOT mice',
  'patients AND (therapy OR treatment)',
  'gene expression[tiab]',
  'smith*[au]',
  'neoplasms[mh]',
  'child* AND asthma',
  'humans[mh] AND randomized controlled trial[pt]',
]

describe.runIf(RUN)('a Solr-only engine over a local SolrCloud', () => {
  let work: string
  let cluster: LocalCluster | undefined
  let embedded: SearchEngine
  let attached: SolrSearch
  let solrOnly: SolrEngine

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-engine-'))
    const [started, sample] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      sampleIndex(work),
    ])
    cluster = started
    const client = createSolrClient({ urls: cluster.urls(), backoffMs: 100, retries: 8 })
    const indexed = await indexCorpus({
      client,
      corpus: sample.corpus,
      collection: 'serve',
      shards: 2,
      replicas: 1,
    })
    expect(indexed.errorList).toEqual([])
    const backend = `solr://${cluster
      .urls()
      .map((url) => new URL(url).host)
      .join(',')}/solr/serve`
    embedded = await openSearch({ index: sample.index })
    attached = await attachSolrBackend(embedded, { backend })
    solrOnly = await openSolrEngine({ backend })
  })

  afterAll(async () => {
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  it('counts the articles and records the first stage as the embedded engine does', () => {
    expect(solrOnly.docCount).toBe(embedded.docCount)
    expect(solrOnly.firstStage).toEqual(embedded.firstStage)
  })

  it('answers the first page of every query as the embedded engine with its first stage in Solr', async () => {
    for (const query of QUERIES) {
      const [mine, theirs] = await Promise.all([
        solrOnly.search(query, { limit: 20 }),
        attached.search(query, { limit: 20 }),
      ])
      expect(theirs.total, query).toBeGreaterThan(0)
      expect({ query, total: mine.total, relation: mine.totalRelation }).toEqual({
        query,
        total: theirs.total,
        relation: theirs.totalRelation,
      })
      expect(mine.warnings).toEqual(theirs.warnings)
      const shown = (page: typeof theirs): unknown[] =>
        page.hits.map((hit) => ({
          id: hit.id,
          rank: hit.rank,
          score: hit.score,
          firstStage: { rank: hit.firstStage.rank, score: hit.firstStage.score },
          document: hit.document,
          highlights: embedded.highlights(hit.document, query),
        }))
      const mineShown = mine.hits.map((hit) => ({
        id: hit.id,
        rank: hit.rank,
        score: hit.score,
        firstStage: { rank: hit.firstStage.rank, score: hit.firstStage.score },
        document: hit.document,
        highlights: solrOnly.highlights(hit.document, query),
      }))
      expect(mineShown, query).toEqual(shown(theirs))
    }
  })

  it('counts facets over the matching set as the embedded engine does', async () => {
    for (const query of QUERIES) {
      const [mine, local] = await Promise.all([
        solrOnly.search(query, { limit: 5, facets: true }),
        Promise.resolve(embedded.search(query, { limit: 5, facets: true })),
      ])
      expect(mine.total, query).toBe(local.total)
      expect(mine.facets, query).toEqual(local.facets)
      expect(mine.facets!.years.reduce((sum, year) => sum + year.count, 0)).toBeLessThanOrEqual(
        mine.total,
      )
    }
    const filtered = await solrOnly.search('cancer', {
      facets: true,
      filters: { languages: ['eng'] },
    })
    expect(filtered.facets!.languages.map((l) => l.value)).toEqual(['eng'])
    expect(filtered.facets).toEqual(
      embedded.search('cancer', { facets: true, filters: { languages: ['eng'] } }).facets,
    )
  })

  it('pages and sorts by date as the embedded engine does', async () => {
    for (const options of [
      { offset: 20, limit: 10 },
      { sort: 'date' as const, limit: 15 },
      { sort: 'date' as const, offset: 10, limit: 10 },
      { filters: { years: [2000, 2006] as const }, limit: 10 },
    ]) {
      for (const query of ['cancer', 'patients AND (therapy OR treatment)', 'review[pt]']) {
        const [mine, theirs] = await Promise.all([
          solrOnly.search(query, options),
          attached.search(query, options),
        ])
        const slim = (page: typeof theirs): unknown =>
          page.hits.map((hit) => ({
            id: hit.id,
            rank: hit.rank,
            firstStage: { rank: hit.firstStage.rank, score: hit.firstStage.score },
            document: hit.document,
          }))
        expect({ query, options, total: mine.total, hits: slim(mine) }).toEqual({
          query,
          options,
          total: theirs.total,
          hits: slim(theirs),
        })
      }
    }
  })

  it("gives every document the local store's record", async () => {
    for (const query of ['cancer', 'review[pt]']) {
      for (const hit of embedded.search(query, { limit: 30 }).hits) {
        expect(await solrOnly.document(hit.id)).toEqual(embedded.document(hit.id))
      }
    }
    expect(await solrOnly.document('_pubmatch_state')).toBeUndefined()
    expect(await solrOnly.document('99999999999')).toBeUndefined()
  })

  it("explains a score with Solr's bm25f tree in pubmatch's shape, and a document's rank", async () => {
    const page = await solrOnly.search('breast cancer', { limit: 3, explain: true })
    for (const hit of page.hits) {
      const tree = hit.firstStage.explain!
      expect(tree.label).toBe('bm25f')
      expect(tree.value).toBeCloseTo(hit.score, 4)
      // the sum over the terms, each idf · tf~ / (k1 + tf~)
      expect(tree.details.reduce((sum, term) => sum + term.value, 0)).toBeCloseTo(tree.value, 4)
      for (const term of tree.details) {
        expect(term.details.map((d) => d.label)).toEqual(['tf~', 'k1', 'idf'])
        const [tf, k1, idf] = term.details as [typeof term, typeof term, typeof term]
        expect(idf.value * (tf.value / (k1.value + tf.value))).toBeCloseTo(term.value, 4)
        expect(idf.details.map((d) => d.label)).toEqual(['N', 'n'])
        for (const field of tf.details) {
          expect(field.details.map((d) => d.label)).toEqual([
            'occ(t,f)',
            'w(f)',
            'b(f)',
            'l(f)',
            'avgl(f)',
          ])
        }
      }
      // the same terms as the embedded explanation
      const local = embedded.explain(hit.id, 'breast cancer')
      expect(tree.details.map((term) => term.label).sort()).toEqual(
        local.firstStage!.explain!.details.map((term) => term.label).sort(),
      )
    }
    const second = page.hits[1]!
    const explained = await solrOnly.explain(second.id, 'breast cancer')
    expect(explained).toMatchObject({
      id: second.id,
      matches: true,
      firstStage: { rank: 2, score: second.score },
      document: second.document,
    })
    const outside = await solrOnly.explain(second.id, 'zzzunmatched')
    expect(outside).toMatchObject({ matches: false, document: second.document })
    expect(outside.firstStage).toBeUndefined()
    await expect(solrOnly.explain('99999999999', 'cancer')).rejects.toSatisfy((error) =>
      isPubmatchError(error, 'NOT_FOUND'),
    )
  })

  it('writes the same run as the embedded engine with its first stage in Solr', async () => {
    for (const query of ['cancer', 'cells NOT mice']) {
      const [mine, theirs] = await Promise.all([solrOnly.run(query, 100), attached.run(query, 100)])
      expect(mine.hits).toEqual(theirs.hits)
    }
  })

  it('refuses a model not deployed in the collection, and pseudo relevance feedback, with the reason', async () => {
    // a model is a name deployed in the collection (see solr-engine-rerank.test.ts), not a folder
    await expect(
      openSolrEngine({ backend: solrOnly.openedWith.backend, model: join(work, 'model') }),
    ).rejects.toSatisfy(
      (error) =>
        isPubmatchError(error, 'NOT_FOUND') &&
        /is not deployed in collection serve/.test(error.message),
    )
    await expect(solrOnly.search('cancer', { prf: true })).rejects.toSatisfy((error) =>
      isPubmatchError(error, 'INVALID_ARGUMENT'),
    )
  })
})
