import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EUTILS_FIXTURES } from '../../test/eutils-fixtures.ts'
import { createFaultPlan } from './fault-plan.ts'
import { EUTILS_ROUTES } from './eutils-routes.ts'
import { startReplayServer, type ReplayServer } from './replay-server.ts'
import { createCitationStore } from './citation-store.ts'

let server: ReplayServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('startReplayServer', () => {
  it('answers a routed request with the real file, byte for byte', async () => {
    const dataDir = EUTILS_FIXTURES
    server = await startReplayServer({ routes: EUTILS_ROUTES, dataDir })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/entrez\/eutils\/$/)
    const response = await fetch(`${server.url}esearch.fcgi?db=pubmed&term=biopython&tool=t`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/xml; charset=UTF-8')
    expect(await response.text()).toBe(
      readFileSync(join(dataDir, 'biopython/esearch1.xml'), 'utf8'),
    )
    expect(server.requests[0]).toMatchObject({
      index: 0,
      method: 'GET',
      utility: 'esearch',
      params: { db: 'pubmed', term: 'biopython', tool: 't' },
      status: 200,
    })
  })

  it('merges form-body parameters of a POST and answers 400 when no route matches', async () => {
    server = await startReplayServer({ routes: EUTILS_ROUTES, dataDir: EUTILS_FIXTURES })
    const response = await fetch(`${server.url}esummary.fcgi?db=nosuchdb`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'id=1,2&retmode=xml',
    })
    expect(response.status).toBe(400)
    expect(server.requests[0]!.params).toEqual({ db: 'nosuchdb', id: '1,2', retmode: 'xml' })
    expect(server.requests[0]!.contentType).toBe('application/x-www-form-urlencoded')
  })

  it('sends fewer bytes than Content-Length announces for a truncate fault', async () => {
    const store = createCitationStore([
      {
        pmid: '1',
        xml: `<PubmedArticle><PMID>1</PMID>${'x'.repeat(5000)}</PubmedArticle>`,
        pubDate: '2000/01/01',
        file: 'f',
      },
    ])
    server = await startReplayServer({
      citations: store,
      faults: [{ utility: 'efetch', fault: { kind: 'truncate' } }],
    })
    const response = await fetch(`${server.url}efetch.fcgi?db=pubmed&id=1`)
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(5000)
    await expect(response.text()).rejects.toThrow()
    expect(server.requests[0]!.fault).toBe('truncate')
  })

  it('answers a scripted 429 with Retry-After and an NCBI-style body', async () => {
    server = await startReplayServer({
      faults: [{ fault: { kind: 'status', status: 429, retryAfter: '3' } }],
    })
    const response = await fetch(`${server.url}einfo.fcgi`)
    expect([response.status, response.headers.get('retry-after')]).toEqual([429, '3'])
    expect(await response.json()).toMatchObject({ error: 'API rate limit exceeded' })
  })

  it('keeps a history: EPost stores ids that EFetch then serves by WebEnv/query_key', async () => {
    const store = createCitationStore(
      ['11', '22', '33'].map((pmid) => ({
        pmid,
        xml: `<PubmedArticle><PMID>${pmid}</PMID></PubmedArticle>`,
        pubDate: '2000/01/01',
        file: 'f',
      })),
    )
    server = await startReplayServer({ citations: store })
    const posted = await (
      await fetch(`${server.url}epost.fcgi`, {
        method: 'POST',
        body: new URLSearchParams({ db: 'pubmed', id: '33,11,22' }),
      })
    ).text()
    expect(posted).toContain('<QueryKey>1</QueryKey>')
    expect(posted).toContain('<WebEnv>MCID_replay_1</WebEnv>')
    const page = await (
      await fetch(
        `${server.url}efetch.fcgi?db=pubmed&WebEnv=MCID_replay_1&query_key=1&retstart=1&retmax=5`,
      )
    ).text()
    expect(page.match(/<PMID>\d+<\/PMID>/g)).toEqual(['<PMID>11</PMID>', '<PMID>22</PMID>'])
  })
})

describe('createFaultPlan', () => {
  it('lets skip requests through, then injects, matching steps by utility in order', () => {
    const plan = createFaultPlan([
      { utility: 'efetch', skip: 1, fault: { kind: 'reset' } },
      { utility: 'esearch', fault: { kind: 'status', status: 500 } },
      { fault: { kind: 'malformed' } },
    ])
    expect(plan.next('efetch')).toBeUndefined() // skipped
    expect(plan.next('esearch')?.kind).toBe('status')
    expect(plan.next('efetch')?.kind).toBe('reset')
    expect(plan.next('einfo')?.kind).toBe('malformed')
    expect(plan.next('efetch')).toBeUndefined()
    expect(plan.pending).toBe(0)
  })
})
