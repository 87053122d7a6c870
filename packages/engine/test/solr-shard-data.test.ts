/**
 * The shard-side data of the features, round trip: the bundled sample corpus indexed into a local
 * SolrCloud (2 shards, `indexCorpus`) and into the embedded engine; the Java reader
 * (`org.pubmatch.solr.shard.ShardDocumentReader` and `CollectionTermStats`, driven by the main
 * class `ShardDump` over the shards' index directories) gives, for every document, the token
 * streams of the engine's forward store and the doc values of its index reader. It lives in the
 * engine's tests because only `engine` sees both `@pubmatch/solr` and the forward store of
 * `@pubmatch/ltr` (CONTRIBUTING.md, "Layers"). Needs the Maven module of `@pubmatch/solr` built;
 * CI always has it, so there it never skips.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { compareCodePoints } from '@pubmatch/core'
import { createSolrClient, indexCorpus, javaBuilt, startLocalCluster, type LocalCluster } from '@pubmatch/solr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSearch } from '../src/search-engine.ts'
import { engineInternals } from '../src/internal.ts'
import { sampleIndex } from './sample.ts'

const RUN = javaBuilt() || process.env.CI !== undefined
const target = join(dirname(createRequire(import.meta.url).resolve('@pubmatch/solr/package.json')), 'java', 'target')

type Stream = Array<[string | null, number]>

/** A document as both sides give it. */
interface ShardDoc {
  id: string
  year: number | null
  publicationTypes: string[]
  languages: string[]
  title: Stream
  abstract: Stream
  mesh: Stream
}

interface TermStats {
  term: string
  /** Solr's analysis of title, abstract and MeSH. */
  title: number
  abstract: number
  mesh: number
  /** pubmatch's own terms: title-or-abstract, title, abstract. */
  any: number
  titleTerms: number
  abstractTerms: number
}

describe.skipIf(!RUN)('the shard-side feature data in a local SolrCloud', () => {
  let work: string
  let cluster: LocalCluster | undefined
  let paths: { corpus: string; index: string }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-shard-data-'))
    const [started, sample] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      sampleIndex(work),
    ])
    cluster = started
    paths = sample
  })

  afterAll(async () => {
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  it('reads back every document’s token streams and doc values, and the collection’s statistics', async () => {
    const client = createSolrClient({ urls: cluster!.urls(), backoffMs: 100, retries: 8 })
    const indexed = await indexCorpus({ client, corpus: paths.corpus, collection: 'fwd', shards: 2, replicas: 1 })
    expect(indexed.errorList).toEqual([])

    // one index directory per shard (replicas: 1), from each node's cores
    const dirs: string[] = []
    for (const url of cluster!.urls()) {
      const answer = await createSolrClient({ urls: [url] }).request({ path: 'admin/cores', params: { action: 'STATUS' } })
      for (const core of Object.values(answer.status as Record<string, { dataDir: string; cloud?: { collection?: string } }>)) {
        if (core.cloud?.collection === 'fwd') {
          dirs.push(join(core.dataDir, 'index'))
        }
      }
    }
    expect(dirs).toHaveLength(2)
    expect(dirs.every((dir) => existsSync(dir))).toBe(true)

    const engine = await openSearch({ index: paths.index })
    const { reader, forwardStore } = engineInternals(engine)
    const forward = await forwardStore()
    const terms = Array.from({ length: forward.termCount }, (_, t) => forward.term(t))
    const termsFile = join(work, 'terms.txt')
    await writeFile(termsFile, `${terms.join('\n')}\n`)

    const classpath = `${join(target, 'pubmatch-solr-0.1.0.jar')}:${readFileSync(join(target, 'classpath.txt'), 'utf8').trim()}`
    const { stdout } = await promisify(execFile)(
      'java',
      ['-cp', classpath, 'org.pubmatch.solr.shard.ShardDump', ...dirs.flatMap((dir) => ['--index', dir]), '--terms', termsFile],
      { maxBuffer: 1 << 28 },
    )
    const lines = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const docs = lines.filter((line) => 'title' in line && 'id' in line) as unknown as ShardDoc[]
    const docCount = lines.find((line) => 'docCount' in line)?.docCount
    const stats = lines.filter((line) => 'term' in line) as unknown as TermStats[]

    // the embedded engine's view of the same documents
    const years = reader.numericValues('year')
    const stream = (name: 'title' | 'abstract' | 'mesh', d: number): Stream => {
      const field = forward.field(name)
      const out: Stream = []
      for (let k = field.offsets[d]!; k < field.offsets[d + 1]!; k++) {
        const term = field.terms[k]!
        out.push([term < 0 ? null : forward.term(term), field.flags[k]!])
      }
      return out
    }
    const sorted = (values: readonly string[]): string[] => [...values].sort(compareCodePoints)
    const expected = new Map<string, ShardDoc>()
    for (let d = 0; d < forward.docCount; d++) {
      const id = forward.id(d)
      const doc = reader.docNumber(id)!
      const year = years[doc]!
      expected.set(id, {
        id,
        year: Number.isNaN(year) ? null : year,
        publicationTypes: sorted(reader.sortedSetValues('pubtype', doc)),
        languages: sorted(reader.sortedSetValues('language', doc)),
        title: stream('title', d),
        abstract: stream('abstract', d),
        mesh: stream('mesh', d),
      })
    }

    // every document, exactly once, equal field by field
    expect(reader.docCount).toBe(692)
    expect(docs.map((doc) => doc.id).sort()).toEqual([...expected.keys()].sort())
    let tokens = 0
    for (const doc of docs) {
      expect(doc).toEqual(expected.get(doc.id))
      tokens += doc.title.length + doc.abstract.length + doc.mesh.length
    }
    // the streams are not trivially empty: stop words without a term, flags and MeSH are all there
    expect(tokens).toBeGreaterThan(100_000)
    expect(docs.some((doc) => doc.abstract.some(([term, flags]) => term === null && flags === 5))).toBe(true)
    expect(docs.filter((doc) => doc.mesh.length > 0).length).toBeGreaterThan(100)

    // statistics summed over both shards (what ExactStatsCache serves)
    expect(docCount).toBe(engine.docCount)
    expect(stats).toHaveLength(terms.length)
    // pubmatch's own index terms (pubmatch_ti_terms, pubmatch_ab_terms, pubmatch_tiab, written by
    // the document mapper): every term's document frequencies are the embedded index's, exactly
    for (const s of stats) {
      expect([s.term, s.titleTerms, s.abstractTerms, s.any]).toEqual([
        s.term,
        reader.docFreq('title', s.term),
        reader.docFreq('abstract', s.term),
        reader.docFreqAny(s.term, ['title', 'abstract']),
      ])
    }
    // Solr's analysis chain of title and abstract only approximates pubmatch's analyzer (README of
    // @pubmatch/solr): on this sample title agrees for 10,348 and abstract for 9,238 of the forward
    // store's 10,377 terms; the others are numbers (Solr splits 0.88 into 0 and 88) and about 40
    // short words (micro units as ug, um; roman numerals)
    const agree = stats.filter((s) => s.title === reader.docFreq('title', s.term) && s.abstract === reader.docFreq('abstract', s.term))
    expect(agree.length).toBeGreaterThan(9000)
    expect(agree.length).toBeLessThan(stats.length)
  })
})
