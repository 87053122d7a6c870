import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { samplePath } from '@pubmatch/sample-data'
import { loadCitationStore, type CitationStore } from '../testing/citation-store.ts'
import { citationSearchResponder } from '../testing/citation-search.ts'
import { createInstantClock } from '../testing/clocks.ts'
import { articleSetPmids } from '../testing/eutils-routes.ts'
import type { PlannedFault } from '../testing/fault-plan.ts'
import { startReplayServer, type ReplayServer } from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { createEntrezClient, type EntrezClient } from './client.ts'
import type { EFetchBatch } from './fetch-batches.ts'
import type { EntrezRetryEvent } from './hooks.ts'

let store: CitationStore
let server: ReplayServer
/** Attempts time out only when the server holds a `slow` answer, never because the machine is slow. */
let timeouts: ManualTimeouts

beforeAll(async () => {
  store = await loadCitationStore([samplePath('pubmed', 'medline16n0902.xml.gz')])
})
beforeEach(async () => {
  timeouts = installManualTimeouts()
  server = await startReplayServer({
    citations: store,
    routes: [{ utility: 'esearch', respond: citationSearchResponder() }],
    onRequest: (request) => {
      if (request.fault === 'slow') {
        timeouts.expire(request)
      }
    },
  })
})
afterEach(async () => {
  await server.close()
  timeouts.restore()
})

function client(retries: EntrezRetryEvent[] = []): EntrezClient {
  return createEntrezClient({
    baseUrl: server.url,
    clock: createInstantClock(),
    timeoutMs: 3000,
    fetch: timeouts.fetch,
    retry: { retries: 3, random: () => 0.5 },
    onRetry: (e) => retries.push(e),
  })
}

async function collect(
  batches: AsyncIterable<EFetchBatch>,
): Promise<{ batches: EFetchBatch[]; pmids: string[] }> {
  const all: EFetchBatch[] = []
  for await (const batch of batches) {
    all.push(batch)
  }
  return { batches: all, pmids: all.flatMap((b) => articleSetPmids(b.body)) }
}

/** Eight faults spread over the 13 batches of a 604-id fetch in batches of 50. */
const FAULTS: readonly PlannedFault[] = [
  { utility: 'efetch', fault: { kind: 'status', status: 429, retryAfter: '1' } },
  { utility: 'efetch', skip: 1, fault: { kind: 'status', status: 500 } },
  { utility: 'efetch', skip: 1, fault: { kind: 'slow', delayMs: 60_000 } },
  { utility: 'efetch', skip: 2, fault: { kind: 'truncate' } },
  { utility: 'efetch', fault: { kind: 'malformed' } },
  { utility: 'efetch', skip: 1, fault: { kind: 'status', status: 502 } },
  { utility: 'efetch', skip: 1, fault: { kind: 'reset' } },
  { utility: 'efetch', skip: 2, fault: { kind: 'status', status: 503 } },
]

