import { getAnalyzer } from '@pubmatch/analysis'
import { createTokenStreamer } from '@pubmatch/analysis/internal'
import { describe, expect, it } from 'vitest'
import { encodeForwardStreams } from './forward.ts'

describe('encodeForwardStreams', () => {
  it('writes the documented bytes for a tiny document (biomedical: stop words without a term)', () => {
    const streamer = createTokenStreamer(getAnalyzer('biomedical'))
    const bytes = encodeForwardStreams(streamer, { title: 'The cat', abstract: 'a cat sat', mesh: ['Cats'] })
    // Written by hand from the format in forward.ts, not produced by the code:
    // format 1; 2 terms: "cat" (3 bytes), "sat" (3 bytes); token = (ref << 3) | flags, ref 0 = no term.
    // title "The cat": the → ref 0, stop word + definite (1 | 4) = 5; cat → ref 1 → 8
    // abstract "a cat sat": a → ref 0, stop word + indefinite (1 | 2) = 3; cat → 8; sat → ref 2 → 16
    // MeSH "Cats": stemmed to cat → 8
    const expected = [1, 2, 3, 0x63, 0x61, 0x74, 3, 0x73, 0x61, 0x74, 2, 5, 8, 3, 3, 8, 16, 1, 8]
    expect([...bytes]).toEqual(expected)
  })

  it('writes multi-byte UTF-8 terms and two-byte varints (whitespace: every word keeps its term)', () => {
    const streamer = createTokenStreamer(getAnalyzer('whitespace'))
    const words = Array.from({ length: 15 }, (_, i) => `w${i.toString(16)}`)
    const bytes = encodeForwardStreams(streamer, { title: `${words.join(' ')} café The`, abstract: '', mesh: [] })
    // 17 terms: w0 … we (15 × [2, 0x77, digit]), "café" = 63 61 66 c3 a9, "The" = 54 68 65.
    // Title: 17 tokens; wi → ref i + 1 → (i + 1) · 8, one byte up to ref 15 ("we" is a PubMed stop
    // word that whitespace keeps: 15 · 8 + 1 = 121);
    // café → ref 16 → 128 = varint 0x80 0x01; The (whitespace keeps it, flags 1 | 4) → ref 17 → 136 + 5 = 141 → 0x8d 0x01.
    const expected = [
      1,
      17,
      ...words.flatMap((w) => [2, 0x77, w.charCodeAt(1)]),
      5, 0x63, 0x61, 0x66, 0xc3, 0xa9,
      3, 0x54, 0x68, 0x65,
      17,
      8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 121,
      0x80, 0x01,
      0x8d, 0x01,
      0, // abstract: no tokens
      0, // MeSH: no tokens
    ]
    expect([...bytes]).toEqual(expected)
  })

  it('writes an empty document as its format byte and four zero counts', () => {
    const streamer = createTokenStreamer(getAnalyzer('biomedical'))
    expect([...encodeForwardStreams(streamer, { title: '', abstract: '', mesh: [] })]).toEqual([1, 0, 0, 0, 0])
  })
})
