import type { BlockCodec } from '../codec/block-codec.ts'
import { ByteReader } from '../io/byte-reader.ts'
import type { IntBuffer } from '../io/int-buffer.ts'
import { competitiveImpacts, mergeImpacts, type Impact } from './impacts.ts'
import type { PostingsCursor } from './postings-cursor.ts'
import { BLOCK_SIZE, NO_MORE_DOCS, type TermInfo } from './postings-format.ts'

const EMPTY = new Int32Array(0)

/** Decoded skip entries of a term with more than one block. */
interface SkipData {
  /** Last document of each block. */
  readonly lastDoc: Int32Array
  /** Offset of each block's doc data in `.pst`. */
  readonly docStart: Float64Array
  /** Offset of each block's positions in `.pos`. */
  readonly posStart: Float64Array
  /** Offset of each block's impacts in `.pst`. */
  readonly impactStart: Float64Array
}

/** The bytes and helpers a segment gives its postings cursors. */
export interface PostingsSource {
  readonly pst: Uint8Array
  readonly pos: Uint8Array
  readonly codec: BlockCodec
  readonly withPositions: boolean
  /** Field lengths of the segment's documents (read only for single-block impacts). */
  fieldLengths(): ArrayLike<number>
}

function readSkipData(source: PostingsSource, info: TermInfo, numBlocks: number): { skip: SkipData; blocksStart: number } {
  const reader = new ByteReader(source.pst, info.postingsOffset)
  // one buffer for the four columns (a typed array of its own each would be four allocations)
  const lastDocBytes = 8 * Math.ceil(numBlocks / 2)
  const buffer = new ArrayBuffer(lastDocBytes + 24 * numBlocks)
  const lastDoc = new Int32Array(buffer, 0, numBlocks)
  const docStart = new Float64Array(buffer, lastDocBytes, numBlocks)
  const posStart = new Float64Array(buffer, lastDocBytes + 8 * numBlocks, numBlocks)
  const impactStart = new Float64Array(buffer, lastDocBytes + 16 * numBlocks, numBlocks)
  // first the byte counts (docStart ← docBytes, posStart ← posBytes, impactStart ← impactBytes) …
  let last = -1
  for (let b = 0; b < numBlocks; b++) {
    last += reader.vint()
    lastDoc[b] = last
    docStart[b] = reader.vint()
    posStart[b] = source.withPositions ? reader.vint() : 0
    impactStart[b] = reader.vint()
  }
  // … then, in place, where each starts
  let at = reader.pos
  for (let b = 0; b < numBlocks; b++) {
    const bytes = impactStart[b]!
    impactStart[b] = at
    at += bytes
  }
  let posAt = info.positionsOffset
  const blocksStart = at
  for (let b = 0; b < numBlocks; b++) {
    const docBytes = docStart[b]!
    const posBytes = posStart[b]!
    docStart[b] = at
    at += docBytes
    posStart[b] = posAt
    posAt += posBytes
  }
  return { skip: { lastDoc, docStart, posStart, impactStart }, blocksStart }
}

function readImpacts(pst: Uint8Array, offset: number): Impact[] {
  const reader = new ByteReader(pst, offset)
  const count = reader.vint()
  const out: Impact[] = []
  let freq = 0
  let length = 0
  for (let i = 0; i < count; i++) {
    freq += reader.vint()
    length += reader.vint()
    out.push({ freq, length })
  }
  return out
}

/**
 * A cursor over one term's postings in one segment, in the segment's local document
 * numbers; it does not look at deletions (the index-level cursor does).
 */
export class SegmentPostings implements PostingsCursor {
  readonly docFreq: number
  private readonly source: PostingsSource
  private readonly info: TermInfo
  private readonly numBlocks: number
  private readonly skip: SkipData | null
  private readonly blocksStart: number
  /** The current block's documents and frequencies (allocated on the first block not read straight into a caller's arrays). */
  private docs: Int32Array = EMPTY
  private freqs: Int32Array = EMPTY
  /** Where the current block's frequencies start in `.pst` while not decoded yet, else -1. */
  private freqsAt = -1
  private doc = -1
  private block = -1
  private index = -1
  private count = 0
  // Positions of the current block: `posAt` is where document `posIndex`'s positions start.
  private posAt = 0
  private posIndex = 0
  private posDecodedFor = -1
  private posBuffer = EMPTY
  private spanBuffer = EMPTY
  private posCount = 0
  /** The last document of a single-block term once decoded, else -1. */
  private termLast = -1
  // Impacts
  private impactBlock = 0
  private termImpacts: readonly Impact[] | null = null

