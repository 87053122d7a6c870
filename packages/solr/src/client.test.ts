import { describe, expect, it } from 'vitest'
import { parseBackend } from './backend.ts'
import { createSolrClient } from './client.ts'

/** A fetch that answers from a script, recording the URLs asked. */
function scripted(answers: Array<(url: string, init?: RequestInit) => Response | Error>): { fetch: typeof fetch; urls: string[]; inits: Array<RequestInit | undefined> } {
  const urls: string[] = []
  const inits: Array<RequestInit | undefined> = []
  let i = 0
  const fake = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString()
    urls.push(url)
    inits.push(init)
    const answer = answers[Math.min(i++, answers.length - 1)]!(url, init)
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)
  }
  return { fetch: fake, urls, inits }
}

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('createSolrClient', () => {
  it('fails over to the next node on a connection error or a 503, and retries there', async () => {
    const script = scripted([() => new TypeError('fetch failed'), () => json(503, { error: { msg: 'no servers hosting shard' } }), () => json(200, { responseHeader: { status: 0 }, ok: true })])
    const client = createSolrClient({ urls: ['http://a:1/solr', 'http://b:2/solr/'], backoffMs: 1, fetch: script.fetch })
    const answer = await client.request({ path: 'c/select', params: { q: 'x', fq: ['a', 'b'] } })
    expect(answer.ok).toBe(true)
    expect(script.urls.map((url) => url.split('/c/')[0])).toEqual(['http://a:1/solr', 'http://b:2/solr', 'http://a:1/solr'])
    expect(script.urls[0]).toBe('http://a:1/solr/c/select?wt=json&q=x&fq=a&fq=b')
  })

  it("does not retry Solr's own refusals, and names Solr's message", async () => {
    const script = scripted([() => json(400, { error: { msg: "undefined field: 'nope'" } })])
    const client = createSolrClient({ urls: ['http://a:1/solr'], backoffMs: 1, fetch: script.fetch })
    const error = await client.request({ path: 'c/select' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'UPSTREAM_HTTP', details: { status: 400 } })
    expect((error as Error).message).toMatch(/c\/select answered 400: undefined field: 'nope'/)
    expect(script.urls).toHaveLength(1)
  })

  it('refuses a success whose body is not a Solr JSON response, naming the node and path, without retrying', async () => {
    for (const body of ['<html>proxy error</html>', '[1, 2]', '{"responseHeader": {"status": "0"}}']) {
      const script = scripted([() => new Response(body, { status: 200 })])
      const client = createSolrClient({ urls: ['http://a:1/solr'], backoffMs: 1, fetch: script.fetch })
      const error = await client.request({ path: '/c/select', params: { q: 'x' } }).catch((caught: unknown) => caught)
      expect(error).toMatchObject({ code: 'MALFORMED_JSON', details: { file: 'http://a:1/solr/c/select' } })
      expect(script.urls).toHaveLength(1)
    }
    const script = scripted([() => new Response('{"responseHeader": {"status": "0"}}', { status: 200 })])
    const error = await createSolrClient({ urls: ['http://a:1/solr'], fetch: script.fetch })
      .request({ path: 'c/select' })
      .catch((caught: unknown) => caught)
    expect((error as Error).message).toMatchInlineSnapshot(`"http://a:1/solr/c/select: responseHeader.status is "0", expected a number"`)
  })

  it('gives up with NETWORK after its attempts, and sends no request twice when told not to retry', async () => {
    const down = scripted([() => new TypeError('connect ECONNREFUSED')])
    const client = createSolrClient({ urls: ['http://a:1/solr'], retries: 3, backoffMs: 1, fetch: down.fetch })
    const error = await client.request({ path: 'admin/collections' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'NETWORK' })
    expect((error as Error).message).toMatch(/ECONNREFUSED/)
    expect(down.urls).toHaveLength(3)
    const once = scripted([() => new TypeError('connect ECONNREFUSED')])
    const single = createSolrClient({ urls: ['http://a:1/solr'], retries: 3, backoffMs: 1, fetch: once.fetch })
    await expect(single.request({ path: 'admin/collections', retry: false })).rejects.toMatchObject({ code: 'NETWORK' })
    expect(once.urls).toHaveLength(1)
  })

  it('posts JSON bodies, raw bytes, and long queries as forms', async () => {
    const script = scripted([() => json(200, {})])
    const client = createSolrClient({ urls: ['http://a:1/solr'], fetch: script.fetch })
    await client.request({ path: 'c/update', body: [{ id: '1' }] })
    await client.request({ path: 'admin/configs', body: new Uint8Array([80, 75]), contentType: 'application/octet-stream' })
    await client.request({ path: 'c/select', params: { q: 'x'.repeat(5000) } })
    expect(script.inits.map((init) => [init?.method, (init?.headers as Record<string, string>)['content-type']])).toEqual([
      ['POST', 'application/json'],
      ['POST', 'application/octet-stream'],
      ['POST', 'application/x-www-form-urlencoded'],
    ])
    expect(script.urls[2]).toBe('http://a:1/solr/c/select')
    expect(script.inits[0]?.body).toBe('[{"id":"1"}]')
  })

  it('refuses a client without a valid URL', () => {
    expect(() => createSolrClient({ urls: [] })).toThrow(/at least one base URL/)
    expect(() => createSolrClient({ urls: ['ftp://x/solr'] })).toThrow(/is not an http\(s\) Solr URL/)
  })
})

describe('parseBackend', () => {
  it('reads one or several nodes, the path and the collection', () => {
    expect(parseBackend('solr://127.0.0.1:8983/solr/pubmed')).toEqual({ urls: ['http://127.0.0.1:8983/solr'], collection: 'pubmed', scoring: 'bm25f' })
    expect(parseBackend('solr+https://a:1,b:2/solr/nf/?scoring=combined')).toEqual({ urls: ['https://a:1/solr', 'https://b:2/solr'], collection: 'nf', scoring: 'combined' })
  })

  it('names what is wrong', () => {
    expect(() => parseBackend('http://a:1/solr/x')).toThrow(/is not a Solr collection address/)
    expect(() => parseBackend('solr://a/solr/x')).toThrow(/has a host without a port: "a"/)
    expect(() => parseBackend('solr://a:1/solr/x?scoring=tfidf')).toThrow(/asks for scoring "tfidf"/)
    expect(() => parseBackend('solr://a:1/solr/x?shards=2')).toThrow(/unknown option "shards"/)
  })
})
