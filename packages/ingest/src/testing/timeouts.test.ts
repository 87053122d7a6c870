import { afterEach, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { createCitationStore } from './citation-store.ts'
import { startReplayServer, type ReplayServer } from './replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from './timeouts.ts'

let server: ReplayServer | undefined
let timeouts: ManualTimeouts | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  timeouts?.restore()
  timeouts = undefined
})

const citations = createCitationStore([
  {
    pmid: '1',
    xml: '<PubmedArticle><PMID>1</PMID></PubmedArticle>',
    pubDate: '2000/01/01',
    file: 'f',
  },
])

describe('installManualTimeouts', () => {
  it('expires exactly the attempt whose request the server holds, and no timeout by itself', async () => {
    const real = AbortSignal.timeout
    const manual = (timeouts = installManualTimeouts())
    server = await startReplayServer({
      citations,
      faults: [{ utility: 'efetch', skip: 1, fault: { kind: 'slow', delayMs: 60_000 } }],
      onRequest: (request) => {
        if (request.fault === 'slow') {
          manual.expire(request)
        }
      },
    })
    const url = `${server.url}efetch.fcgi?db=pubmed&id=1`
    const answered = AbortSignal.timeout(1)
    const response = await manual.fetch(url, { signal: answered })
    expect(await response.text()).toContain('<PMID>1</PMID>')
    expect(answered.aborted).toBe(false) // a 1 ms timeout that never fired

    const held = AbortSignal.timeout(1)
    const error = await manual.fetch(url, { signal: held }).catch((e: unknown) => e)
    expect((error as Error).name).toBe('TimeoutError')
    expect([held.aborted, (held.reason as Error).name, manual.armed]).toEqual([
      true,
      'TimeoutError',
      0,
    ])
    expect(server.requests.map((r) => [r.fault, r.headers['x-replay-attempt']])).toEqual([
      [undefined, '1'],
      ['slow', '2'],
    ])

    manual.restore()
    expect(AbortSignal.timeout).toBe(real)
  })

  it('refuses to expire a request that was not sent through its fetch', async () => {
    const manual = (timeouts = installManualTimeouts())
    server = await startReplayServer({ citations })
    await (await fetch(`${server.url}efetch.fcgi?db=pubmed&id=1`)).text()
    const error = (() => {
      try {
        manual.expire(server.requests[0]!)
      } catch (thrown) {
        return thrown
      }
      return undefined
    })()
    expect(isPubmatchError(error, 'NOT_FOUND')).toBe(true)
  })
})