describe('fetchBatches', () => {
  it('fetches all 604 citations of medline16n0902 in 13 batches of 50, each exactly once, despite 8 injected faults', async () => {
    expect(store.pmids).toHaveLength(604)
    server.faults.add(...FAULTS)
    const retries: EntrezRetryEvent[] = []
    const { batches, pmids } = await collect(
      client(retries).fetchBatches({ ids: store.pmids }, { batchSize: 50 }),
    )
    expect(batches.map((b) => b.retstart)).toEqual([
      0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600,
    ])
    expect(batches.at(-1)!.retmax).toBe(4)
    for (const batch of batches) {
      expect(articleSetPmids(batch.body)).toEqual(batch.ids)
    }
    expect(pmids).toHaveLength(604)
    expect(new Set(pmids).size).toBe(604)
    expect([...pmids].sort()).toEqual([...store.pmids].sort())
    expect(server.faults.pending).toBe(0)
    expect(server.requestsTo('efetch')).toHaveLength(13 + 8)
    expect(server.requestsTo('efetch').flatMap((r) => r.fault ?? [])).toEqual([
      'status',
      'status',
      'slow',
      'truncate',
      'malformed',
      'status',
      'reset',
      'status',
    ])
    expect(retries.map((r) => r.error.code)).toEqual([
      'UPSTREAM_HTTP',
      'UPSTREAM_HTTP',
      'UPSTREAM_TIMEOUT',
      'NETWORK',
      'MALFORMED_XML',
      'UPSTREAM_HTTP',
      'NETWORK',
      'UPSTREAM_HTTP',
    ])
  })

  it('keeps batch order and completeness with three requests in flight', async () => {
    server.faults.add(...FAULTS)
    const { batches, pmids } = await collect(
      client().fetchBatches({ ids: store.pmids }, { batchSize: 50, concurrency: 3 }),
    )
    expect(batches.map((b) => b.retstart)).toEqual([
      0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600,
    ])
    expect(pmids).toEqual(store.pmids)
  })

  it('uses GET for 50-id batches and POST for 604 ids in one batch', async () => {
    await collect(client().fetchBatches({ ids: store.pmids.slice(0, 100) }, { batchSize: 50 }))
    expect(server.requestsTo('efetch').map((r) => r.method)).toEqual(['GET', 'GET'])
    const { pmids } = await collect(client().fetchBatches({ ids: store.pmids }, { batchSize: 604 }))
    expect(pmids).toHaveLength(604)
    const post = server.requestsTo('efetch').at(-1)!
    expect([post.method, post.contentType, post.params['id']!.split(',').length]).toEqual([
      'POST',
      'application/x-www-form-urlencoded',
      604,
    ])
  })

  it('pages an ESearch history set with retstart/retmax', async () => {
    const c = client()
    const search = await c.esearch({ term: 'all', usehistory: true, retmax: 0 })
    expect(search.count).toBe(604)
    expect(search.webEnv).toBe('MCID_replay_1')
    const { batches, pmids } = await collect(
      c.fetchBatches(
        { webEnv: search.webEnv!, queryKey: search.queryKey!, count: search.count },
        { batchSize: 200 },
      ),
    )
    expect(batches.map((b) => [b.retstart, b.retmax, b.ids])).toEqual([
      [0, 200, undefined],
      [200, 200, undefined],
      [400, 200, undefined],
      [600, 4, undefined],
    ])
    expect(
      server
        .requestsTo('efetch')
        .map((r) => [
          r.params['WebEnv'],
          r.params['query_key'],
          r.params['retstart'],
          r.params['retmax'],
        ]),
    ).toEqual([
      ['MCID_replay_1', '1', '0', '200'],
      ['MCID_replay_1', '1', '200', '200'],
      ['MCID_replay_1', '1', '400', '200'],
      ['MCID_replay_1', '1', '600', '4'],
    ])
    expect(new Set(pmids).size).toBe(604)
    expect([...pmids].sort()).toEqual([...store.pmids].sort())
  })

  it('posts ids with EPost and then fetches them by history', async () => {
    const c = client()
    const posted = await c.epost({ ids: [...store.pmids, 'not-a-pmid'] })
    expect(posted.invalidIds).toEqual(['not-a-pmid'])
    expect(server.requestsTo('epost')[0]!.method).toBe('POST')
    const { pmids } = await collect(
      c.fetchBatches(
        { webEnv: posted.webEnv, queryKey: posted.queryKey, count: 604 },
        { batchSize: 250 },
      ),
    )
    expect(pmids).toEqual(store.pmids)
    expect(server.requestsTo('efetch')).toHaveLength(3)
  })

  it('spaces requests by the rate limit, as the server sees them on the shared virtual clock', async () => {
    const clock = createInstantClock(1_000_000)
    const timed = await startReplayServer({ citations: store, clock })
    try {
      const ids = store.pmids.slice(0, 200)
      await collect(
        createEntrezClient({ baseUrl: timed.url, clock }).fetchBatches({ ids }, { batchSize: 50 }),
      )
      await collect(
        createEntrezClient({ baseUrl: timed.url, clock, apiKey: 'K' }).fetchBatches(
          { ids },
          { batchSize: 50 },
        ),
      )
      const at = timed.requests.map((r) => r.at)
      const gaps = at.slice(1).map((t, i) => t - at[i]!)
      // 3/s without a key (1000/3 ms rounded up to the µs), then 10/s with one; the key's
      // client has its own limiter, so its first request does not wait
      const expected = [333.334, 333.334, 333.334, 0, 100, 100, 100]
      expect(gaps).toHaveLength(expected.length)
      gaps.forEach((gap, i) => expect(gap).toBeCloseTo(expected[i]!, 6))
    } finally {
      await timed.close()
    }
  })

  it('stops requesting when the consumer stops early', async () => {
    const generator = client().fetchBatches({ ids: store.pmids }, { batchSize: 50 })
    for await (const batch of generator) {
      expect(batch.retstart).toBe(0)
      break
    }
    expect(server.requestsTo('efetch')).toHaveLength(1)
  })
})
