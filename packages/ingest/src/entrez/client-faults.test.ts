import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { samplePath } from '@pubmatch/sample-data'
import { loadCitationStore, type CitationStore } from '../testing/citation-store.ts'
import { citationSearchResponder } from '../testing/citation-search.ts'
import { createInstantClock } from '../testing/clocks.ts'
import { articleSetPmids } from '../testing/eutils-routes.ts'
import {
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
} from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { createEntrezClient, type EntrezClient, type EntrezClientOptions } from './client.ts'
import type { EntrezRequestEvent, EntrezRetryEvent } from './hooks.ts'

let server: ReplayServer
let store: CitationStore
let pmids: string[]
/** Attempts time out only when a test expires them, never because the machine is slow. */
let timeouts: ManualTimeouts
/** What happens when the server receives a request; by default a `slow` answer outlasts the client's timeout. */
let onServerRequest: (request: RecordedRequest) => void

beforeAll(async () => {
  store = await loadCitationStore([samplePath('pubmed', 'medline16n0902.xml.gz')])
  pmids = store.pmids.slice(0, 5)
  server = await startReplayServer({
    citations: store,
    routes: [{ utility: 'esearch', respond: citationSearchResponder() }],
    onRequest: (request) => onServerRequest(request),
  })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  expect(server.faults.pending).toBe(0) // every test consumes the faults it plans
  timeouts = installManualTimeouts()
  onServerRequest = (request) => {
    if (request.fault === 'slow') {
      timeouts.expire(request)
    }
  }
})
afterEach(() => {
  timeouts.restore()
})

interface Recorder {
  client: EntrezClient
  retries: EntrezRetryEvent[]
  requests: EntrezRequestEvent[]
}

function recorder(options: EntrezClientOptions = {}): Recorder {
  const retries: EntrezRetryEvent[] = []
  const requests: EntrezRequestEvent[] = []
  const client = createEntrezClient({
    baseUrl: server.url,
    clock: createInstantClock(),
    apiKey: 'SECRET-KEY',
    retry: { random: () => 0.5 },
    timeoutMs: 5000,
    fetch: timeouts.fetch,
    onRetry: (e) => retries.push(e),
    onRequest: (e) => requests.push(e),
    ...options,
  })
  return { client, retries, requests }
}

