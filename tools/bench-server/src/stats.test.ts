import { describe, expect, it } from 'vitest'
import { parseJson } from '@pubmatch/core'
import {
  parseVmRssKiB,
  procUsage,
  rotate,
  searchPath,
  SUMMARY,
  summarize,
  titleCoverageGrade,
} from './stats.ts'

describe('summarize', () => {
  it('summarizes unsorted values', () => {
    const s = summarize([10, 1, 4, 3, 2])
    expect(s).toEqual({ count: 5, mean: 4, p50: 3, p90: 10, p99: 10, max: 10 })
    expect(Object.keys(s)).toEqual(['count', 'mean', 'p50', 'p90', 'p99', 'max'])
  })

  it('gives count 0 and NaN for no values, which a results file writes as null and reads back as NaN', () => {
    const empty = summarize([])
    expect(empty).toEqual({ count: 0, mean: Number.NaN, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, max: Number.NaN })
    expect(parseJson(JSON.stringify(empty), SUMMARY, { file: 'r.json', nullAsNaN: true })).toEqual(empty)
  })
})

describe('/proc parsing', () => {
  it('reads VmRSS in KiB', () => {
    expect(parseVmRssKiB('Name:\tnode\nVmPeak:\t 999 kB\nVmRSS:\t  204800 kB\nRssAnon:\t 1 kB\n')).toBe(204800)
    expect(() => parseVmRssKiB('Name:\tzombie\n')).toThrow(/VmRSS/)
  })

  it('turns ticks and RSS samples into CPU % of one core and MiB', () => {
    const usage = procUsage(
      [
        { ms: 0, ticks: 100, rssKiB: 1024 },
        { ms: 500, ticks: 130, rssKiB: 2048 },
        { ms: 1000, ticks: 200, rssKiB: 3072 },
      ],
      100,
    )
    // 100 ticks = 1 CPU s over 1 s; intervals: 0.3 s / 0.5 s = 60 %, 0.7 s / 0.5 s = 140 %
    expect(usage.cpuSeconds).toBe(1)
    expect(usage.cpuPercent).toBe(100)
    expect(usage.cpuPercentPeak).toBeCloseTo(140, 10)
    expect(usage.rssPeakMiB).toBe(3)
    expect(usage.rssMeanMiB).toBe(2)
    expect(usage.rssFirstMiB).toBe(1)
    expect(usage.samples).toBe(3)
  })
})

describe('requests and labels', () => {
  it('URL-encodes the query as typed', () => {
    expect(searchPath('"Rabbani F"[Author]', 20)).toBe('/search?q=%22Rabbani%20F%22%5BAuthor%5D&size=20')
    expect(searchPath('bell* & co', 5)).toBe('/search?q=bell*%20%26%20co&size=5')
  })

  it('rotates', () => {
    expect(rotate([1, 2, 3, 4], 1)).toEqual([2, 3, 4, 1])
    expect(rotate([1, 2, 3, 4], 6)).toEqual([3, 4, 1, 2])
    expect(rotate([1, 2, 3], -1)).toEqual([3, 1, 2])
    expect(rotate([], 3)).toEqual([])
  })

  it('grades by title-term coverage: all 2, at least half 1, else 0', () => {
    expect(titleCoverageGrade(['a', 'b'], new Set(['a', 'b', 'c']))).toBe(2)
    expect(titleCoverageGrade(['a', 'b'], new Set(['a']))).toBe(1)
    expect(titleCoverageGrade(['a', 'b', 'c'], new Set(['a']))).toBe(0)
    expect(titleCoverageGrade(['a', 'b', 'c'], new Set(['a', 'b']))).toBe(1)
    expect(titleCoverageGrade(['a', 'a', 'b'], new Set(['a']))).toBe(1)
    expect(titleCoverageGrade([], new Set(['a']))).toBe(0)
  })
})