  /**
   * @param source - the segment's postings bytes
   * @param info - the term's entry in the term dictionary
   */
  constructor(source: PostingsSource, info: TermInfo) {
    this.source = source
    this.info = info
    this.docFreq = info.docFreq
    this.numBlocks = Math.ceil(info.docFreq / BLOCK_SIZE)
    if (this.numBlocks > 1) {
      const { skip, blocksStart } = readSkipData(source, info, this.numBlocks)
      this.skip = skip
      this.blocksStart = blocksStart
    } else {
      this.skip = null
      this.blocksStart = info.postingsOffset
    }
  }

  docID(): number {
    return this.doc
  }

  nextDoc(): number {
    if (++this.index < this.count) {
      return (this.doc = this.docs[this.index]!)
    }
    if (this.block + 1 >= this.numBlocks) {
      this.index = this.count
      return (this.doc = NO_MORE_DOCS)
    }
    this.loadBlock(this.block + 1)
    this.index = 0
    return (this.doc = this.docs[0]!)
  }

  nextDocs(docs: Int32Array, freqs: Int32Array): number {
    if (this.index + 1 >= this.count) {
      const b = this.block + 1
      if (b >= this.numBlocks) {
        this.index = this.count
        this.doc = NO_MORE_DOCS
        return 0
      }
      const n = Math.min(BLOCK_SIZE, this.docFreq - b * BLOCK_SIZE)
      if (docs.length >= n && freqs.length >= n) {
        return this.readBlockInto(b, n, docs, freqs)
      }
      this.loadBlock(b)
      this.index = -1
    }
    const from = this.index + 1
    const n = Math.min(docs.length, this.count - from)
    const blockDocs = this.docs
    if (this.freqsAt >= 0) {
      this.decodeFreqs()
    }
    const blockFreqs = this.freqs
    for (let i = 0; i < n; i++) {
      docs[i] = blockDocs[from + i]!
      freqs[i] = blockFreqs[from + i]!
    }
    if (n > 0) {
      this.index = from + n - 1
      this.doc = blockDocs[this.index]!
    }
    return n
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    const skip = this.skip
    if (skip !== null) {
      const lastDoc = skip.lastDoc
      let b = this.block < 0 ? 0 : this.block
      if (lastDoc[b]! < target) {
        // Gallop then binary-search the skip entries for the first block whose last doc ≥ target.
        let step = 1
        let lo = b
        let hi = b + 1
        while (hi < this.numBlocks && lastDoc[hi]! < target) {
          lo = hi
          step *= 2
          hi = Math.min(this.numBlocks, hi + step)
        }
        if (hi >= this.numBlocks) {
          hi = this.numBlocks - 1
          if (lastDoc[hi]! < target) {
            this.block = this.numBlocks - 1
            this.index = this.count = 0
            return (this.doc = NO_MORE_DOCS)
          }
        }
        while (lo + 1 < hi) {
          const mid = (lo + hi) >>> 1
          if (lastDoc[mid]! < target) {
            lo = mid
          } else {
            hi = mid
          }
        }
        b = hi
      }
      if (b !== this.block) {
        this.loadBlock(b)
        this.index = -1
      }
    } else if (this.block < 0) {
      this.loadBlock(0)
      this.index = -1
    }
    const docs = this.docs
    let i = this.index + 1
    while (i < this.count && docs[i]! < target) {
      i++
    }
    if (i < this.count) {
      this.index = i
      return (this.doc = docs[i]!)
    }
    // Only reachable for single-block terms (multi-block ones chose a block whose last doc ≥ target).
    this.index = this.count
    return (this.doc = NO_MORE_DOCS)
  }

  freq(): number {
    if (this.index < 0 || this.index >= this.count) {
      return 0
    }
    if (this.freqsAt >= 0) {
      this.decodeFreqs()
    }
    return this.freqs[this.index]!
  }

  positions(): Int32Array {
    this.decodePositions()
    return this.posBuffer.subarray(0, this.posCount)
  }

  positionSpans(): Int32Array {
    this.decodePositions()
    return this.spanBuffer.subarray(0, this.posCount)
  }

  shallowAdvance(target: number): number {
    if (this.skip === null) {
      this.impactBlock = 0
      return target <= this.lastDocOfTerm() ? this.lastDocOfTerm() : NO_MORE_DOCS
    }
    const lastDoc = this.skip.lastDoc
    let b = Math.max(0, this.block)
    if (this.impactBlock > b && lastDoc[this.impactBlock - 1]! < target) {
      b = this.impactBlock
    }
    while (b < this.numBlocks && lastDoc[b]! < target) {
      b++
    }
    if (b >= this.numBlocks) {
      this.impactBlock = this.numBlocks - 1
      return NO_MORE_DOCS
    }
    this.impactBlock = b
    return lastDoc[b]!
  }

