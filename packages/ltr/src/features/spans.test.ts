import { describe, expect, it } from 'vitest'
import { SPAN_FEATURE_COUNT, TOKEN_DEFINITE, TOKEN_INDEFINITE, TOKEN_STOPWORD, findSpans, spanFeatures } from './spans.ts'

const S = TOKEN_STOPWORD
const SI = TOKEN_STOPWORD | TOKEN_INDEFINITE
const SD = TOKEN_STOPWORD | TOKEN_DEFINITE

function features(positions: number[], terms: number[], flags: number[] = []): number[] {
  const out = new Float64Array(SPAN_FEATURE_COUNT + 2).fill(99)
  spanFeatures(positions, terms, positions.length, flags, out, 1)
  expect(out[0]).toBe(99) // writes only its 19 slots
  expect(out[SPAN_FEATURE_COUNT + 1]).toBe(99)
  return [...out.subarray(1, 1 + SPAN_FEATURE_COUNT)]
}

describe('findSpans', () => {
  it('cuts when the gap to the previous match exceeds 10 tokens, not at exactly 10', () => {
    expect(findSpans([0, 5, 20], [0, 1, 2])).toEqual([[0, 5], [20, 20]])
    expect(findSpans([0, 10, 21], [0, 1, 2])).toEqual([[0, 10], [21, 21]])
  })

  it('cuts before a match of the same query term as the previous match', () => {
    expect(findSpans([2, 3, 4], [0, 0, 1])).toEqual([[2, 2], [3, 4]])
  })

  it('cuts X…Y…X at the larger gap: X | Y X when X–Y ≥ Y–X, else X Y | X', () => {
    // X at 0, Y at 8, X at 10: Y–X = 2 ≤ X–Y = 8 → X | Y X.
    expect(findSpans([0, 8, 10], [0, 1, 0])).toEqual([[0, 0], [8, 10]])
    // X at 0, Y at 2, X at 10: Y–X = 8 > X–Y = 2 → X Y | X.
    expect(findSpans([0, 2, 10], [0, 1, 0])).toEqual([[0, 2], [10, 10]])
    // A tie (4 and 4) cuts before Y.
    expect(findSpans([0, 4, 8], [0, 1, 0])).toEqual([[0, 0], [4, 8]])
  })

  it('does not cut again at a Y that already ends the last closed span', () => {
    // 0 X, 2 Y, 10 X → [0,2] | 10; then Y at 12 repeats the term two back (Y at 2), but 2 ends
    // the last span, so no cut (NCBI's `lastLastPos not in spans[-1]`).
    expect(findSpans([0, 2, 10, 12], [0, 1, 0, 1])).toEqual([[0, 2], [10, 12]])
  })

  it('finds no span without matches', () => {
    expect(findSpans([], [])).toEqual([])
  })
})

describe('spanFeatures', () => {
  it('counts a single-match span as 10 tokens long and keeps the running-sum quirk of F167', () => {
    // Spans [0,5] (2 matches, length 6, density 1/3) and [20,20] (1 match, length 10, density 0.1).
    const f = features([0, 5, 20], [0, 1, 2])
    const third = 1 / 3
    expect(f[0]).toBe(1) // spans with > 1 match
    expect(f[1]).toBe(0) // spans with > 3 matches
    expect(f[2]).toBe(16) // 6 + 10
    expect(f[3]).toBe(3)
    expect(f[4]).toBeCloseTo(third + 0.1, 12)
    expect(f.slice(5, 9)).toEqual([0, 0, 0, 0])
    expect(f[9]).toBeCloseTo(8 / 6 + 1 / 10, 12) // Σ qtnum³ / length
    expect(f[10]).toBe(2)
    expect(f[11]).toBe(10) // the single-match span is the longest
    expect(f[12]).toBe(8)
    expect(f[13]).toBe(2)
    expect(f[14]).toBe(1.5)
    expect(f[15]).toBeCloseTo(third, 12)
    expect(f[16]).toBeCloseTo((third + 0.1) / 2, 12)
    expect(f[17]).toBe(6) // length of the densest span
    // The longest span (the second) is met when the running density sum is 1/3 + 0.1 — NCBI
    // stores that sum, not the span's own density 0.1.
    expect(f[18]).toBeCloseTo(third + 0.1, 12)
  })

  it('takes F166 and F167 from the first span that is strictly densest / longest', () => {
    // [0,0] single (length 10, density 0.1) then [20,23] (2 matches, length 4, density 0.5).
    const f = features([0, 20, 23], [0, 1, 2])
    expect(f[11]).toBe(10)
    expect(f[18]).toBeCloseTo(0.1, 12) // the running sum when the first span set the max length
    expect(f[15]).toBe(0.5)
    expect(f[17]).toBe(4)
  })

  it('counts articles and stop words inside spans only', () => {
    // tokens: 0 the(SD) 1 effect 2 of(S) 3 a(SI) 4 drug* 5 a(SI) 6 the(SD) 7 liver* … 30 rats*
    // Spans [4,7] (length 4, 2 matches) and [30,30] (single, length 10). Inside [4,7]: a at 5,
    // the at 6 → 1 indefinite, 1 definite, 2 stop words; tokens 0–3 lie outside every span.
    const flags = [SD, 0, S, SI, 0, SI, SD, 0]
    const f = features([4, 7, 30], [0, 1, 2], flags)
    expect(f.slice(0, 11)).toEqual([1, 0, 14, 3, expect.closeTo(0.6, 12), 1, 1, 2, 0, expect.closeTo(2.1, 12), 2])
    // max len 10, mean 7, max qt 2, mean 1.5, max density .5, mean .3, densest len 4, F167 .6
    expect(f.slice(11)).toEqual([10, 7, 2, 1.5, 0.5, expect.closeTo(0.3, 12), 4, expect.closeTo(0.6, 12)])
  })

  it('counts spans of stop words only and spans with more than three matches', () => {
    // A query term that is itself a stop word (possible with the whitespace analyzer): the
    // single-match span [3,3] on `the` is all stop words.
    expect(features([3], [0], [0, 0, 0, SD]).slice(5, 9)).toEqual([0, 1, 1, 1])
    // Four distinct terms side by side: one span, length 4, density 1, 4³/4 = 16.
    const f = features([0, 1, 2, 3], [0, 1, 2, 3])
    expect([f[0], f[1], f[2], f[3], f[4], f[9], f[10]]).toEqual([1, 1, 4, 4, 1, 16, 1])
  })

  it('gives zeros without matches', () => {
    expect(features([], [])).toEqual(new Array<number>(SPAN_FEATURE_COUNT).fill(0))
  })
})
