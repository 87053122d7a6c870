import { describe, expect, it } from 'vitest'
import {
  dueTimes,
  runPaced,
  runSerial,
  summarizeLoad,
  windowAround,
  type RequestSample,
} from './rerank-load.ts'

describe('dueTimes', () => {
  it('spaces requests 1000 / rate ms apart from 0', () => {
    expect(dueTimes(4, 5)).toEqual([0, 200, 400, 600])
    expect(dueTimes(3, 4)).toEqual([0, 250, 500])
    expect(dueTimes(0, 10)).toEqual([])
  })
})

describe('summarizeLoad', () => {
  const samples: RequestSample[] = [
    { i: 0, due: 0, ms: 10, aMs: 4, bMs: 6, reranked: true },
    { i: 1, due: 100, ms: 30, aMs: 10, bMs: 20, reranked: true },
    { i: 2, due: 200, ms: 5, aMs: 5, reranked: false },
    { i: 3, due: 300, ms: 900, error: 'NETWORK' },
    { i: 4, due: 400, ms: 20, aMs: 6, bMs: 14, reranked: true },
  ]

  it('counts failures by code and summarises the answered requests only', () => {
    const s = summarizeLoad(samples)
    expect(s.requests).toBe(5)
    expect(s.failed).toBe(1)
    expect(s.failures).toEqual({ NETWORK: 1 })
    expect(s.reranked).toBe(3)
    // answered: 5, 10, 20, 30 → nearest rank p50 = 2nd = 10, p99 = 30
    expect([s.latency.count, s.latency.p50, s.latency.p99, s.latency.max]).toEqual([4, 10, 30, 30])
    // first due 0, last answer 300 + 900 = 1,200 ms → 1.2 s; 4 answered / 1.2 s
    expect(s.seconds).toBeCloseTo(1.2, 10)
    expect(s.throughput).toBeCloseTo(4 / 1.2, 10)
  })

  it('splits the time of searches with both requests into (a) and (b)', () => {
    const s = summarizeLoad(samples)
    // both: (4, 6), (10, 20), (6, 14) → Σa 20, Σb 40 → share (a) 1/3
    expect(s.a?.p50).toBe(6)
    expect(s.b?.max).toBe(20)
    expect(s.shareA).toBeCloseTo(1 / 3, 12)
  })

  it('gives NaN latencies and no split for no answers', () => {
    const s = summarizeLoad([{ i: 0, due: 0, ms: 5, error: 'TIMEOUT' }])
    expect(s.failed).toBe(1)
    expect(s.latency.count).toBe(0)
    expect(s.latency.p99).toBeNaN()
    expect(s.a).toBeUndefined()
    expect(summarizeLoad([]).requests).toBe(0)
  })
})

describe('windowAround', () => {
  it('keeps the requests due within half the width on each side, the end excluded', () => {
    const samples = [0, 4999, 5000, 9999, 10_000, 15_000].map((due, i): RequestSample => ({
      i,
      due,
      ms: 1,
    }))
    expect(windowAround(samples, 10_000, 5000).map((s) => s.due)).toEqual([5000, 9999, 10_000])
  })
})

describe('runPaced and runSerial', () => {
  it('starts paced requests on time even when they are slow, and times them from their due time', async () => {
    // request 0 answers only once request 1 has started: a pacer that waited for answers would
    // never finish (no wall-clock bound here; the machine may be slow)
    let secondStarted: () => void = () => undefined
    const gate = new Promise<void>((open) => {
      secondStarted = open
    })
    const samples = await runPaced(3, 50, async (i) => {
      if (i === 1) {
        secondStarted()
      }
      if (i === 0) {
        await gate
      }
      return { aMs: 1 }
    })
    // due 0, 20, 40 ms at 50 requests/s
    expect(samples.map((s) => s.due)).toEqual([0, 20, 40])
    // request 0 answered after request 1 was due (20 ms; timers may fire up to 1 ms early), and its
    // time counts from its due time 0
    expect(samples[0]!.ms).toBeGreaterThanOrEqual(19)
  })

  it('records failures with their code and the state when due', async () => {
    let state = 'up'
    const samples = await runSerial(
      2,
      (i) => {
        if (i === 1) {
          throw Object.assign(new Error('x'), { name: 'AbortError' })
        }
        state = 'down'
        return { reranked: true }
      },
      { state: () => state },
    )
    expect(samples[0]).toMatchObject({ i: 0, state: 'up', reranked: true })
    expect(samples[1]).toMatchObject({ i: 1, state: 'down', error: 'AbortError' })
  })
})
