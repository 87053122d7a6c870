import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CodecName } from '../codec/block-codec.ts'
import { codecByName } from '../codec/codecs.ts'
import { IntBuffer } from '../io/int-buffer.ts'
import { finishFile, startFile } from '../io/file-format.ts'
import { BLOCK_SIZE, NO_MORE_DOCS, type TermInfo } from './postings-format.ts'
import { PostingsWriter } from './postings-writer.ts'
import { SegmentPostings, appendLivePostings, type PostingsSource } from './segment-postings.ts'

interface Posting {
  doc: number
  positions: number[]
  spans: number[]
}

/** Random postings: strictly increasing docs, 1–5 non-decreasing positions each, rare spans. */
const postingsArb = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 5000 })),
      gaps: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 5 }),
      spans: fc.array(fc.oneof(fc.constant(1), fc.constant(1), fc.integer({ min: 2, max: 4 })), {
        minLength: 5,
        maxLength: 5,
      }),
    }),
    { minLength: 1, maxLength: 700 },
  )
  .map((raw) => {
    let doc = -1
    return raw.map(({ gap, gaps, spans }): Posting => {
      doc += gap
      let position = 0
      const positions = gaps.map((g) => (position += g))
      return { doc, positions, spans: spans.slice(0, positions.length) }
    })
  })

function encode(postings: readonly Posting[], codec: CodecName, withPositions = true): { source: PostingsSource; info: TermInfo; lengths: number[] } {
  const lengths: number[] = []
  for (const p of postings) {
    lengths[p.doc] = 10 + ((p.doc * 7) % 90)
  }
  const pst = startFile('pst')
  const pos = startFile('pos')
  pst.u8(0x55) // the term does not start at the body's first byte
  const postingsOffset = pst.length
  const positionsOffset = pos.length
  const written = new PostingsWriter(codecByName(codec), withPositions).write(
    {
      docs: postings.map((p) => p.doc),
      freqs: postings.map((p) => p.positions.length),
      count: postings.length,
      positions: postings.flatMap((p) => p.positions),
      spans: postings.flatMap((p) => p.spans),
    },
    lengths,
    pst,
    pos,
  )
  const info: TermInfo = {
    docFreq: postings.length,
    totalTermFreq: postings.reduce((s, p) => s + p.positions.length, 0),
    postingsOffset,
    postingsLength: written.postingsLength,
    positionsOffset,
    positionsLength: written.positionsLength,
  }
  const source: PostingsSource = {
    pst: finishFile(pst).bytes,
    pos: finishFile(pos).bytes,
    codec: codecByName(codec),
    withPositions,
    fieldLengths: () => lengths,
  }
  return { source, info, lengths }
}

const codecs: CodecName[] = ['vbyte', 'bitpack']

