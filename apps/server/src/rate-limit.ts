/**
 * The rate limit (`@fastify/rate-limit`) and the proxies whose forwarded address is trusted
 * (Fastify's `trustProxy`): their options, their checks, and the flags both bins share
 * (`pubmatch serve`, `pubmatch-server`). A budget belongs to a client address (the forwarded one
 * behind a trusted proxy) or to a client session id, the `session` the search page sends with its
 * requests; a request with no session counts against its address.
 */
import { isIP, isIPv6 } from 'node:net'
import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { rateLimitedError } from './errors.ts'
import { SESSION_ID_PATTERN } from './schemas.ts'

/** What a request budget belongs to: the client's address, or its session id. */
export type RateLimitKey = 'address' | 'session'

/** A rate limit: at most `max` requests per `windowMs` for each address or session. */
export interface RateLimit {
  /** Requests a client may make in a window. */
  readonly max: number
  /** The window in milliseconds. Defaults to `60000` (a minute). */
  readonly windowMs?: number
  /**
   * What a budget belongs to: `'address'`, the client's address (the forwarded one behind a
   * proxy named by `trustProxy`), or `'session'`, the client session id of a request (`session`
   * in the query string or the JSON body; a request without one counts against its address).
   * Defaults to `'address'`.
   */
  readonly key?: RateLimitKey
}

/**
 * The reverse proxies whose `X-Forwarded-For` is believed: their addresses or CIDR ranges (also
 * `loopback`, `linklocal`, `uniquelocal`), as an array or one comma-separated string. A request
 * from one of them takes its client address from the header: the last address in it that is not
 * itself a trusted proxy. (No hop count: it cannot tell a request that came through the proxy
 * from one that wrote the header itself, and Fastify no longer honours one.)
 */
export type TrustProxy = string | readonly string[]

/** The text of the flags both bins share (`--rate-limit`, `--rate-limit-key`, `--trust-proxy`). */
export interface ServerFlags {
  /** `N/WINDOW` (`600/min`, `20/s`, `5000/h`, `100/10s`), `N` (a minute) or `off`. Defaults to `600/min`. */
  readonly rateLimit?: string
  /** `address` or `session`. Defaults to `address`. */
  readonly rateLimitKey?: string
  /** Addresses or CIDR ranges of the proxies, comma-separated. Defaults to none. */
  readonly trustProxy?: string
}

/** The server options the shared flags set. */
export interface ServerFlagOptions {
  readonly rateLimit: RateLimit | false
  readonly trustProxy?: TrustProxy
}

/** Requests a minute per address when nothing else is said. */
export const DEFAULT_RATE_LIMIT: number = 600

const MINUTE = 60_000
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, min: MINUTE, h: 3_600_000 }
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])
const SESSION_ID = new RegExp(SESSION_ID_PATTERN)

/**
 * The server options of the shared flags, checked.
 * @param flags - the flags' text
 * @throws PubmatchError `INVALID_ARGUMENT` naming the flag and its value
 */
export function parseServerFlags(flags: ServerFlags): ServerFlagOptions {
  const key = flags.rateLimitKey ?? 'address'
  if (key !== 'address' && key !== 'session') {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--rate-limit-key must be "address" or "session", got "${truncateForMessage(key)}"`,
    )
  }
  const limit = parseRateLimit(flags.rateLimit ?? `${DEFAULT_RATE_LIMIT}/min`)
  return {
    rateLimit: limit === false ? false : { ...limit, key },
    ...(flags.trustProxy === undefined
      ? {}
      : { trustProxy: checkTrustProxy(flags.trustProxy, '--trust-proxy') }),
  }
}

/**
 * `--rate-limit`: `off`, `N` (a minute) or `N/WINDOW`, the window a unit (`ms`, `s`, `min`, `h`)
 * with an optional count before it (`10s`).
 * @param text - the flag's value
 */
function parseRateLimit(text: string): { max: number; windowMs: number } | false {
  const value = text.trim()
  if (value === 'off') {
    return false
  }
  const match = /^(\d+)(?:\s*\/\s*(\d*)\s*([a-z]+))?$/.exec(value)
  const unit = match?.[3] === undefined ? MINUTE : UNITS[match[3]]
  const count = match?.[2] === undefined || match[2] === '' ? 1 : Number(match[2])
  if (match === null || unit === undefined || Number(match[1]) < 1 || count < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--rate-limit must be "off" or requests per window such as 600/min, 20/s, 5000/h or 100/10s, got "${truncateForMessage(text)}"`,
    )
  }
  return { max: Number(match[1]), windowMs: count * unit }
}

/**
 * A `trustProxy` option, checked: one address, CIDR range or named range at least, and nothing
 * else (a hop count is refused, saying why).
 * @param value - the option
 * @param name - the option or flag, for the message
 * @returns the entries, as Fastify takes them
 * @throws PubmatchError `INVALID_ARGUMENT` naming the option and the value
 */
