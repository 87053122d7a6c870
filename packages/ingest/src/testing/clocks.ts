import { abortedError, type Clock } from '../entrez/clock.ts'

/** A virtual clock whose timers fire only when the test advances it. */
export interface ManualClock extends Clock {
  /** Timers not yet fired. */
  readonly pendingTimers: number
  /**
   * Moves time forward by `ms`, firing due timers in time order and letting the code they
   * wake run (promise continuations, I/O callbacks) before firing the next.
   */
  advance(ms: number): Promise<void>
  /** Fires timers one after another until none is left (`maxTimers` guards against loops). */
  runAll(maxTimers?: number): Promise<void>
}

/** Lets pending promise continuations and immediate callbacks run. */
async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

/**
 * Creates a {@link ManualClock} starting at `start` milliseconds.
 * @param start - the initial time. Defaults to `0`.
 */
export function createManualClock(start = 0): ManualClock {
  let now = start
  let sequence = 0
  const timers: Array<{ at: number; seq: number; fire: () => void }> = []

  const fireNext = async (limit: number): Promise<boolean> => {
    await settle()
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
    const timer = timers[0]
    if (timer === undefined || timer.at > limit) {
      return false
    }
    timers.shift()
    now = Math.max(now, timer.at)
    timer.fire()
    await settle()
    return true
  }

  return {
    now: () => now,
    get pendingTimers() {
      return timers.length
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(abortedError(signal))
          return
        }
        const timer = {
          at: now + Math.max(0, ms),
          seq: (sequence += 1),
          fire: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve()
          },
        }
        const onAbort = (): void => {
          const index = timers.indexOf(timer)
          if (index !== -1) {
            timers.splice(index, 1)
          }
          reject(abortedError(signal))
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        timers.push(timer)
      })
    },
    async advance(ms) {
      const target = now + ms
      while (await fireNext(target)) {
        // keep firing due timers
      }
      now = Math.max(now, target)
      await settle()
    },
    async runAll(maxTimers = 10_000) {
      for (let i = 0; i < maxTimers; i += 1) {
        if (!(await fireNext(Number.POSITIVE_INFINITY))) {
          return
        }
      }
    },
  }
}

/** A virtual clock on which every sleep returns at once, moving time forward by its length. */
export interface InstantClock extends Clock {
  /** Every sleep requested so far, in milliseconds, in call order. */
  readonly sleeps: readonly number[]
}

/**
 * Creates an {@link InstantClock}: tests of retries and rate limiting run without waiting,
 * and the waits asked for are recorded. Time never goes backwards.
 * @param start - the initial time. Defaults to `0`.
 */
export function createInstantClock(start = 0): InstantClock {
  let now = start
  const sleeps: number[] = []
  return {
    now: () => now,
    sleeps,
    async sleep(ms, signal) {
      if (signal?.aborted === true) {
        throw abortedError(signal)
      }
      sleeps.push(ms)
      now += Math.max(0, ms)
      await new Promise<void>((resolve) => setImmediate(resolve))
    },
  }
}
