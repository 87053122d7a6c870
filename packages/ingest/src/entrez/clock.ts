import { PubmatchError } from '@pubmatch/core'

/**
 * Time as the Entrez client sees it: the rate limiter, the backoff between retries and the
 * response cache's TTL all go through a clock, so tests can replace wall time with a
 * virtual one. (Request timeouts are the exception: they use real timers, because they
 * guard against a real socket hanging.)
 */
export interface Clock {
  /** Milliseconds since some fixed origin (the system clock uses the Unix epoch). */
  now(): number
  /**
   * Resolves after `ms` milliseconds. Rejects with an `ABORTED` {@link PubmatchError} when
   * `signal` aborts first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** Wall time: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortedError(signal))
        return
      }
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(abortedError(signal))
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        Math.max(0, ms),
      )
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

/**
 * The error for an operation its caller aborted.
 * @param signal - the signal that aborted; its `reason` becomes the cause
 */
export function abortedError(signal?: AbortSignal): PubmatchError {
  return new PubmatchError('ABORTED', 'entrez request aborted by the caller', {
    cause: signal?.reason,
  })
}