  blockImpacts(): readonly Impact[] {
    if (this.skip === null) {
      return this.maxImpacts()
    }
    return readImpacts(this.source.pst, this.skip.impactStart[this.impactBlock]!)
  }

  maxImpacts(): readonly Impact[] {
    if (this.termImpacts === null) {
      if (this.skip === null) {
        this.termImpacts = this.singleBlockImpacts()
      } else {
        const lists: Impact[][] = []
        for (let b = 0; b < this.numBlocks; b++) {
          lists.push(readImpacts(this.source.pst, this.skip.impactStart[b]!))
        }
        this.termImpacts = mergeImpacts(lists)
      }
    }
    return this.termImpacts
  }

  private lastDocOfTerm(): number {
    if (this.skip !== null) {
      return this.skip.lastDoc[this.numBlocks - 1]!
    }
    if (this.termLast < 0) {
      const docs = new Int32Array(this.docFreq)
      this.source.codec.decodeGaps(this.source.pst, this.blocksStart, docs, this.docFreq, -1)
      this.termLast = docs[this.docFreq - 1]!
    }
    return this.termLast
  }

  private singleBlockImpacts(): Impact[] {
    const docs = new Int32Array(BLOCK_SIZE)
    const freqs = new Int32Array(BLOCK_SIZE)
    const n = this.info.docFreq
    const codec = this.source.codec
    const p = codec.decode(this.source.pst, this.blocksStart, docs, n)
    codec.decode(this.source.pst, p, freqs, n)
    const lengths = this.source.fieldLengths()
    const blockLengths = new Int32Array(n)
    let doc = -1
    for (let i = 0; i < n; i++) {
      doc += docs[i]! + 1
      freqs[i] = freqs[i]! + 1
      blockLengths[i] = lengths[doc]!
    }
    return competitiveImpacts(freqs, blockLengths, n)
  }

  private loadBlock(b: number): void {
    const n = Math.min(BLOCK_SIZE, this.docFreq - b * BLOCK_SIZE)
    if (this.docs.length === 0) {
      const blockLength = Math.min(BLOCK_SIZE, this.docFreq)
      this.docs = new Int32Array(blockLength)
      this.freqs = new Int32Array(blockLength)
    }
    // the frequencies are decoded when first asked for (a block `advance` only looks into often has no match)
    this.freqsAt = this.decodeBlockDocs(b, n, this.docs)
    this.count = n
  }

  /**
   * Reads block `b` (`n` documents) straight into the caller's arrays, no copy: the cursor is
   * then past the whole block and holds none of it (`count` 0), as after `nextDocs` read a
   * block to its end, so `freq()` and `positions()` describe no document until it moves.
   */
  private readBlockInto(b: number, n: number, docs: Int32Array, freqs: Int32Array): number {
    const freqsAt = this.decodeBlockDocs(b, n, docs)
    this.source.codec.decodeAdd(this.source.pst, freqsAt, freqs, n, 1)
    this.freqsAt = -1
    this.count = 0
    this.index = 0
    this.doc = docs[n - 1]!
    return n
  }

  /** Decodes block `b`'s documents into `out` and makes it the current block; returns where its frequencies start. */
  private decodeBlockDocs(b: number, n: number, out: Int32Array): number {
    const skip = this.skip
    let at: number
    let base: number
    if (skip !== null) {
      at = skip.docStart[b]!
      base = b === 0 ? -1 : skip.lastDoc[b - 1]!
      this.posAt = skip.posStart[b]!
    } else {
      at = this.blocksStart
      base = -1
      this.posAt = this.info.positionsOffset
    }
    const freqsAt = this.source.codec.decodeGaps(this.source.pst, at, out, n, base)
    if (skip === null) {
      this.termLast = out[n - 1]!
    }
    this.block = b
    this.posIndex = 0
    this.posDecodedFor = -1
    if (this.impactBlock < b) {
      this.impactBlock = b
    }
    return freqsAt
  }

  /** Decodes the current block's frequencies (stored as freq − 1 after its doc gaps). */
  private decodeFreqs(): void {
    this.source.codec.decodeAdd(this.source.pst, this.freqsAt, this.freqs, this.count, 1)
    this.freqsAt = -1
  }

