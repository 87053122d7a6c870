import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { EUTILS_FIXTURES } from '../../test/eutils-fixtures.ts'
import { createInstantClock } from '../testing/clocks.ts'
import { EUTILS_ROUTES } from '../testing/eutils-routes.ts'
import { startReplayServer, type ReplayServer } from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { createEntrezClient, DEFAULT_EUTILS_BASE_URL, type EntrezClientOptions } from './client.ts'
import type { EntrezRequestEvent } from './hooks.ts'

let server: ReplayServer
/** No attempt times out (the tests count requests), however slow the machine. */
let timeouts: ManualTimeouts

beforeAll(async () => {
  server = await startReplayServer({ routes: EUTILS_ROUTES, dataDir: EUTILS_FIXTURES })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  timeouts = installManualTimeouts()
})
afterEach(() => {
  timeouts.restore()
})

const client = (
  options: EntrezClientOptions = {},
  on: ReplayServer = server,
): ReturnType<typeof createEntrezClient> =>
  createEntrezClient({ baseUrl: on.url, clock: createInstantClock(), ...options })

describe('createEntrezClient', () => {
  it('defaults to the NCBI base URL', () => {
    expect(DEFAULT_EUTILS_BASE_URL).toBe('https://eutils.ncbi.nlm.nih.gov/entrez/eutils/')
  })

  it('sends tool, email and api_key with every request but keeps the key out of URLs it reports', async () => {
    const requests: EntrezRequestEvent[] = []
    const c = client({
      apiKey: 'SECRET-KEY',
      email: 'dev@example.org',
      tool: 'pubmatch-test',
      onRequest: (e) => requests.push(e),
    })
    const result = await c.espell({ term: 'biopythooon' })
    expect(result.correctedQuery).toBe('biopython')
    const last = server.requests.at(-1)!
    expect(last.params).toMatchObject({
      api_key: 'SECRET-KEY',
      email: 'dev@example.org',
      tool: 'pubmatch-test',
    })
    expect(requests[0]!.url).not.toContain('SECRET')
    expect(requests[0]!.url).toContain('email=dev%40example.org')
    expect(c.rateLimiter.requestsPerSecond).toBe(10)
  })

  it('reads ESummary, ELink, EInfo and EPost answers from the real files', async () => {
    const c = client()
    const summary = await c.esummary({ db: 'pubmed', ids: ['11850928', '11482001'] })
    expect(summary.documents.map((d) => d.uid)).toEqual(['11850928', '11482001'])
    const links = await c.elink({ dbfrom: 'pubmed', ids: ['9298984'] })
    expect(links.linkSets[0]!.linkSetDbs[0]!.links).toHaveLength(101)
    const info = await c.einfo({ db: 'pubmed' })
    expect(info.kind === 'dbInfo' && info.info.fields.length).toBe(50)
    const dbs = await c.einfo()
    expect(dbs.kind === 'dbList' && dbs.dbNames).toHaveLength(39)
    const posted = await c.epost({ db: 'pubmed', ids: ['11237011', '12466850'] })
    expect(posted).toEqual({
      webEnv: 'MCID_692851c130aec64bed0a8c2a',
      queryKey: '1',
      invalidIds: [],
      warnings: [],
    })
    expect(server.requests.at(-1)!.method).toBe('POST')
  })

  it('keeps PhraseNotFound as a warning on a successful search', async () => {
    const result = await client().esearch({ db: 'pubmed', term: 'abcXYZ' })
    expect(result.warnings.map((w) => w.type)).toEqual(['PhraseNotFound', 'OutputMessage'])
  })

  it('switches to a form-encoded POST above 200 ids or a 2,000-character URL', async () => {
    const c = client()
    const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => String(20_000_000 + i))
    await c.esummary({ db: 'pubmed', ids: ids(150) }).catch(() => undefined) // 150 × 9 chars ≈ 1,350 chars: GET
    expect(server.requests.at(-1)!.method).toBe('GET')
    await c.esummary({ db: 'pubmed', ids: ids(201) }).catch(() => undefined)
    const post = server.requests.at(-1)!
    expect(post.method).toBe('POST')
    expect(post.contentType).toBe('application/x-www-form-urlencoded')
    expect(post.params['id']!.split(',')).toHaveLength(201)
    await c.esearch({ db: 'pubmed', term: 'x'.repeat(2100) }).catch(() => undefined)
    expect(server.requests.at(-1)!.method).toBe('POST')
    const lowThreshold = client({ maxGetIds: 2 })
    await lowThreshold.esummary({ db: 'pubmed', ids: ['1', '2', '3'] }).catch(() => undefined)
    expect(server.requests.at(-1)!.method).toBe('POST')
  })

  it('sends one id parameter per ELink id group', async () => {
    await client()
      .elink({ dbfrom: 'pubmed', idGroups: [['1', '2'], ['3']] })
      .catch(() => undefined)
    expect(server.requests.at(-1)!.paramList.filter(([name]) => name === 'id')).toEqual([
      ['id', '1,2'],
      ['id', '3'],
    ])
  })

  it('rejects calls without ids or history before sending anything', async () => {
    const before = server.requests.length
    await expect(client().efetch({ db: 'pubmed', ids: [] })).rejects.toSatisfy((e: unknown) =>
      isPubmatchError(e, 'INVALID_ARGUMENT'),
    )
    await expect(client().epost({ ids: [' '] })).rejects.toThrow(/at least one id/)
    expect(server.requests.length).toBe(before)
  })
})