async function failure(promise: Promise<unknown>): Promise<PubmatchError> {
  try {
    await promise
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error('expected the call to fail')
}

describe('Entrez client retries', () => {
  it('waits Retry-After on 429, then backs off with jitter on 500, and succeeds', async () => {
    server.faults.add(
      { utility: 'efetch', fault: { kind: 'status', status: 429, retryAfter: '2' } },
      { utility: 'efetch', fault: { kind: 'status', status: 500 } },
    )
    const { client, retries, requests } = recorder()
    const body = await client.efetch({ ids: pmids })
    expect(articleSetPmids(body)).toEqual(pmids)
    // retry 1: Retry-After 2 s → 2000 ms; retry 2: 1000·2^1·(1 − 0.5 + 0.5·0.5) = 1500 ms
    expect(
      retries.map((r) => [r.attempt, r.status, r.retryAfterMs, r.delayMs, r.error.code]),
    ).toEqual([
      [1, 429, 2000, 2000, 'UPSTREAM_HTTP'],
      [2, 500, undefined, 1500, 'UPSTREAM_HTTP'],
    ])
    // the 429 also pushes the shared limiter's next slot to t + 2000 ms
    expect(requests.map((r) => r.slot)).toEqual([0, 2000, 3500])
    expect(retries[0]!.url).not.toContain('SECRET')
  })

  it('reads a Retry-After given as an HTTP date', async () => {
    // An HTTP date is wall time: the clock stands still, so it is exactly 10 s from now.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2025, 0, 1) })
    try {
      const at = new Date(Date.now() + 10_000).toUTCString()
      server.faults.add({
        utility: 'efetch',
        fault: { kind: 'status', status: 503, retryAfter: at },
      })
      const { client, retries } = recorder()
      await client.efetch({ ids: pmids })
      expect(retries[0]!.retryAfterMs).toBe(10_000)
    } finally {
      vi.useRealTimers()
    }
  })

  it('gives up with UPSTREAM_HTTP after the retries, naming the status and the URL without api_key', async () => {
    server.faults.add(
      ...[1, 2, 3].map(
        () => ({ utility: 'efetch', fault: { kind: 'status', status: 503 } }) as const,
      ),
    )
    const before = server.requestsTo('efetch').length
    const { client } = recorder({ retry: { retries: 2, random: () => 0.5 } })
    const error = await failure(client.efetch({ ids: pmids }))
    expect(error.code).toBe('UPSTREAM_HTTP')
    expect(error.details.status).toBe(503)
    expect(error.details['attempts']).toBe(3)
    expect(error.details['url']).toMatch(/efetch\.fcgi\?db=pubmed&id=17942999%2C/)
    expect(String(error.details['url'])).not.toContain('SECRET')
    expect(error.message).not.toContain('SECRET')
    expect(server.requestsTo('efetch').length - before).toBe(3)
    expect(server.requestsTo('efetch').at(-1)!.params['api_key']).toBe('SECRET-KEY')
  })

  it('does not retry a 400', async () => {
    server.faults.add({
      utility: 'efetch',
      fault: { kind: 'status', status: 400, body: 'bad request' },
    })
    const { client, retries } = recorder()
    const error = await failure(client.efetch({ ids: pmids }))
    expect([error.code, error.details.status, retries.length]).toEqual(['UPSTREAM_HTTP', 400, 0])
  })

  it('fails at once when Retry-After exceeds maxRetryAfterMs', async () => {
    server.faults.add({
      utility: 'efetch',
      fault: { kind: 'status', status: 429, retryAfter: '600' },
    })
    const { client, retries } = recorder()
    const error = await failure(client.efetch({ ids: pmids }))
    expect([
      error.code,
      error.details.status,
      error.details['retryAfterMs'],
      retries.length,
    ]).toEqual(['UPSTREAM_HTTP', 429, 600_000, 0])
  })

  it('retries an answer slower than the timeout, and reports UPSTREAM_TIMEOUT when all are slow', async () => {
    server.faults.add({ utility: 'efetch', fault: { kind: 'slow', delayMs: 60_000 } })
    const first = recorder({ timeoutMs: 3000 })
    expect(articleSetPmids(await first.client.efetch({ ids: pmids }))).toEqual(pmids)
    expect(first.retries.map((r) => r.error.code)).toEqual(['UPSTREAM_TIMEOUT'])

    server.faults.add(
      { utility: 'efetch', fault: { kind: 'slow', delayMs: 60_000 } },
      { utility: 'efetch', fault: { kind: 'slow', delayMs: 60_000 } },
    )
    const second = recorder({ timeoutMs: 3000, retry: { retries: 1 } })
    const error = await failure(second.client.efetch({ ids: pmids }))
    expect(error.code).toBe('UPSTREAM_TIMEOUT')
    expect(error.message).toMatch(/did not answer within 3000 ms/)
  })

  it('retries a truncated body (Content-Length larger than what arrives) and a reset connection', async () => {
    server.faults.add(
      { utility: 'efetch', fault: { kind: 'truncate' } },
      { utility: 'efetch', fault: { kind: 'reset' } },
    )
    const { client, retries } = recorder()
    expect(articleSetPmids(await client.efetch({ ids: pmids }))).toEqual(pmids)
    expect(retries.map((r) => r.error.code)).toEqual(['NETWORK', 'NETWORK'])
  })

  it('reports NETWORK when every attempt is truncated', async () => {
    server.faults.add(
      ...[1, 2].map(
        () => ({ utility: 'efetch', fault: { kind: 'truncate', keepFraction: 0.3 } }) as const,
      ),
    )
    const { client } = recorder({ retry: { retries: 1 } })
    const error = await failure(client.efetch({ ids: pmids }))
    expect(error.code).toBe('NETWORK')
  })

  it('retries malformed XML and JSON bodies, then fails with MALFORMED_XML / MALFORMED_JSON', async () => {
    server.faults.add({ utility: 'efetch', fault: { kind: 'malformed' } })
    const ok = recorder()
    expect(articleSetPmids(await ok.client.efetch({ ids: pmids }))).toEqual(pmids)
    expect(ok.retries.map((r) => r.error.code)).toEqual(['MALFORMED_XML'])

    server.faults.add(
      ...[1, 2].map(() => ({ utility: 'efetch', fault: { kind: 'malformed' } }) as const),
    )
    const xml = recorder({ retry: { retries: 1 } })
    expect((await failure(xml.client.efetch({ ids: pmids }))).code).toBe('MALFORMED_XML')

    server.faults.add(
      ...[1, 2].map(() => ({ utility: 'esearch', fault: { kind: 'malformed' } }) as const),
    )
    const json = recorder({ retry: { retries: 1 }, retmode: 'json' })
    expect((await failure(json.client.esearch({ term: 'all' }))).code).toBe('MALFORMED_JSON')
  })

  it('does not retry an ESearch HTTP-200 ERROR body, but retries a backend failure', async () => {
    server.faults.add({ utility: 'esearch', fault: { kind: 'esearch-error' } })
    const plain = recorder()
    const error = await failure(plain.client.esearch({ term: 'all' }))
    expect(error.code).toBe('UPSTREAM_ERROR')
    expect(error.message).toMatch(
      /ESearch returned an error for .*esearch\.fcgi\?db=pubmed&term=all.*: "Invalid db name specified: fleegle"/,
    )
    expect(plain.requests).toHaveLength(1)

    server.faults.add({
      utility: 'esearch',
      fault: {
        kind: 'esearch-error',
        message: "Search Backend failed: Couldn't resolve #tcpsearch",
      },
    })
    const transient = recorder()
    const result = await transient.client.esearch({ term: 'all', retmax: 3 })
    expect(result.count).toBe(604)
    expect(transient.retries.map((r) => r.error.code)).toEqual(['UPSTREAM_ERROR'])
  })

  it('rejects with ABORTED when the caller aborts, without retrying', async () => {
    server.faults.add({ utility: 'efetch', fault: { kind: 'slow', delayMs: 60_000 } })
    const controller = new AbortController()
    // the caller gives up while the server holds the answer back
    onServerRequest = () => controller.abort()
    const { client, retries } = recorder({ timeoutMs: 10_000 })
    const error = await failure(client.efetch({ ids: pmids }, { signal: controller.signal }))
    expect(error.code).toBe('ABORTED')
    expect(retries).toEqual([])
  })
})