describe.each(codecs)('SegmentPostings (%s)', (codec) => {
  it('yields every document with its frequency, positions and spans', () => {
    fc.assert(
      fc.property(postingsArb, (postings) => {
        const { source, info } = encode(postings, codec)
        const cursor = new SegmentPostings(source, info)
        expect(cursor.docID()).toBe(-1)
        for (const p of postings) {
          expect(cursor.nextDoc()).toBe(p.doc)
          expect(cursor.freq()).toBe(p.positions.length)
          if (p.doc % 3 !== 0) {
            // positions of some documents are never asked for: the cursor must skip them
            expect([...cursor.positions()]).toEqual(p.positions)
            expect([...cursor.positionSpans()]).toEqual(p.spans)
          }
        }
        expect(cursor.nextDoc()).toBe(NO_MORE_DOCS)
        expect(cursor.nextDoc()).toBe(NO_MORE_DOCS)
      }),
      { numRuns: 60 },
    )
  })

  it('reads the same documents and frequencies in bulk, mixed with nextDoc and advance', () => {
    fc.assert(
      fc.property(postingsArb, fc.integer({ min: 1, max: 200 }), fc.nat({ max: 5 }), (postings, chunk, singles) => {
        const { source, info } = encode(postings, codec)
        const cursor = new SegmentPostings(source, info)
        const docs = new Int32Array(chunk)
        const freqs = new Int32Array(chunk)
        const seen: [number, number][] = []
        // a few documents one by one first, then the rest in bulk
        for (let i = 0; i < singles && cursor.nextDoc() !== NO_MORE_DOCS; i++) {
          seen.push([cursor.docID(), cursor.freq()])
        }
        for (let n = cursor.nextDocs(docs, freqs); n > 0; n = cursor.nextDocs(docs, freqs)) {
          expect(n).toBeLessThanOrEqual(chunk)
          for (let i = 0; i < n; i++) {
            seen.push([docs[i]!, freqs[i]!])
          }
          expect(cursor.docID()).toBe(docs[n - 1])
        }
        expect(seen).toEqual(postings.map((p) => [p.doc, p.positions.length]))
        expect(cursor.docID()).toBe(NO_MORE_DOCS)
        expect(cursor.nextDocs(docs, freqs)).toBe(0)
        expect(cursor.nextDoc()).toBe(NO_MORE_DOCS)
      }),
      { numRuns: 60 },
    )
  })

  it('gives the same frequencies, positions and bulk reads whatever was asked for before in the block', () => {
    // frequencies are decoded when first needed: advance without freq(), then positions() or nextDocs()
    fc.assert(
      fc.property(
        postingsArb,
        fc.array(fc.record({ gap: fc.nat({ max: 3000 }), ask: fc.constantFrom('none', 'freq', 'positions', 'bulk') }), { maxLength: 30 }),
        (postings, steps) => {
          const { source, info } = encode(postings, codec)
          const cursor = new SegmentPostings(source, info)
          const docs = new Int32Array(7)
          const freqs = new Int32Array(7)
          let target = 0
          for (const { gap, ask } of steps) {
            target += gap
            const at = postings.findIndex((p) => p.doc >= Math.max(target, cursor.docID()))
            const doc = cursor.advance(target)
            expect(doc).toBe(at < 0 ? NO_MORE_DOCS : postings[at]!.doc)
            if (at < 0) {
              break
            }
            if (ask === 'freq') {
              expect(cursor.freq()).toBe(postings[at]!.positions.length)
            } else if (ask === 'positions') {
              expect([...cursor.positions()]).toEqual(postings[at]!.positions)
            } else if (ask === 'bulk') {
              const n = cursor.nextDocs(docs, freqs)
              const expected = postings.slice(at + 1, at + 1 + n)
              expect([...docs.subarray(0, n)]).toEqual(expected.map((p) => p.doc))
              expect([...freqs.subarray(0, n)]).toEqual(expected.map((p) => p.positions.length))
              target = cursor.docID() + 1
            }
          }
        },
      ),
      { numRuns: 80 },
    )
  })

  it('reads a whole block into the caller’s arrays after the rest of a block, then moves on', () => {
    const postings: Posting[] = Array.from({ length: 3 * BLOCK_SIZE + 5 }, (_, i) => ({
      doc: 3 * i,
      positions: Array.from({ length: 1 + (i % 3) }, (_, k) => 2 * k),
      spans: [1, 1, 1].slice(0, 1 + (i % 3)),
    }))
    const { source, info } = encode(postings, codec)
    const cursor = new SegmentPostings(source, info)
    const docs = new Int32Array(BLOCK_SIZE)
    const freqs = new Int32Array(BLOCK_SIZE)
    expect(cursor.nextDoc()).toBe(0)
    expect(cursor.nextDocs(docs, freqs)).toBe(BLOCK_SIZE - 1) // the rest of block 0: documents 3 … 381
    expect(cursor.nextDocs(docs, freqs)).toBe(BLOCK_SIZE) // block 1: documents 384 … 765
    expect([docs[0], docs[BLOCK_SIZE - 1], freqs[0], freqs[1]]).toEqual([
      384,
      765,
      1 + (128 % 3),
      1 + (129 % 3),
    ])
    expect(cursor.docID()).toBe(765)
    expect(cursor.nextDoc()).toBe(768) // block 2's first
    expect(cursor.freq()).toBe(1 + (256 % 3))
    expect(cursor.nextDocs(docs, freqs)).toBe(BLOCK_SIZE - 1)
    expect(cursor.nextDocs(docs, freqs)).toBe(5) // the last block: documents 1152 … 1164
    expect(docs[4]).toBe(1164)
    expect(cursor.advance(1165)).toBe(NO_MORE_DOCS)
  })

  it('moves on from a bulk read of whole blocks (decoded into the caller’s arrays) as from any other', () => {
    fc.assert(
      fc.property(
        postingsArb,
        fc.array(
          fc.record({
            gap: fc.nat({ max: 3000 }),
            step: fc.constantFrom('bulk', 'next', 'advance', 'shallow'),
          }),
          { maxLength: 30 },
        ),
        (postings, steps) => {
          const { source, info } = encode(postings, codec)
          const cursor = new SegmentPostings(source, info)
          const docs = new Int32Array(BLOCK_SIZE)
          const freqs = new Int32Array(BLOCK_SIZE)
          // `at`: index in `postings` of the cursor's document (-1 before the start)
          let at = -1
          for (const { gap, step } of steps) {
            if (at >= postings.length) {
              break
            }
            if (step === 'bulk') {
              const n = cursor.nextDocs(docs, freqs)
              const expected = postings.slice(at + 1, at + 1 + n)
              // the rest of the block the next document is in
              expect(n).toBe(
                Math.min(BLOCK_SIZE - ((at + 1) % BLOCK_SIZE), postings.length - at - 1),
              )
              expect([...docs.subarray(0, n)]).toEqual(expected.map((p) => p.doc))
              expect([...freqs.subarray(0, n)]).toEqual(expected.map((p) => p.positions.length))
              at = n === 0 ? postings.length : at + n
            } else if (step === 'next') {
              at++
              expect(cursor.nextDoc()).toBe(postings[at]?.doc ?? NO_MORE_DOCS)
              if (at < postings.length) {
                expect(cursor.freq()).toBe(postings[at]!.positions.length)
                expect([...cursor.positions()]).toEqual(postings[at]!.positions)
              }
            } else if (step === 'advance') {
              const target = cursor.docID() + 1 + gap
              const found = postings.findIndex((p) => p.doc >= target)
              at = found < 0 ? postings.length : found
              expect(cursor.advance(target)).toBe(postings[at]?.doc ?? NO_MORE_DOCS)
              if (at < postings.length) {
                expect(cursor.freq()).toBe(postings[at]!.positions.length)
              }
            } else {
              const target = cursor.docID() + 1
              const last = cursor.shallowAdvance(target)
              const next = postings.find((p) => p.doc >= target)
              if (next === undefined) {
                expect(last).toBe(NO_MORE_DOCS)
              } else {
                // the end of the block that holds the next document
                const block = Math.floor(postings.indexOf(next) / BLOCK_SIZE)
                const end = postings[Math.min(postings.length, (block + 1) * BLOCK_SIZE) - 1]!.doc
                expect(last).toBe(end)
              }
            }
          }
        },
      ),
      { numRuns: 80 },
    )
  })

  it('advances to the first document at or after each target', () => {
    fc.assert(
      fc.property(postingsArb, fc.array(fc.nat({ max: 400_000 }), { maxLength: 20 }), (postings, rawTargets) => {
        const { source, info } = encode(postings, codec)
        const cursor = new SegmentPostings(source, info)
        const targets = [...rawTargets].sort((a, b) => a - b)
        for (const target of targets) {
          const expected = postings.find((p) => p.doc >= Math.max(target, cursor.docID()))
          const doc = cursor.advance(target)
          expect(doc).toBe(expected?.doc ?? NO_MORE_DOCS)
          if (expected !== undefined) {
            expect(cursor.freq()).toBe(expected.positions.length)
            expect([...cursor.positions()]).toEqual(expected.positions)
          }
        }
      }),
      { numRuns: 60 },
    )
  })

  it('bounds every document of a block by the block impacts', () => {
    fc.assert(
      fc.property(postingsArb, fc.nat({ max: 400_000 }), (postings, target) => {
        const { source, info, lengths } = encode(postings, codec)
        const cursor = new SegmentPostings(source, info)
        const last = cursor.shallowAdvance(target)
        const inRange = postings.filter((p) => p.doc >= target && p.doc <= last)
        if (last === NO_MORE_DOCS) {
          expect(postings.every((p) => p.doc < target)).toBe(true)
          return
        }
        expect(postings.some((p) => p.doc === last)).toBe(true)
        const impacts = cursor.blockImpacts()
        for (const p of inRange) {
          const dominated = impacts.some((i) => i.freq >= p.positions.length && i.length <= lengths[p.doc]!)
          expect(dominated).toBe(true)
        }
        for (const p of postings) {
          expect(cursor.maxImpacts().some((i) => i.freq >= p.positions.length && i.length <= lengths[p.doc]!)).toBe(true)
        }
      }),
      { numRuns: 60 },
    )
  })

  it('skips blocks: shallowAdvance returns block ends', () => {
    const postings: Posting[] = Array.from({ length: 3 * BLOCK_SIZE + 5 }, (_, i) => ({
      doc: 2 * i,
      positions: [i % 4],
      spans: [1],
    }))
    const { source, info } = encode(postings, codec)
    const cursor = new SegmentPostings(source, info)
    expect(cursor.shallowAdvance(0)).toBe(2 * (BLOCK_SIZE - 1))
    expect(cursor.shallowAdvance(2 * BLOCK_SIZE)).toBe(2 * (2 * BLOCK_SIZE - 1))
    expect(cursor.shallowAdvance(2 * (3 * BLOCK_SIZE))).toBe(2 * (3 * BLOCK_SIZE + 4))
    expect(cursor.shallowAdvance(10_000)).toBe(NO_MORE_DOCS)
    expect(cursor.advance(2 * 200 + 1)).toBe(2 * 201)
  })

  it('appends the kept documents, renumbered, in one pass', () => {
    fc.assert(
      fc.property(postingsArb, fc.integer({ min: 2, max: 5 }), (postings, every) => {
        const { source, info } = encode(postings, codec)
        const docMap = new Int32Array(postings[postings.length - 1]!.doc + 1).fill(-1)
        const kept = postings.filter((p) => p.doc % every !== 0)
        kept.forEach((p, i) => {
          docMap[p.doc] = i
        })
        const out = { docs: new IntBuffer(), freqs: new IntBuffer(), positions: new IntBuffer(), spans: new IntBuffer() }
        const spanned = appendLivePostings(source, info, docMap, out)
        expect([...out.docs.view()]).toEqual(kept.map((_, i) => i))
        expect([...out.freqs.view()]).toEqual(kept.map((p) => p.positions.length))
        expect([...out.positions.view()]).toEqual(kept.flatMap((p) => p.positions))
        expect([...out.spans.view()]).toEqual(kept.flatMap((p) => p.spans))
        expect(spanned).toBe(kept.some((p) => p.spans.some((s) => s > 1)))
      }),
      { numRuns: 60 },
    )
  })

  it('stores no positions for fields without them', () => {
    const postings: Posting[] = [
      { doc: 3, positions: [0, 4], spans: [1, 1] },
      { doc: 9, positions: [1], spans: [1] },
    ]
    const { source, info } = encode(postings, codec, false)
    expect(info.positionsLength).toBe(0)
    const cursor = new SegmentPostings(source, info)
    expect(cursor.nextDoc()).toBe(3)
    expect(cursor.freq()).toBe(2)
    expect(cursor.positions()).toHaveLength(0)
  })
})