describe(
  'createEntrezClient on the Klortho responses of the real data set',
  { tags: ['real-data'] },
  () => {
    let shared: ReplayServer

    beforeAll(async () => {
      shared = await startReplayServer({ routes: EUTILS_ROUTES, dataDir: sharedDataPath('eutils') })
    })
    afterAll(async () => {
      await shared.close()
    })

    it('gives the same ESearch result in JSON and XML mode for the klortho pubmed search', async () => {
      const params = {
        db: 'pubmed',
        term: 'cancer',
        reldate: 60,
        datetype: 'edat',
        retmax: 100,
        usehistory: true,
      } as const
      const json = await client({ retmode: 'json' }, shared).esearch(params)
      const xml = await client({}, shared).esearch(params)
      expect(json).toEqual(xml)
      expect([json.count, json.ids.length, json.queryKey]).toEqual([15169, 100, '1'])
      const [jsonRequest, xmlRequest] = shared.requestsTo('esearch').slice(-2)
      expect(jsonRequest!.params).toMatchObject({
        retmode: 'json',
        usehistory: 'y',
        tool: 'pubmatch',
      })
      expect(xmlRequest!.params['retmode']).toBe('xml')
    })

    it('reads ESummary version 2.0 and EInfo in JSON from the real files', async () => {
      const v2 = await client({}, shared).esummary({
        db: 'pubmed',
        ids: [5683731, 22144687],
        version: '2.0',
        retmode: 'json',
      })
      expect(v2.documents[1]!.fields['title']).toBe('GenBank.')
      const infoJson = await client({}, shared).einfo({ db: 'pubmed', retmode: 'json' })
      expect(infoJson.kind === 'dbInfo' && infoJson.info.fields.length).toBe(47)
    })

    it('fails with UPSTREAM_ERROR, without retrying, on an ESearch error body', async () => {
      const before = shared.requestsTo('esearch').length
      const error = await client({}, shared)
        .esearch({ db: 'fleegle', term: 'cat', retmode: 'json' })
        .catch((e: unknown) => e)
      expect(isPubmatchError(error, 'UPSTREAM_ERROR')).toBe(true)
      expect((error as Error).message).toContain('"Invalid db name specified: fleegle"')
      expect(shared.requestsTo('esearch').length - before).toBe(1)
    })
  },
)
