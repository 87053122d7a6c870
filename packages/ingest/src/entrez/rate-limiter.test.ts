import { describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { createManualClock } from '../testing/clocks.ts'
import { createEntrezClient } from './client.ts'
import { createRateLimiter, defaultRequestsPerSecond } from './rate-limiter.ts'

const esearchBody =
  '<?xml version="1.0" ?><eSearchResult><Count>0</Count><RetMax>0</RetMax><RetStart>0</RetStart><IdList/></eSearchResult>'

describe('createRateLimiter', () => {
  it('spaces concurrent acquisitions 1000/3 ms apart by default', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    const granted: number[] = []
    const done = Promise.all(
      [0, 1, 2, 3, 4].map(async () => {
        await limiter.acquire()
        granted.push(clock.now())
      }),
    )
    await clock.runAll()
    await done
    // each slot is the previous one + 1000/3 ms, rounded up to the microsecond:
    // ⌈333.3333⌉ = 333.334, ⌈666.6673⌉ = 666.668, ⌈1000.0013⌉ = 1000.002, ⌈1333.3353⌉ = 1333.336
    expect(granted).toEqual([0, 333.334, 666.668, 1000.002, 1333.336])
    expect(limiter.intervalMs).toBeCloseTo(333.333, 3)
  })

  it('allows 10 requests per second with an API key', async () => {
    expect(defaultRequestsPerSecond('abc123')).toBe(10)
    expect(defaultRequestsPerSecond(undefined)).toBe(3)
    expect(defaultRequestsPerSecond('')).toBe(3)
    const clock = createManualClock(5000)
    const limiter = createRateLimiter({
      requestsPerSecond: defaultRequestsPerSecond('abc123'),
      clock,
    })
    const slots = Promise.all([1, 2, 3, 4].map(() => limiter.acquire()))
    await clock.runAll()
    expect(await slots).toEqual([5000, 5100, 5200, 5300])
  })

  it('never lets more than 3 requests start in any one-second window', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    const slots = Promise.all(Array.from({ length: 10 }, () => limiter.acquire()))
    await clock.runAll()
    const times = await slots
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(3)
    }
  })

  it('does not wait when requests are already further apart than the interval', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    expect(await limiter.acquire()).toBe(0)
    await clock.advance(2000)
    expect(await limiter.acquire()).toBe(2000)
    expect(clock.pendingTimers).toBe(0)
  })

  it('holds every later slot back after deferUntil', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    await limiter.acquire()
    limiter.deferUntil(5000)
    limiter.deferUntil(10) // never moves the next slot earlier
    const slots = Promise.all([limiter.acquire(), limiter.acquire()])
    await clock.runAll()
    expect((await slots).map(Math.round)).toEqual([5000, 5333])
  })

  it('rejects with ABORTED when the signal aborts during the wait', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toSatisfy((e: unknown) => isPubmatchError(e, 'ABORTED'))
  })

  it('rejects a rate that is not a positive number', () => {
    expect(() => createRateLimiter({ requestsPerSecond: 0 })).toThrow(/positive/)
  })

  it('is shared by two clients so that their requests together keep the spacing', async () => {
    const clock = createManualClock()
    const limiter = createRateLimiter({ clock })
    const seen: Array<{ client: string; at: number }> = []
    const fetchFor =
      (client: string): typeof fetch =>
      () => {
        seen.push({ client, at: clock.now() })
        return Promise.resolve(new Response(esearchBody, { status: 200 }))
      }
    const a = createEntrezClient({ rateLimiter: limiter, clock, fetch: fetchFor('a') })
    const b = createEntrezClient({ rateLimiter: limiter, clock, fetch: fetchFor('b') })
    const calls = Promise.all([
      a.esearch({ term: 'x' }),
      b.esearch({ term: 'y' }),
      a.esearch({ term: 'z' }),
      b.esearch({ term: 'w' }),
    ])
    await clock.runAll()
    await calls
    expect(seen.map((s) => s.client)).toEqual(['a', 'b', 'a', 'b'])
    expect(seen.map((s) => Math.round(s.at))).toEqual([0, 333, 667, 1000])
  })
})