  private decodePositions(): void {
    const index = this.index
    if (!this.source.withPositions || index < 0 || index >= this.count) {
      this.posCount = 0
      return
    }
    if (this.freqsAt >= 0) {
      this.decodeFreqs()
    }
    const key = this.block * BLOCK_SIZE + index
    if (this.posDecodedFor === key) {
      return
    }
    const bytes = this.source.pos
    let p = this.posAt
    // Skip the positions of the block's earlier documents.
    for (let d = this.posIndex; d < index; d++) {
      const freq = this.freqs[d]!
      for (let k = 0; k < freq; k++) {
        let byte = bytes[p++]!
        const hasSpan = (byte & 1) === 1
        while (byte >= 0x80) {
          byte = bytes[p++]!
        }
        if (hasSpan) {
          byte = bytes[p++]!
          while (byte >= 0x80) {
            byte = bytes[p++]!
          }
        }
      }
    }
    const freq = this.freqs[index]!
    if (this.posBuffer.length < freq) {
      this.posBuffer = new Int32Array(Math.max(16, freq * 2))
      this.spanBuffer = new Int32Array(Math.max(16, freq * 2))
    }
    let position = 0
    const positions = this.posBuffer
    const spans = this.spanBuffer
    for (let k = 0; k < freq; k++) {
      let byte = bytes[p++]!
      let code = byte & 0x7f
      let shift = 7
      while (byte >= 0x80) {
        byte = bytes[p++]!
        code += (byte & 0x7f) * 2 ** shift
        shift += 7
      }
      position += Math.floor(code / 2)
      positions[k] = position
      if ((code & 1) === 1) {
        byte = bytes[p++]!
        let span = byte & 0x7f
        shift = 7
        while (byte >= 0x80) {
          byte = bytes[p++]!
          span += (byte & 0x7f) * 2 ** shift
          shift += 7
        }
        spans[k] = span + 2
      } else {
        spans[k] = 1
      }
    }
    this.posAt = p
    this.posIndex = index + 1
    this.posCount = freq
    this.posDecodedFor = key
  }
}

/** Where {@link appendLivePostings} writes. */
export interface PostingsAccumulator {
  readonly docs: IntBuffer
  readonly freqs: IntBuffer
  readonly positions: IntBuffer
  readonly spans: IntBuffer
}

const scratchDocs = new Int32Array(BLOCK_SIZE)
const scratchFreqs = new Int32Array(BLOCK_SIZE)

/**
 * Decodes a whole postings list in one sequential pass (no cursor) and appends the
 * documents that `docMap` keeps, renumbered, with their frequencies, positions and spans:
 * the merge's inner loop.
 * @param source - the segment's postings bytes
 * @param info - the term's dictionary entry
 * @param docMap - old local document → new number, or −1 to drop it
 * @param out - where to append
 * @returns whether any appended occurrence spans more than one position
 */
export function appendLivePostings(
  source: PostingsSource,
  info: TermInfo,
  docMap: Int32Array,
  out: PostingsAccumulator,
): boolean {
  const numBlocks = Math.ceil(info.docFreq / BLOCK_SIZE)
  let at = numBlocks > 1 ? readSkipData(source, info, numBlocks).blocksStart : info.postingsOffset
  const pst = source.pst
  const pos = source.pos
  const codec = source.codec
  const withPositions = source.withPositions
  let p = info.positionsOffset
  let doc = -1
  let spanned = false
  for (let block = 0; block < numBlocks; block++) {
    const n = Math.min(BLOCK_SIZE, info.docFreq - block * BLOCK_SIZE)
    at = codec.decode(pst, at, scratchDocs, n)
    at = codec.decode(pst, at, scratchFreqs, n)
    for (let i = 0; i < n; i++) {
      doc += scratchDocs[i]! + 1
      const freq = scratchFreqs[i]! + 1
      const mapped = docMap[doc]!
      const keep = mapped >= 0
      if (keep) {
        out.docs.push(mapped)
        out.freqs.push(freq)
      }
      if (!withPositions) {
        continue
      }
      let position = 0
      for (let k = 0; k < freq; k++) {
        let byte = pos[p++]!
        let code = byte & 0x7f
        let shift = 7
        while (byte >= 0x80) {
          byte = pos[p++]!
          code += (byte & 0x7f) * 2 ** shift
          shift += 7
        }
        let span = 1
        if ((code & 1) === 1) {
          byte = pos[p++]!
          span = byte & 0x7f
          shift = 7
          while (byte >= 0x80) {
            byte = pos[p++]!
            span += (byte & 0x7f) * 2 ** shift
            shift += 7
          }
          span += 2
        }
        position += Math.floor(code / 2)
        if (keep) {
          out.positions.push(position)
          out.spans.push(span)
          spanned ||= span > 1
        }
      }
    }
  }
  return spanned
}
