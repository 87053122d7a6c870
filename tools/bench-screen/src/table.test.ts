import { describe, expect, it } from 'vitest'
import type { ScreeningMetrics } from '@pubmatch/screen'
import { parseConfig, recordedColumn, table, type ToolRun } from './table.ts'

const run = (wss95: number, recallAt10: number, atdShare: number, msPerDecision: number): ToolRun => ({
  metrics: { records: 10, relevant: 2, wss95, wss100: 0, recallAt10, recallAt25: 0, toRecall95: 0, toRecall100: 0, atd: 0, atdShare } satisfies ScreeningMetrics,
  msPerDecision,
  order: [],
})

describe('table', () => {
  it('averages seeds per review, adds the mean row and counts the reviews pubmatch wins or ties', () => {
    const text = table([
      { review: 'A', source: 'cohen2006', records: 10, included: 2, seeds: [0, 1], pubmatch: [run(0.5, 1, 0.1, 10), run(0.3, 0, 0.3, 30)], asreview: [run(0.4, 0.5, 0.2, 5), run(0.4, 0.5, 0.2, 5)] },
      { review: 'B', source: 'synergy', records: 20, included: 3, seeds: [0], pubmatch: [run(0.1, 0.2, 0.5, 4)], asreview: [run(0.3, 0.4, 0.4, 6)] },
    ])
    const lines = text.split('\n')
    // A: pubmatch (0.5 + 0.3)/2 = 0.4 ties ASReview's 0.4 (a win); B: 0.1 < 0.3
    expect(lines[2]).toBe('| A | 10 | 2 | 0.400 | 0.400 | 0.500 | 0.500 | 0.200 | 0.200 | 20.0 | 5.0 |')
    expect(lines[4]).toBe('| **mean** |  |  | 0.250 | 0.350 | 0.350 | 0.450 | 0.350 | 0.300 | 12.0 | 5.5 |')
    expect(text).toContain("pubmatch's WSS@95 ≥ ASReview's on 1 of 2 reviews.")
  })
})

describe('recordedColumn', () => {
  const md = ['## older', '', '| review | WSS@95 ASReview |', '|---|---:|', '| A | 0.100 |', '', '## all reviews (T)', '', 'Command: x', '', '| review | records | WSS@95 ASReview |', '|---|---:|---:|', '| A | 10 | 0.250 |', '| B | 20 | 0.500 |', '| **mean** |  | 0.375 |', '', 'text'].join('\n')
  it("reads a column of the first table under the heading, by review, without the mean row", () => {
    expect([...recordedColumn(md, 'all reviews (T)', 'WSS@95 ASReview')]).toEqual([
      ['A', 0.25],
      ['B', 0.5],
    ])
    expect([...recordedColumn(md, 'older', 'WSS@95 ASReview')]).toEqual([['A', 0.1]])
  })
  it('names a missing heading or column', () => {
    expect(() => recordedColumn(md, 'none', 'WSS@95 ASReview')).toThrow(/no heading "none"/)
    expect(() => recordedColumn(md, 'all reviews (T)', 'ATD')).toThrow(/no column "ATD"/)
  })
})

describe('parseConfig', () => {
  it('reads a JSON object of simulation options and names what is wrong', () => {
    expect(parseConfig('{"features":{"minDf":1},"lambda":0.02}')).toEqual({ features: { minDf: 1 }, lambda: 0.02 })
    expect(() => parseConfig('{minDf: 1}')).toThrow(/--config is not JSON: \{minDf: 1\}/)
    expect(() => parseConfig('[1]')).toThrow(/must be a JSON object/)
    expect(() => parseConfig('{"features":true}')).toThrow(/"features" must be an object, got true/)
  })
})