export function checkTrustProxy(value: TrustProxy, name: string): string[] {
  const shown = typeof value === 'string' ? value : value.join(',')
  const entries = (typeof value === 'string' ? value.split(',') : [...value]).map((entry) =>
    String(entry).trim(),
  )
  const bad = entries.find((entry) => !isAddressRange(entry))
  if (bad === undefined && entries.length > 0) {
    return entries
  }
  const why =
    bad !== undefined && /^\d+$/.test(bad)
      ? ": a hop count is not taken, since it cannot tell a request that came through the proxy from one that wrote X-Forwarded-For itself; give the proxy's address"
      : bad !== undefined && bad !== shown.trim()
        ? ` ("${truncateForMessage(bad)}" is neither)`
        : ''
  throw new PubmatchError(
    'INVALID_ARGUMENT',
    `${name} must be the proxies' addresses or CIDR ranges (or loopback, linklocal, uniquelocal) separated by commas, got "${truncateForMessage(shown)}"${why}`,
  )
}

/** An address, a CIDR range or one of proxy-addr's named ranges. */
function isAddressRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) {
    return true
  }
  const slash = entry.indexOf('/')
  if (slash === -1) {
    return isIP(entry) !== 0
  }
  const version = isIP(entry.slice(0, slash))
  const prefix = entry.slice(slash + 1)
  return version !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/**
 * The client session id of a request: `session` in its query string or its JSON body, when it
 * looks like one (`SESSION_ID_PATTERN`).
 * @param request - the request (its body is parsed from the `preValidation` hook on)
 */
export function sessionOf(request: FastifyRequest): string | undefined {
  for (const holder of [request.query, request.body]) {
    const session =
      typeof holder === 'object' && holder !== null
        ? (holder as { session?: unknown }).session
        : undefined
    if (typeof session === 'string' && SESSION_ID.test(session)) {
      return session
    }
  }
  return undefined
}

/**
 * The budget key of an address as `@fastify/rate-limit` keys it by default: an IPv4 address (also
 * one mapped into IPv6) as it is, an IPv6 address by its /64 prefix (a client usually holds the
 * whole /64).
 * @param ip - the client's address
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase()
  if (!isIPv6(address)) {
    return address
  }
  // an IPv4 tail (::ffff:1.2.3.4) stands for the last two groups
  const last = address.slice(address.lastIndexOf(':') + 1)
  const ipv4 = last.includes('.') ? last : undefined
  const groups = (part: string): string[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]))
  const [head = '', tail] = address.split('::')
  const front = groups(head)
  const back = tail === undefined ? [] : groups(tail)
  const full = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back].map(
    (group) => Number.parseInt(group, 16),
  )
  if (ipv4 !== undefined && full.slice(0, 5).every((group) => group === 0) && full[5] === 0xffff) {
    return ipv4
  }
  return `${full
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`
}

/** A window as a message says it: `a minute`, `10 s`. */
function windowText(windowMs: number): string {
  switch (windowMs) {
    case 1000:
      return 'a second'
    case MINUTE:
      return 'a minute'
    case 3_600_000:
      return 'an hour'
    default:
      return windowMs % 1000 === 0 ? `${windowMs / 1000} s` : `${windowMs} ms`
  }
}

/**
 * A `rateLimit` option, checked and with its defaults.
 * @param option - `false`, requests a minute per address, or a {@link RateLimit}
 * @throws PubmatchError `INVALID_ARGUMENT`
 */
export function checkRateLimit(
  option: number | false | RateLimit | undefined,
): Required<RateLimit> | false {
  if (option === false) {
    return false
  }
  const limit: RateLimit =
    typeof option === 'number' ? { max: option } : (option ?? { max: DEFAULT_RATE_LIMIT })
  const windowMs = limit.windowMs ?? MINUTE
  const key = limit.key ?? 'address'
  if (!Number.isInteger(limit.max) || limit.max < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `rateLimit.max must be a whole number ≥ 1, got ${String(limit.max)}`,
    )
  }
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `rateLimit.windowMs must be a whole number of milliseconds ≥ 1, got ${String(windowMs)}`,
    )
  }
  if ((key as string) !== 'address' && (key as string) !== 'session') {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `rateLimit.key must be "address" or "session", got "${truncateForMessage(String(key))}"`,
    )
  }
  return { max: limit.max, windowMs, key }
}

/**
 * Registers the rate limit on an app, before its routes. Per address it runs when a request
 * arrives (`onRequest`); per session once the body is parsed (`preValidation`), to read a
 * `session` in it.
 * @param app - the app
 * @param limit - the checked limit (`checkRateLimit`)
 */
export async function registerRateLimit(
  app: FastifyInstance,
  limit: Required<RateLimit>,
): Promise<void> {
  const bySession = limit.key === 'session'
  await app.register(fastifyRateLimit, {
    max: limit.max,
    timeWindow: limit.windowMs,
    ...(bySession
      ? {
          hook: 'preValidation' as const,
          keyGenerator: (request: FastifyRequest) => {
            const session = sessionOf(request)
            return session === undefined
              ? `address ${addressKey(request.ip)}`
              : `session ${session}`
          },
        }
      : {}),
    errorResponseBuilder: (request, context) =>
      rateLimitedError({
        max: context.max,
        ttl: context.ttl,
        window: windowText(limit.windowMs),
        client: bySession && sessionOf(request) !== undefined ? 'session' : 'address',
      }),
  })
}
