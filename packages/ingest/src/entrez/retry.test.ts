import { describe, expect, it } from 'vitest'
import { backoffDelay, isRetryableStatus, parseRetryAfter, resolveRetryOptions } from './retry.ts'

describe('backoffDelay', () => {
  it('doubles from the base delay and applies jitter in [(1 − j)·d, d]', () => {
    const mid = resolveRetryOptions({ baseDelayMs: 1000, jitter: 0.5, random: () => 0.5 })
    // d = 1000·2^(r−1); delay = d·(1 − 0.5 + 0.5·0.5) = 0.75·d
    expect([1, 2, 3, 4].map((r) => backoffDelay(r, mid))).toEqual([750, 1500, 3000, 6000])
    const low = resolveRetryOptions({ baseDelayMs: 1000, jitter: 0.5, random: () => 0 })
    const high = resolveRetryOptions({ baseDelayMs: 1000, jitter: 0.5, random: () => 0.999999 })
    expect(backoffDelay(3, low)).toBe(2000)
    expect(backoffDelay(3, high)).toBeCloseTo(4000, 2)
  })

  it('caps the exponential delay at maxDelayMs', () => {
    const options = resolveRetryOptions({
      baseDelayMs: 1000,
      maxDelayMs: 5000,
      jitter: 0,
      random: () => 0.3,
    })
    expect([1, 2, 3, 4, 5, 10].map((r) => backoffDelay(r, options))).toEqual([
      1000, 2000, 4000, 5000, 5000, 5000,
    ])
  })

  it('has the documented defaults', () => {
    const { retries, baseDelayMs, maxDelayMs, jitter, maxRetryAfterMs } = resolveRetryOptions()
    expect({ retries, baseDelayMs, maxDelayMs, jitter, maxRetryAfterMs }).toEqual({
      retries: 4,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
      jitter: 0.5,
      maxRetryAfterMs: 120_000,
    })
  })
})

describe('parseRetryAfter', () => {
  const now = Date.UTC(2015, 9, 21, 7, 28, 0)

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000)
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000)
    expect(parseRetryAfter('0', now)).toBe(0)
  })

  it('reads an HTTP date relative to now, never below zero', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0)
  })

  it('returns undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('1.5', now)).toBeUndefined()
  })
})

describe('isRetryableStatus', () => {
  it('retries 429, 408 and 5xx but not other 4xx', () => {
    expect([429, 408, 500, 502, 503, 504].map(isRetryableStatus)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect([400, 401, 403, 404, 414].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
