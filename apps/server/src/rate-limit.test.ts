/**
 * The rate limit and trusted proxies through `inject` (which sets the connection's address and
 * headers), on one bundled article: off, per address, per session, behind a proxy named or not,
 * and the flags' values refused with the flag named. Bounded by request counts.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PubmatchError } from '@pubmatch/core'
import { openSearch, type SearchEngine } from '@pubmatch/engine'
import { samplePath } from '@pubmatch/sample-data'
import { sampleIndex } from '../test/fixtures.ts'
import { addressKey, parseServerFlags } from './rate-limit.ts'
import { createServer, type ServerOptions } from './server.ts'

const PROXY = '10.0.0.7'
const USER_A = '203.0.113.5'
const USER_B = '203.0.113.6'

describe('rate limit', () => {
  let dir: string
  let engine: SearchEngine
  const apps: FastifyInstance[] = []
  /** An app over the sample engine, closed after the tests. */
  const serve = async (options: Omit<ServerOptions, 'engine'>): Promise<FastifyInstance> => {
    const app = await createServer({ engine, ...options })
    apps.push(app)
    return app
  }
  /** `GET url` from an address, with headers. */
  const get = (
    app: FastifyInstance,
    url: string,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> => app.inject({ method: 'GET', url, remoteAddress, headers })
  /** The statuses of `count` requests. */
  const statuses = async (
    count: number,
    request: () => Promise<LightMyRequestResponse>,
  ): Promise<number[]> => {
    const seen = []
    for (let i = 0; i < count; i++) {
      seen.push((await request()).statusCode)
    }
    return seen
  }
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-rate-limit-'))
    engine = await openSearch({
      index: await sampleIndex(dir, [samplePath('pubmed', 'pmid_9500320.xml')]),
    })
  })
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()))
    await rm(dir, { recursive: true, force: true })
  })

  it('answers every request when the limit is off, past the default 600', async () => {
    const app = await serve({ rateLimit: false })
    const seen = await statuses(650, () => get(app, '/health', USER_A))
    expect(seen.filter((status) => status !== 200)).toEqual([])
    expect((await get(app, '/health', USER_A)).headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('limits each address to 600 requests a minute by default', async () => {
    const app = await serve({})
    const first = await get(app, '/health', USER_A)
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '600',
      'x-ratelimit-remaining': '599',
    })
  })

  it('answers 429 past N requests from one address, with Retry-After and the rate-limit headers, and counts each address apart', async () => {
    const app = await serve(parseServerFlags({ rateLimit: '3/10s' }))
    const answers = []
    for (let i = 0; i < 4; i++) {
      answers.push(await get(app, '/health', USER_A))
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429])
    expect(answers.slice(0, 3).map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual([
      '2',
      '1',
      '0',
    ])
    const refused = answers[3]!
    expect(refused.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
    })
    // the window is 10 s: the client is told to come back within it
    for (const header of ['retry-after', 'x-ratelimit-reset']) {
      expect(Number(refused.headers[header])).toBeGreaterThanOrEqual(1)
      expect(Number(refused.headers[header])).toBeLessThanOrEqual(10)
    }
    const body = refused.json<{ code: string; message: string }>()
    expect(body.code).toBe('RATE_LIMITED')
    expect(body.message).toMatch(
      /^more than 3 requests in 10 s from this client address; retry in \d+ s$/,
    )
    expect((await get(app, '/health', USER_B)).statusCode).toBe(200)
  })

  it('ignores X-Forwarded-For without trusted proxies: every user behind a proxy shares its budget', async () => {
    const app = await serve({ rateLimit: { max: 2 } })
    expect(
      await get(app, '/health', PROXY, { 'x-forwarded-for': USER_A }).then((r) => r.statusCode),
    ).toBe(200)
    expect(
      await get(app, '/health', PROXY, { 'x-forwarded-for': USER_B }).then((r) => r.statusCode),
    ).toBe(200)
    expect(
      await get(app, '/health', PROXY, { 'x-forwarded-for': '198.51.100.1' }).then(
        (r) => r.statusCode,
      ),
    ).toBe(429)
  })

  it('gives each forwarded address of a trusted proxy its own budget, and believes nobody else', async () => {
    const app = await serve({
      ...parseServerFlags({ rateLimit: '2/min', trustProxy: `${PROXY}, 192.168.0.0/16` }),
    })
    app.get('/whoami', (request) => ({ ip: request.ip }))
    expect(
      await statuses(3, () => get(app, '/health', PROXY, { 'x-forwarded-for': USER_A })),
    ).toEqual([200, 200, 429])
    expect(
      await statuses(3, () => get(app, '/health', PROXY, { 'x-forwarded-for': USER_B })),
    ).toEqual([200, 200, 429])
    // what a client wrote before the proxy appended its address (nginx's $proxy_add_x_forwarded_for) changes nothing
    expect(
      (await get(app, '/health', PROXY, { 'x-forwarded-for': `198.51.100.9, ${USER_A}` }))
        .statusCode,
    ).toBe(429)
    // a client reaching the server directly is its own address, whatever it forwards
    expect(
      await statuses(2, () =>
        get(app, '/health', '198.51.100.20', { 'x-forwarded-for': '198.51.100.30' }),
      ),
    ).toEqual([200, 200])
    // the request's address, which the request log records as remoteAddress, is the user's
    const seen = await app.inject({
      method: 'GET',
      url: '/whoami',
      remoteAddress: '192.168.3.4',
      headers: { 'x-forwarded-for': '198.51.100.40' },
    })
    expect(seen.json()).toEqual({ ip: '198.51.100.40' })
    const direct = await app.inject({
      method: 'GET',
      url: '/whoami',
      remoteAddress: '198.51.100.21',
      headers: { 'x-forwarded-for': '198.51.100.40' },
    })
    expect(direct.json()).toEqual({ ip: '198.51.100.21' })
  })

  it('gives each client session its own budget per session; requests without one count against their address', async () => {
    const app = await serve({ rateLimit: { max: 2, key: 'session' }, logDir: join(dir, 'log') })
    const search = (session: string): Promise<LightMyRequestResponse> =>
      get(app, `/search?q=cell&session=${session}`, PROXY)
    const first = await statuses(3, () => search('sessionAAAA'))
    expect(first).toEqual([200, 200, 429])
    const refused = await search('sessionAAAA')
    expect(refused.json<{ message: string }>().message).toMatch(
      /^more than 2 requests in a minute from this client session; retry in \d+ s$/,
    )
    // the session in a JSON body counts as well (a click event)
    const click = (session: string): Promise<LightMyRequestResponse> =>
      app.inject({
        method: 'POST',
        url: '/events',
        remoteAddress: PROXY,
        payload: { type: 'click', session, search: 'x', pmid: '9500320', position: 1 },
      })
    expect(await statuses(3, () => click('sessionBBBB'))).toEqual([202, 202, 429])
    expect((await click('sessionAAAA')).statusCode).toBe(429)
    // the same address without a session has a budget of its own
    expect(await statuses(3, () => get(app, '/health', PROXY))).toEqual([200, 200, 429])
    expect((await get(app, '/health', PROXY)).json<{ message: string }>().message).toMatch(
      /from this client address;/,
    )
  })

  it('refuses bad flag values with INVALID_ARGUMENT naming the flag and the value', () => {
    const refusal = (flags: Parameters<typeof parseServerFlags>[0]): PubmatchError => {
      try {
        parseServerFlags(flags)
      } catch (error) {
        return error as PubmatchError
      }
      throw new Error(`accepted ${JSON.stringify(flags)}`)
    }
    for (const rateLimit of ['lots', '0/min', '10/m', '10/fortnight', '10/0s', '-5/min', '']) {
      const error = refusal({ rateLimit })
      expect([error.code, error.message]).toEqual([
        'INVALID_ARGUMENT',
        expect.stringContaining(`--rate-limit must be "off" or requests per window`),
      ])
      expect(error.message).toContain(`got "${rateLimit}"`)
    }
    expect(refusal({ rateLimitKey: 'user' }).message).toBe(
      '--rate-limit-key must be "address" or "session", got "user"',
    )
    expect(refusal({ trustProxy: '2' }).message).toMatch(
      /^--trust-proxy must be the proxies' addresses or CIDR ranges .*, got "2": a hop count is not taken/,
    )
    expect(refusal({ trustProxy: '127.0.0.1,nginx' }).message).toMatch(
      /^--trust-proxy must be .*, got "127.0.0.1,nginx" \("nginx" is neither\)$/,
    )
    for (const trustProxy of ['10.0.0.0/33', '', '10.0.0.0/8/1', 'true']) {
      expect(refusal({ trustProxy }).message).toContain(`--trust-proxy must be`)
    }
  })

  it('reads the flags: windows in ms, s, min or h, a bare number a minute, off, addresses and ranges', () => {
    expect(parseServerFlags({})).toEqual({
      rateLimit: { max: 600, windowMs: 60_000, key: 'address' },
    })
    expect(parseServerFlags({ rateLimit: '20/s', rateLimitKey: 'session' }).rateLimit).toEqual({
      max: 20,
      windowMs: 1000,
      key: 'session',
    })
    expect(parseServerFlags({ rateLimit: '5000/h' }).rateLimit).toMatchObject({
      max: 5000,
      windowMs: 3_600_000,
    })
    expect(parseServerFlags({ rateLimit: '100/10s' }).rateLimit).toMatchObject({
      max: 100,
      windowMs: 10_000,
    })
    expect(parseServerFlags({ rateLimit: '100 / 500ms' }).rateLimit).toMatchObject({
      max: 100,
      windowMs: 500,
    })
    expect(parseServerFlags({ rateLimit: '120' }).rateLimit).toMatchObject({
      max: 120,
      windowMs: 60_000,
    })
    expect(parseServerFlags({ rateLimit: 'off', rateLimitKey: 'session' }).rateLimit).toBe(false)
    expect(
      parseServerFlags({ trustProxy: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback'])
  })

  it('refuses bad options of createServer with INVALID_ARGUMENT naming the option', async () => {
    await expect(createServer({ engine, rateLimit: { max: 0 } })).rejects.toThrow(
      new PubmatchError('INVALID_ARGUMENT', 'rateLimit.max must be a whole number ≥ 1, got 0'),
    )
    await expect(createServer({ engine, rateLimit: { max: 5, windowMs: 0.5 } })).rejects.toThrow(
      /^rateLimit.windowMs must be/,
    )
    await expect(createServer({ engine, rateLimit: 2.5 })).rejects.toThrow(/^rateLimit.max must be/)
    await expect(createServer({ engine, trustProxy: ['10.0.0.1', 'proxy.local'] })).rejects.toThrow(
      /^trustProxy must be .*\("proxy.local" is neither\)$/,
    )
  })
})

describe('addressKey', () => {
  it('keys IPv4 as it is and IPv6 by its /64, as @fastify/rate-limit does', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('::FFFF:203.0.113.5')).toBe('203.0.113.5')
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('2001:db8:0:1::1')).not.toBe(addressKey('2001:db8::1'))
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })
})
