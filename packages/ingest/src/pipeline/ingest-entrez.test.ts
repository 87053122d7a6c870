import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Article } from '@pubmatch/core'
import { samplePath } from '@pubmatch/sample-data'
import { createEntrezClient, type EntrezClient } from '../entrez/client.ts'
import { openCorpus, type CorpusStore } from '../store/corpus-store.ts'
import { loadCitationStore, type CitationStore } from '../testing/citation-store.ts'
import { citationSearchResponder } from '../testing/citation-search.ts'
import { createInstantClock } from '../testing/clocks.ts'
import { startReplayServer, type ReplayServer } from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { ingestEntrez } from './ingest-entrez.ts'
import type { IngestEvent } from './ingest-files.ts'

let citations: CitationStore
let server: ReplayServer
let dir: string
let store: CorpusStore
/** No attempt times out (the tests count requests), however slow the machine. */
let timeouts: ManualTimeouts

beforeAll(async () => {
  citations = await loadCitationStore([samplePath('pubmed', 'medline16n0902.xml.gz')])
})
beforeEach(async () => {
  timeouts = installManualTimeouts()
  server = await startReplayServer({ citations, routes: [{ utility: 'esearch', respond: citationSearchResponder() }] })
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-entrez-'))
  store = await openCorpus(dir, { create: true })
})
afterEach(async () => {
  await store.close()
  await server.close()
  await rm(dir, { recursive: true, force: true })
  timeouts.restore()
})

const client = (): EntrezClient =>
  createEntrezClient({
    baseUrl: server.url,
    clock: createInstantClock(),
    retry: { retries: 3, random: () => 0.5 },
  })

async function ids(corpus: CorpusStore): Promise<string[]> {
  const out: string[] = []
  for await (const article of corpus.articles()) {
    out.push(article.id)
  }
  return out
}

describe('ingestEntrez', () => {
  it('stores every record of a multi-batch query exactly once despite injected faults', async () => {
    server.faults.add({ utility: 'efetch', fault: { kind: 'status', status: 503 } })
    server.faults.add({ utility: 'efetch', skip: 2, fault: { kind: 'truncate' } })
    server.faults.add({ utility: 'efetch', skip: 1, fault: { kind: 'status', status: 429, retryAfter: '1' } })
    server.faults.add({ utility: 'efetch', skip: 1, fault: { kind: 'malformed' } })
    const summary = await ingestEntrez(store, { client: client(), query: 'all[sb]', batchSize: 100 })
    const stored = await ids(store)
    expect(summary).toMatchObject({ added: 604, errors: 0, sources: 7, failedSources: 0 })
    expect(stored).toHaveLength(604)
    expect(new Set(stored).size).toBe(604)
    expect(new Set(stored)).toEqual(new Set(citations.pmids))
  })

  it('resumes an interrupted run at the first batch not yet stored, with the saved id list', async () => {
    const controller = new AbortController()
    let done = 0
    const events: IngestEvent[] = []
    await expect(
      ingestEntrez(store, {
        client: client(),
        query: 'all[sb]',
        batchSize: 100,
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event)
          if (event.type === 'source-done' && ++done === 3) {
            controller.abort()
          }
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' })
    expect(store.stats().articles).toBe(300)
    const searchesBefore = server.requestsTo('esearch').length
    const fetchesBefore = server.requestsTo('efetch').length

    const resumed = await ingestEntrez(store, { client: client(), query: 'all[sb]', batchSize: 100 })
    expect(resumed).toMatchObject({ resumed: 3, sources: 4, added: 304 })
    expect(server.requestsTo('esearch').length).toBe(searchesBefore) // the saved id list was reused
    expect(server.requestsTo('efetch').length - fetchesBefore).toBe(4)
    expect(store.stats().articles).toBe(604)

    const again = await ingestEntrez(store, { client: client(), query: 'all[sb]', batchSize: 100 })
    expect(again).toMatchObject({ resumed: 7, sources: 0, added: 0 })
  })

  it('reports ids that EFetch does not return as per-record NOT_FOUND errors', async () => {
    const real = citations.pmids.slice(0, 3)
    server = await restartWithSearch(real.concat(['1', '2']))
    const summary = await ingestEntrez(store, { client: client(), query: 'x', batchSize: 10 })
    expect(summary).toMatchObject({ added: 3, errors: 2 })
    const errors = []
    for await (const error of store.errors()) {
      errors.push(error)
    }
    expect(errors.map((e) => [e.code, e.details.record])).toEqual([
      ['NOT_FOUND', '1'],
      ['NOT_FOUND', '2'],
    ])
    const first = (await store.getArticle(real[0]!)) as Article
    expect(first.title.length).toBeGreaterThan(0)
  })

  it('refuses a saved id list of another shape, naming the file, rather than search again silently', async () => {
    server = await restartWithSearch(citations.pmids.slice(0, 3))
    await ingestEntrez(store, { client: client(), query: 'x', batchSize: 10 })
    const [name] = await readdir(join(dir, 'entrez'))
    const file = join(dir, 'entrez', name!)
    const saved = JSON.parse(await readFile(file, 'utf8')) as { ids: string[] }
    await writeFile(file, JSON.stringify({ ...saved, ids: saved.ids.join(',') }))
    const error = await ingestEntrez(store, { client: client(), query: 'x', batchSize: 10 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'CORPUS_CORRUPTED', details: { file, field: 'ids' } })
    expect((error as Error).message.replace(file, '<file>').replace(saved.ids.join(','), '<ids>')).toMatchInlineSnapshot(
      `"<file>: ids is "<ids>", expected an array; search again with \`refresh\` (\`pubmatch ingest --entrez … --refresh\`)"`,
    )
    const searches = server.requestsTo('esearch').length
    expect(await ingestEntrez(store, { client: client(), query: 'x', batchSize: 10, refresh: true })).toMatchObject({ resumed: 1, added: 0 })
    expect(server.requestsTo('esearch').length).toBe(searches + 1)
  })

  it('fails clearly when ESearch answers with an error body', async () => {
    await server.close()
    server = await startReplayServer({
      citations,
      routes: [{ utility: 'esearch', respond: () => ({ body: '<eSearchResult><ERROR>Invalid query</ERROR></eSearchResult>' }) }],
    })
    await expect(ingestEntrez(store, { client: client(), query: '((' })).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' })
    expect(store.stats().articles).toBe(0)
  })
})

/** A server whose ESearch returns exactly these ids (some of which may not exist). */
async function restartWithSearch(idList: string[]): Promise<ReplayServer> {
  await server.close()
  return startReplayServer({
    citations,
    routes: [
      {
        utility: 'esearch',
        respond: () => ({
          body: `<eSearchResult><Count>${idList.length}</Count><RetMax>${idList.length}</RetMax><RetStart>0</RetStart><IdList>${idList
            .map((id) => `<Id>${id}</Id>`)
            .join('')}</IdList></eSearchResult>`,
        }),
      },
    ],
  })
}
