/**
 * The Solr backend on a real local SolrCloud (2 nodes, embedded ZooKeeper, started by this test
 * through `startLocalCluster`): indexing a real PubMed sample, the translation's match sets
 * against the embedded searcher, shard-independent scores (ExactStatsCache), resuming, and a
 * node failure during a stream of queries. Needs the Maven module built (`pnpm build` with a
 * JDK 17 and Maven); CI always has it, so there these tests never skip.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAnalyzer } from '@pubmatch/analysis'
import { createSearcher, type FirstStageRanker } from '@pubmatch/bm25f'
import { buildIndex, defaultPubmedFields, openIndex } from '@pubmatch/index'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSolrClient, type SolrClient } from '../src/client.ts'
import { javaBuilt, startLocalCluster, type LocalCluster } from '../src/cluster.ts'
import { solrFields } from '../src/configset.ts'
import { createCollection, indexCorpus, readCollectionState } from '../src/indexer.ts'
import { createSolrFirstStage, type SolrFirstStage } from '../src/search.ts'

const RUN = javaBuilt() || process.env.CI !== undefined

describe.skipIf(!RUN)('a local SolrCloud', () => {
  let work: string
  let cluster: LocalCluster
  let client: SolrClient
  let solr: SolrFirstStage
  let embedded: FirstStageRanker
  const corpus = (): string => join(work, 'corpus')

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-'))
    const [started] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      (async () => {
        const store = await openCorpus(corpus(), { create: true })
        await ingestFiles(store, [samplePath('pubmed', 'medline16n0902.xml.gz'), samplePath('pubmed', 'medsamp2006.xml')], {
          readers: defaultReaders(),
        })
        await buildIndex(store.articles(), join(work, 'index'), { fields: defaultPubmedFields() })
        await store.close()
      })(),
    ])
    cluster = started
    client = createSolrClient({ urls: cluster.urls(), backoffMs: 100, retries: 8 })
    const reader = await openIndex(join(work, 'index'))
    embedded = createSearcher(reader, { match: 'all' })
    solr = createSolrFirstStage({ client, collection: 'pubmed', fields: solrFields('pubmed'), analyzer: getAnalyzer('biomedical'), match: 'all' })
  })

  afterAll(async () => {
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  it('indexes a corpus into 2 shards × 2 replicas and resumes after the last committed segment', async () => {
    const first = await indexCorpus({ client, corpus: corpus(), collection: 'pubmed', shards: 2, replicas: 2, batchSize: 200 })
    expect(first.created).toBe(true)
    // medline16n0902: 604 citations and one DeleteCitation of a PMID it does not hold; medsamp2006: 88
    expect(first.added).toBe(692)
    expect(first.errorList).toEqual([])
    const state = await readCollectionState(client, 'pubmed')
    expect(state?.corpusSegment).toBe(first.corpusSegment)
    expect(state?.fieldSet).toBe('pubmed')
    const again = await indexCorpus({ client, corpus: corpus(), collection: 'pubmed' })
    expect(again).toMatchObject({ created: false, added: 0, segments: 0, resumedAfter: first.corpusSegment })
    const all = await client.request({ path: 'pubmed/select', params: { q: '{!lucene v=$x}', x: 'title:[* TO *]', rows: 0 } })
    expect((all.response as { numFound: number }).numFound).toBe(692)
  })

  it('never shows half a corpus segment: an interrupted run leaves the last whole segment, and the next run finishes', async () => {
    const controller = new AbortController()
    let firstSegment: string | undefined
    const interrupted = await indexCorpus({
      client,
      corpus: corpus(),
      collection: 'resume',
      shards: 2,
      replicas: 1,
      batchSize: 50,
      signal: controller.signal,
      onProgress: ({ segment }) => {
        firstSegment ??= segment
        // stop once a batch of the second segment (medsamp2006) has reached Solr, uncommitted
        if (segment !== firstSegment) {
          controller.abort()
        }
      },
    }).catch((error: unknown) => error)
    expect(interrupted).toMatchObject({ code: 'ABORTED' })
    const visible = async (): Promise<number> =>
      ((await client.request({ path: 'resume/select', params: { q: '{!lucene v=$x}', x: 'title:[* TO *]', rows: 0 } })).response as { numFound: number }).numFound
    expect((await readCollectionState(client, 'resume'))?.corpusSegment).toBe(firstSegment)
    // medline16n0902's 604 citations; none of the 50 medsamp2006 documents already sent
    expect(await visible()).toBe(604)
    const resumed = await indexCorpus({ client, corpus: corpus(), collection: 'resume' })
    expect(resumed).toMatchObject({ created: false, resumedAfter: firstSegment, added: 88, segments: 1 })
    expect(await visible()).toBe(692)
  })

  it('matches the same documents as the embedded searcher for Boolean, tagged, phrase and date queries', async () => {
    // Solr's analysis chain only approximates pubmatch's tokenizer, but on this sample every set is the same
    const queries = [
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
    ]
    for (const query of queries) {
      const [mine, theirs] = [await solr.search(query, { limit: 1000 }), embedded.search(query, { limit: 1000 })]
      expect({ query, total: mine.total }).toEqual({ query, total: theirs.total })
      expect(theirs.total, query).toBeGreaterThan(0)
      expect(new Set(mine.hits.map((h) => h.id))).toEqual(new Set(theirs.hits.map((h) => h.id)))
    }
  })

  it('matches the same documents as the embedded searcher for every kind of PubMed field tag', async () => {
    const queries = [
      '18[vi]',
      '6[ip]',
      '546[pg]',
      'lin[au]',
      'lin c[au]',
      '"lin cc"[au]',
      'chen[lastau]',
      'comeglio p[1au]',
      'spector reynold[fau]',
      'spector reynold[au]',
      'tufts[ad]',
      '"johnson center"[ad:~1]',
      'nci[gr]',
      'genbank[si]',
      '9007-49-2[rn]',
      'history[sh]',
      'therapy[sh]',
      'therapy[sh:noexp]',
      'pharmacology[sh]',
      'administration and dosage[sh]',
      'pubmednotmedline[sb]',
      'hasabstract',
      'humans[filter] AND 2002/09[dcom]',
      '2003[lr]',
      '"lucha contra el tabaco"[tt]',
      '9215429[jid]',
      'norway[pl]',
      'sherrington[ps]',
      'tufts[all]',
      'norway[all]',
      'nci[all]',
      'english[all]',
      'cell[all]',
    ]
    for (const query of queries) {
      const [mine, theirs] = [await solr.search(query, { limit: 1000 }), embedded.search(query, { limit: 1000 })]
      expect({ query, total: mine.total }).toEqual({ query, total: theirs.total })
      expect(theirs.total, query).toBeGreaterThan(0)
      expect(new Set(mine.hits.map((h) => h.id))).toEqual(new Set(theirs.hits.map((h) => h.id)))
    }
  })

  it('scores one field exactly as BM25 up to Lucene\'s one-byte length norms', async () => {
    // with one field the two BM25Fs are the same formula, w·tf / (w·tf + k1·(1 − b + b·l/avgl)) · idf;
    // Lucene keeps lengths in one byte (exact up to 40 tokens, then ~6 % steps) and counts N as the
    // documents with a title, so scores agree closely but not exactly (measured: ≤ 2.9 %)
    const [mine, theirs] = [await solr.search('protein[ti]', { limit: 100 }), embedded.search('protein[ti]', { limit: 100 })]
    const expected = new Map(theirs.hits.map((hit) => [hit.id, hit.score]))
    for (const hit of mine.hits) {
      expect(Math.abs(hit.score - expected.get(hit.id)!) / expected.get(hit.id)!, hit.id).toBeLessThan(0.03)
    }
  })

  it('scores a document the same whichever shard holds it (global statistics)', async () => {
    await createCollection(client, { collection: 'stats', fieldSet: 'test-collection', shards: 2, replicas: 1 })
    // 30 documents about zebrafish all routed to one shard (compositeId prefix "a!"), none to the other:
    // with shard-local statistics the idf of "zebrafish" would differ by shard
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: `a!${i}`, title: ['zebrafish development'], abstract: [`zebrafish embryo ${i}`] }))
    // one identical probe document per shard: find a route prefix that lands on the other shard
    await client.request({ path: 'stats/update', body: [...docs, { id: 'a!probe', title: ['zebrafish heart'], abstract: ['a heart study'] }] })
    let other: string | undefined
    for (let i = 0; i < 50 && other === undefined; i++) {
      await client.request({ path: 'stats/update', body: [{ id: `r${i}!probe`, title: ['zebrafish heart'], abstract: ['a heart study'] }], params: { commit: 'true' } })
      const where = await client.request({ path: 'stats/select', params: { q: '{!terms f=id v=$ids}', ids: `a!probe,r${i}!probe`, fl: 'id,[shard]' } })
      const shards = (where.response as { docs: Array<{ id: string; '[shard]': string }> }).docs.map((d) => d['[shard]'])
      if (new Set(shards).size === 2) {
        other = `r${i}!probe`
      } else {
        await client.request({ path: 'stats/update', body: { delete: [`r${i}!probe`] }, params: { commit: 'true' } })
      }
    }
    expect(other).toBeDefined()
    const stage = createSolrFirstStage({ client, collection: 'stats', fields: solrFields('test-collection'), analyzer: getAnalyzer('biomedical'), syntax: 'plain', match: 'any' })
    const result = await stage.search('zebrafish heart', { limit: 50 })
    const scores = new Map(result.hits.map((hit) => [hit.id, hit.score]))
    expect(scores.get('a!probe')).toBeGreaterThan(0)
    expect(scores.get(other!)).toBeCloseTo(scores.get('a!probe')!, 6)
    // and the same query with shard-local statistics does tell them apart (the test can fail)
    const local = await client.request({
      path: 'stats/select',
      params: { q: '{!bm25f qf=$qf v=$t}', qf: 'title^5 abstract', t: 'zebrafish heart', fl: 'id,score', rows: 50, 'distrib.statsCache': 'false' },
    })
    const localScores = new Map((local.response as { docs: Array<{ id: string; score: number }> }).docs.map((d) => [d.id, d.score]))
    expect(Math.abs(localScores.get(other!)! - localScores.get('a!probe')!)).toBeGreaterThan(1e-3)
  })

  it("keeps global statistics for a field whose term is absent on a shard (where Lucene's CombinedFieldQuery does not)", async () => {
    await createCollection(client, { collection: 'skew', fieldSet: 'test-collection', shards: 2, replicas: 1 })
    // "zebrafish" in abstracts only on one shard (prefix a!), and a probe holding it only in its title on both shards
    const docs = Array.from({ length: 12 }, (_, i) => ({ id: `a!${i}`, title: [`development study ${i}`], abstract: [`zebrafish embryo number ${i}`] }))
    await client.request({ path: 'skew/update', body: [...docs, { id: 'a!probe', title: ['zebrafish heart'], abstract: ['a heart study'] }], params: { commit: 'true' } })
    let other: string | undefined
    for (let i = 0; i < 50 && other === undefined; i++) {
      const id = `r${i}!probe`
      await client.request({ path: 'skew/update', body: [{ id, title: ['zebrafish heart'], abstract: ['a heart study'] }], params: { commit: 'true' } })
      const where = await client.request({ path: 'skew/select', params: { q: '{!terms f=id v=$ids}', ids: `a!probe,${id}`, fl: 'id,[shard]' } })
      if (new Set((where.response as { docs: Array<{ '[shard]': string }> }).docs.map((d) => d['[shard]'])).size === 2) {
        other = id
      } else {
        await client.request({ path: 'skew/update', body: { delete: [id] }, params: { commit: 'true' } })
      }
    }
    expect(other).toBeDefined()
    const scores = async (model: string): Promise<Map<string, number>> => {
      const answer = await client.request({ path: 'skew/select', params: { q: `{!bm25f qf=$qf ${model} v=$t}`, qf: 'title^5 abstract', t: 'zebrafish', fl: 'id,score', rows: 50 } })
      return new Map((answer.response as { docs: Array<{ id: string; score: number }> }).docs.map((d) => [d.id, d.score]))
    }
    const rz = await scores('')
    expect(rz.get(other!)).toBeCloseTo(rz.get('a!probe')!, 6)
    // by hand: N = 14 documents (the state-free collection), n = 12 (abstracts), idf = ln(1 + 2.5/12.5);
    // the probe: tf~ = 5·1 / (1 − 0.75 + 0.75·2/avgl(title)), avgl(title) = (12·3 + 2·2)/14
    const idf = Math.log(1 + 2.5 / 12.5)
    const tf = 5 / (0.25 + (0.75 * 2) / (40 / 14))
    expect(rz.get('a!probe')).toBeCloseTo((idf * tf) / (1.2 + tf), 5)
    const combined = await scores('model=combined')
    expect(Math.abs(combined.get(other!)! - combined.get('a!probe')!)).toBeGreaterThan(1e-3)
  })

  it('keeps answering every query while a node is down, and the node catches up when it returns', async () => {
    const expected = await solr.search('cancer', { limit: 10 })
    let stop = false
    let answered = 0
    const failures: unknown[] = []
    // Bounded by query count, not time: `queries(n)` resolves once n more queries have finished.
    let finished = 0
    const waiting: { at: number; resolve: () => void }[] = []
    const queries = (n: number): Promise<void> =>
      new Promise((resolve) => {
        waiting.push({ at: finished + n, resolve })
      })
    const stream = async (): Promise<void> => {
      while (!stop) {
        try {
          const result = await solr.search('cancer', { limit: 10 })
          expect(result.total).toBe(expected.total)
          answered++
        } catch (error) {
          failures.push(error)
        }
        finished++
        for (const waiter of waiting.filter((w) => finished >= w.at)) {
          waiting.splice(waiting.indexOf(waiter), 1)
          waiter.resolve()
        }
      }
    }
    const streams = [stream(), stream()]
    await queries(20)
    await cluster.stopNode(1)
    const during = answered
    await queries(50)
    // a document indexed while node 1 is down
    await client.request({ path: 'pubmed/update', body: [{ id: 'solr-fault-test', title: ['written while a node was down'] }], params: { commit: 'true' } })
    stop = true
    await Promise.all(streams)
    expect(failures).toEqual([])
    expect(answered).toBeGreaterThanOrEqual(during + 50)
    await cluster.startNode(1)
    // wait until every replica is active again (polled; the suite's hang guard bounds it), then
    // ask node 1's own cores (no distribution)
    const node1 = cluster.state.nodes[1]!.url
    let cores: string[] | undefined
    while (cores === undefined) {
      const status = await client.request({ path: 'admin/collections', params: { action: 'CLUSTERSTATUS', collection: 'pubmed' } })
      const shards = ((status.cluster as { collections: Record<string, { shards: Record<string, { replicas: Record<string, { state: string; base_url: string; core: string }> }> }> }).collections.pubmed!.shards)
      const replicas = Object.values(shards).flatMap((shard) => Object.values(shard.replicas))
      if (replicas.every((replica) => replica.state === 'active')) {
        cores = replicas.filter((replica) => replica.base_url === node1).map((replica) => replica.core)
      } else {
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
    expect(cores.length).toBe(2)
    const node1Client = createSolrClient({ urls: [node1] })
    let found = 0
    let total = 0
    for (const core of cores) {
      const answer = await node1Client.request({ path: `${core}/select`, params: { q: '*:*', distrib: 'false', rows: 0, fq: '{!term f=id v=$id}', id: 'solr-fault-test' } })
      found += (answer.response as { numFound: number }).numFound
      const all = await node1Client.request({ path: `${core}/select`, params: { q: '*:*', distrib: 'false', rows: 0 } })
      total += (all.response as { numFound: number }).numFound
    }
    expect(found).toBe(1)
    // 692 articles, the state document and the new one, split over the two shards
    expect(total).toBe(694)
  })
})
