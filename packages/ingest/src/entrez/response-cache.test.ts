import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createManualClock } from '../testing/clocks.ts'
import { createResponseCache, responseCacheKey } from './response-cache.ts'

const ENDPOINT = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi'

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => e.name)
}

describe('responseCacheKey', () => {
  it('ignores parameter order and api_key but not values, method or endpoint', () => {
    const key = responseCacheKey('GET', ENDPOINT, [
      ['db', 'pubmed'],
      ['term', 'cancer'],
      ['api_key', 'secret-1'],
    ])
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(
      responseCacheKey('GET', ENDPOINT, [
        ['term', 'cancer'],
        ['db', 'pubmed'],
      ]),
    ).toBe(key)
    expect(
      responseCacheKey('get', ENDPOINT, [
        ['api_key', 'other'],
        ['term', 'cancer'],
        ['db', 'pubmed'],
      ]),
    ).toBe(key)
    expect(
      responseCacheKey('GET', ENDPOINT, [
        ['db', 'pubmed'],
        ['term', 'cancers'],
      ]),
    ).not.toBe(key)
    expect(
      responseCacheKey('POST', ENDPOINT, [
        ['db', 'pubmed'],
        ['term', 'cancer'],
      ]),
    ).not.toBe(key)
    expect(
      responseCacheKey('GET', `${ENDPOINT}x`, [
        ['db', 'pubmed'],
        ['term', 'cancer'],
      ]),
    ).not.toBe(key)
  })

  it('keeps the order of repeated parameters (ELink id groups)', () => {
    const a = responseCacheKey('GET', ENDPOINT, [
      ['id', '1'],
      ['id', '2'],
    ])
    const b = responseCacheKey('GET', ENDPOINT, [
      ['id', '2'],
      ['id', '1'],
    ])
    expect(a).not.toBe(b)
  })
})

describe('createResponseCache', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-cache-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('returns what was stored until the TTL has passed', async () => {
    const clock = createManualClock(1_000_000)
    const cache = createResponseCache(dir, { ttlMs: 60_000, clock })
    const key = responseCacheKey('GET', ENDPOINT, [['term', 'x']])
    expect(await cache.get(key)).toBeUndefined()
    await cache.set(key, '<eSearchResult/>', `GET ${ENDPOINT}?term=x`)
    await clock.advance(60_000)
    expect(await cache.get(key)).toEqual({
      body: '<eSearchResult/>',
      storedAt: 1_000_000,
      request: `GET ${ENDPOINT}?term=x`,
    })
    await clock.advance(1)
    expect(await cache.get(key)).toBeUndefined()
    expect(await listFiles(dir)).toEqual([]) // the expired entry is removed
  })

  it('writes through a temporary file and leaves only the entry behind', async () => {
    const cache = createResponseCache(dir)
    const key = responseCacheKey('GET', ENDPOINT, [['term', 'y']])
    await cache.set(key, 'first', 'r')
    await cache.set(key, 'second', 'r')
    expect(await listFiles(dir)).toEqual([`${key}.json`])
    const stored = JSON.parse(
      await readFile(join(dir, key.slice(0, 2), `${key}.json`), 'utf8'),
    ) as { body: string }
    expect(stored.body).toBe('second')
    expect(cache.ttlMs).toBe(86_400_000)
  })

  it('treats a damaged entry as a miss and ignores leftover temporary files', async () => {
    const cache = createResponseCache(dir)
    const key = responseCacheKey('GET', ENDPOINT, [['term', 'z']])
    await mkdir(join(dir, key.slice(0, 2)), { recursive: true })
    // what a crash in the middle of a non-atomic write would leave
    await writeFile(join(dir, key.slice(0, 2), `${key}.json`), '{"version":1,"key":"')
    await writeFile(join(dir, key.slice(0, 2), `${key}.json.123.abc.tmp`), 'partial')
    expect(await cache.get(key)).toBeUndefined()
    await cache.set(key, 'ok', 'r')
    expect((await cache.get(key))?.body).toBe('ok')
  })

  it('rejects keys that are not hex (no path tricks)', async () => {
    const cache = createResponseCache(dir)
    await expect(cache.get('../../etc/passwd')).rejects.toThrow(/must be lowercase hex/)
  })
})
