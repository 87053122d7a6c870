import { PubmatchError } from '@pubmatch/core'
import { systemClock, type Clock } from './clock.ts'

/**
 * Spaces request starts so that no more than `requestsPerSecond` begin in any one-second
 * window. One limiter is shared by every request of a client (concurrent calls included) and
 * can be passed to several clients so that they share NCBI's per-user budget.
 */
export interface RateLimiter {
  /** The budget this limiter enforces. */
  readonly requestsPerSecond: number
  /** The spacing between two request starts, in milliseconds (`1000 / requestsPerSecond`). */
  readonly intervalMs: number
  /**
   * Reserves the next free slot and waits for it. Slots are handed out in call order, so
   * concurrent callers are queued fairly.
   * @param signal - aborts the wait (the reserved slot is then left unused)
   * @returns the clock time of the slot
   */
  acquire(signal?: AbortSignal): Promise<number>
  /**
   * Holds every later request back until `time` (clock milliseconds), e.g. when NCBI
   * answers 429 with a `Retry-After` header. Never moves the next slot earlier.
   */
  deferUntil(time: number): void
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /**
   * Requests allowed per second. Defaults to `3`, NCBI's limit without an API key (use
   * {@link defaultRequestsPerSecond} to pick 10 when there is a key).
   */
  requestsPerSecond?: number
  /** The clock to wait on. Defaults to {@link systemClock}. */
  clock?: Clock
}

/**
 * NCBI's published budget: 10 requests per second with an API key, 3 without.
 * @param apiKey - the NCBI API key, if any
 */
export function defaultRequestsPerSecond(apiKey?: string): number {
  return apiKey === undefined || apiKey === '' ? 3 : 10
}

/**
 * Creates a spacing limiter (a token bucket of capacity one): request `n` may start no
 * earlier than `interval` after request `n − 1`. A bucket with a larger burst would let
 * `2 × rate − 1` requests through in some one-second windows, which NCBI counts as a breach.
 * @param options - rate and clock; see {@link RateLimiterOptions}
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const requestsPerSecond = options.requestsPerSecond ?? 3
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `entrez rate limit must be a positive number of requests per second, got ${requestsPerSecond}`,
    )
  }
  const clock = options.clock ?? systemClock
  const intervalMs = 1000 / requestsPerSecond
  let next = Number.NEGATIVE_INFINITY

  return {
    requestsPerSecond,
    intervalMs,
    async acquire(signal) {
      const now = clock.now()
      const slot = Math.max(now, next)
      // Rounded up to the microsecond so that float error never puts n + 1 slots in n intervals.
      next = Math.ceil((slot + intervalMs) * 1000) / 1000
      if (slot > now) {
        await clock.sleep(slot - now, signal)
      }
      return slot
    },
    deferUntil(time) {
      next = Math.max(next, time)
    },
  }
}
