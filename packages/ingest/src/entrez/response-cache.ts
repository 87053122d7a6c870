import { createHash } from 'node:crypto'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '@pubmatch/core/node'
import { PubmatchError } from '@pubmatch/core'
import { systemClock, type Clock } from './clock.ts'
import { sortParams, withoutApiKey, type EntrezParams } from './params.ts'

/** A stored answer. */
export interface CachedResponse {
  /** The answer body, exactly as received. */
  readonly body: string
  /** When it was stored (clock milliseconds). */
  readonly storedAt: number
  /** The request it answers (method and URL without `api_key`), for humans reading the cache. */
  readonly request: string
}

/**
 * A persistent store of E-utilities answers keyed by request (see {@link responseCacheKey}).
 * Entries older than the TTL are misses. Writes go to a temporary file that is renamed into
 * place, so a crash leaves either the old entry or the new one, never half a file.
 */
export interface ResponseCache {
  /** The directory holding the entries. */
  readonly dir: string
  /** How long an entry stays fresh, in milliseconds. */
  readonly ttlMs: number
  /**
   * The fresh entry for `key`, or `undefined` when there is none, it has expired, or the file
   * is unreadable (an expired or damaged entry is removed).
   * @throws PubmatchError `IO` when the cache directory cannot be read for another reason
   */
  get(key: string): Promise<CachedResponse | undefined>
  /**
   * Stores an answer.
   * @param key - from {@link responseCacheKey}
   * @param body - the answer body
   * @param request - a description of the request (never include the API key)
   * @throws PubmatchError `IO` when the entry cannot be written
   */
  set(key: string, body: string, request: string): Promise<void>
  /** Removes an entry (no error when it does not exist). */
  delete(key: string): Promise<void>
}

/** Options of {@link createResponseCache}. */
export interface ResponseCacheOptions {
  /** How long an entry stays fresh, in milliseconds. Defaults to `86400000` (24 hours); `Infinity` never expires. */
  ttlMs?: number
  /** The clock that dates entries and checks their age. Defaults to {@link systemClock}. */
  clock?: Pick<Clock, 'now'>
}

const ENTRY_VERSION = 1

/**
 * The cache key of a request: SHA-256 over the method, the endpoint URL and the parameters
 * sorted by name, with `api_key` left out so that the same request made with another key
 * (or none) hits the same entry.
 * @param method - `GET` or `POST`
 * @param endpointUrl - the endpoint URL without query string
 * @param params - the request parameters
 */
export function responseCacheKey(
  method: string,
  endpointUrl: string,
  params: EntrezParams,
): string {
  const hash = createHash('sha256')
  hash.update(`${method.toUpperCase()}\n${endpointUrl}\n`)
  for (const [name, value] of sortParams(withoutApiKey(params))) {
    hash.update(`${name}=${value}\n`)
  }
  return hash.digest('hex')
}

/**
 * Creates a response cache in `dir` (created on first write). Entries live in
 * `dir/<first two hex digits>/<key>.json`.
 * @param dir - the cache directory
 * @param options - TTL and clock; see {@link ResponseCacheOptions}
 */
export function createResponseCache(
  dir: string,
  options: ResponseCacheOptions = {},
): ResponseCache {
  const ttlMs = options.ttlMs ?? 86_400_000
  if (!(ttlMs >= 0)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `response cache TTL must be ≥ 0 ms, got ${ttlMs}`,
    )
  }
  const clock = options.clock ?? systemClock
  const pathOf = (key: string): string => {
    if (!/^[0-9a-f]{16,}$/.test(key)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `response cache key must be lowercase hex, got "${key.slice(0, 80)}"`,
      )
    }
    return join(dir, key.slice(0, 2), `${key}.json`)
  }

  return {
    dir,
    ttlMs,
    async get(key) {
      const path = pathOf(key)
      let text: string
      try {
        text = await readFile(path, 'utf8')
      } catch (error) {
        if (isMissing(error)) {
          return undefined
        }
        throw new PubmatchError(
          'IO',
          `cannot read response cache entry ${path}: ${(error as Error).message}`,
          {
            cause: error,
            details: { file: path },
          },
        )
      }
      const entry = readEntry(text, key)
      if (entry === undefined || clock.now() - entry.storedAt > ttlMs) {
        await rm(path, { force: true }).catch(() => undefined)
        return undefined
      }
      return entry
    },
    async set(key, body, request) {
      const path = pathOf(key)
      const entry = { version: ENTRY_VERSION, key, request, storedAt: clock.now(), body }
      try {
        await mkdir(dirname(path), { recursive: true })
        await writeFileAtomic(path, JSON.stringify(entry))
      } catch (error) {
        throw new PubmatchError(
          'IO',
          `cannot write response cache entry ${path}: ${(error as Error).message}`,
          {
            cause: error,
            details: { file: path },
          },
        )
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

function readEntry(text: string, key: string): CachedResponse | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) {
    return undefined
  }
  const entry = value as Record<string, unknown>
  if (
    entry['version'] !== ENTRY_VERSION ||
    entry['key'] !== key ||
    typeof entry['body'] !== 'string' ||
    typeof entry['storedAt'] !== 'number' ||
    typeof entry['request'] !== 'string'
  ) {
    return undefined
  }
  return { body: entry['body'], storedAt: entry['storedAt'], request: entry['request'] }
}
