import { describe, expect, it } from 'vitest'
import type { LoadResult, ResponseRecord } from './load.ts'
import { eventWindow, runFigures } from './report.ts'

const answer = (atMs: number, latencyMs: number, total: number, reranked: boolean, tookMs: number): ResponseRecord => ({
  atMs,
  status: 200,
  latencyMs,
  bytes: 100,
  query: 0,
  summary: { total, reranked, fallback: !reranked && total > 0, generation: 1, tookMs },
})

const load: LoadResult = {
  mode: { kind: 'paced', rate: 2 },
  seconds: 2,
  wallSeconds: 2.1,
  responses: [
    answer(100, 10, 600, true, 7),
    answer(600, 20, 600, true, 15),
    answer(1100, 4, 0, false, 0.5),
    answer(1600, 30, 12, false, 20),
    { atMs: 1900, status: 503, latencyMs: 5000, bytes: 50, query: 1 },
  ],
  errors: 1,
  timeouts: 0,
  non2xx: 1,
  statusCounts: { '200': 4, '503': 1 },
  requestsSent: 6,
  events: [],
}

describe('runFigures', () => {
  it('splits answers into reranked, left in first-stage order and no match, over 2xx only', () => {
    const fig = runFigures(load)
    expect(fig.responses).toBe(5)
    expect(fig.ok).toBe(4)
    expect(fig.throughput).toBe(2.5)
    // one non-2xx answer + one socket error
    expect(fig.failed).toBe(2)
    expect(fig.all).toMatchObject({ count: 4, p50: 10, max: 30 })
    expect(fig.reranked).toMatchObject({ count: 2, p50: 10, p99: 20 })
    expect(fig.rerankedTook).toMatchObject({ p50: 7, p99: 15 })
    expect(fig.rerankedOutside).toMatchObject({ p50: 3, p99: 5 })
    expect(fig.fallback).toMatchObject({ count: 1, p50: 30 })
    expect(fig.noMatch).toMatchObject({ count: 1, p50: 4 })
  })

  it('takes the answers completed during an event and one second after it', () => {
    const window = eventWindow(load, { name: 'swap', startMs: 500, endMs: 700, ok: true, detail: {} })
    // 600 and 1600 are inside [500, 1700]; 1100 too; 100 and 1900 are not
    expect(window.during).toMatchObject({ count: 3, p50: 20, max: 30 })
    expect(window.outside).toMatchObject({ count: 2, max: 5000 })
  })
})
