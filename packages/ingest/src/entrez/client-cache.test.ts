import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { EUTILS_FIXTURES } from '../../test/eutils-fixtures.ts'
import { createInstantClock, createManualClock, type ManualClock } from '../testing/clocks.ts'
import { EUTILS_ROUTES } from '../testing/eutils-routes.ts'
import { startReplayServer, type ReplayServer } from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { createEntrezClient, type EntrezClient, type EntrezClientOptions } from './client.ts'
import type { EntrezResponseEvent } from './hooks.ts'
import { createResponseCache, type ResponseCache } from './response-cache.ts'

let server: ReplayServer
let dir: string
let cacheClock: ManualClock
let cache: ResponseCache
let responses: EntrezResponseEvent[]
/** No attempt times out (the tests count requests), however slow the machine. */
let timeouts: ManualTimeouts

beforeAll(async () => {
  server = await startReplayServer({ routes: EUTILS_ROUTES, dataDir: EUTILS_FIXTURES })
})
afterAll(async () => {
  await server.close()
})
beforeEach(async () => {
  timeouts = installManualTimeouts()
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-entrez-cache-'))
  cacheClock = createManualClock(1_700_000_000_000)
  cache = createResponseCache(dir, { ttlMs: 3_600_000, clock: cacheClock })
  responses = []
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
  timeouts.restore()
})

function client(options: EntrezClientOptions = {}, on: ReplayServer = server): EntrezClient {
  return createEntrezClient({
    baseUrl: on.url,
    clock: createInstantClock(),
    cache,
    onResponse: (e) => responses.push(e),
    ...options,
  })
}

const search = { db: 'pubmed', term: 'biopython' } as const

describe('Entrez client response cache', () => {
  it('answers a repeated request from the cache without a request', async () => {
    const before = server.requests.length
    const first = await client().esearch(search)
    const second = await client().esearch(search)
    expect(second).toEqual(first)
    expect(server.requests.length - before).toBe(1)
    expect(responses.map((r) => [r.fromCache, r.attempts])).toEqual([
      [false, 1],
      [true, 0],
    ])
  })

  it('shares entries across API keys but still sends the key', async () => {
    const before = server.requests.length
    await client({ apiKey: 'KEY-A' }).esearch(search)
    expect(server.requests.at(-1)!.params['api_key']).toBe('KEY-A')
    await client({ apiKey: 'KEY-B' }).esearch(search)
    await client().esearch(search)
    expect(server.requests.length - before).toBe(1)
    expect(responses.map((r) => r.fromCache)).toEqual([false, true, true])
  })

  it('goes to the network again once the TTL has passed', async () => {
    const before = server.requests.length
    await client().esearch(search)
    await cacheClock.advance(3_600_000)
    await client().esearch(search)
    await cacheClock.advance(1)
    await client().esearch(search)
    expect(server.requests.length - before).toBe(2)
    expect(responses.map((r) => r.fromCache)).toEqual([false, true, false])
  })

  it('skips the cache with bypass, and re-fetches and stores with refresh', async () => {
    const before = server.requests.length
    await client().esearch(search, { cache: 'bypass' })
    await client().esearch(search) // nothing stored by the bypassed call
    await client().esearch(search, { cache: 'refresh' })
    await client().esearch(search)
    expect(server.requests.length - before).toBe(3)
    expect(responses.map((r) => r.fromCache)).toEqual([false, false, false, true])
  })

  it('is off without a cache (what --no-cache gives)', async () => {
    const before = server.requests.length
    const plain = createEntrezClient({ baseUrl: server.url, clock: createInstantClock() })
    await plain.esearch(search)
    await plain.esearch(search)
    expect(server.requests.length - before).toBe(2)
  })

  it('never caches history-server requests or error answers', async () => {
    const before = server.requests.length
    await client().esearch({ ...search, usehistory: true })
    await client().esearch({ ...search, usehistory: true })
    await client().epost({ db: 'pubmed', ids: ['11237011', '12466850'] })
    await client().epost({ db: 'pubmed', ids: ['11237011', '12466850'] })
    server.faults.add(
      { utility: 'esearch', fault: { kind: 'esearch-error' } },
      { utility: 'esearch', fault: { kind: 'esearch-error' } },
    )
    await client()
      .esearch(search)
      .catch(() => undefined)
    await client()
      .esearch(search)
      .catch(() => undefined)
    expect(server.requests.length - before).toBe(6)
    expect(responses.map((r) => r.fromCache)).toEqual([false, false, false, false])
  })

  it('reports a cache it cannot write and carries on', async () => {
    const blocked = join(dir, 'not-a-directory')
    await writeFile(blocked, 'x')
    const errors: PubmatchError[] = []
    const result = await client({
      cache: createResponseCache(join(blocked, 'cache')),
      onCacheError: (e) => errors.push(e),
    }).esearch(search)
    expect(result.count).toBe(63)
    expect(errors.map((e) => e.code)).toEqual(['IO'])
  })
})

describe(
  'Entrez client response cache on the Klortho responses of the real data set',
  { tags: ['real-data'] },
  () => {
    let shared: ReplayServer

    beforeAll(async () => {
      shared = await startReplayServer({ routes: EUTILS_ROUTES, dataDir: sharedDataPath('eutils') })
    })
    afterAll(async () => {
      await shared.close()
    })

    it('never caches the recorded history-server and error answers', async () => {
      const before = shared.requests.length
      const history = {
        db: 'pubmed',
        term: 'cancer',
        reldate: 60,
        datetype: 'edat',
        retmax: 100,
        usehistory: true,
      } as const
      await client({}, shared).esearch(history)
      await client({}, shared).esearch(history)
      await client({}, shared).epost({ db: 'pubmed', ids: ['11237011', '12466850'] })
      await client({}, shared).epost({ db: 'pubmed', ids: ['11237011', '12466850'] })
      await client({}, shared)
        .esearch({ db: 'fleegle', term: 'cat' })
        .catch(() => undefined)
      await client({}, shared)
        .esearch({ db: 'fleegle', term: 'cat' })
        .catch(() => undefined)
      expect(shared.requests.length - before).toBe(6)
    })
  },
)
