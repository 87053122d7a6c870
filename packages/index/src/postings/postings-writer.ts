import { PubmatchError } from '@pubmatch/core'
import type { BlockCodec } from '../codec/block-codec.ts'
import { ByteWriter } from '../io/byte-writer.ts'
import { competitiveImpacts } from './impacts.ts'
import { BLOCK_SIZE } from './postings-format.ts'

/** One term's postings in one field, in the order they are written. */
export interface TermPostingsInput {
  /** Local document numbers, strictly ascending. */
  readonly docs: ArrayLike<number>
  /** Term frequency per document (≥ 1), aligned with `docs`. */
  readonly freqs: ArrayLike<number>
  /** How many documents (entries of `docs`/`freqs`) to write. */
  readonly count: number
  /** All positions, document after document, `freqs[i]` of them for `docs[i]`, non-decreasing per document. */
  readonly positions?: ArrayLike<number> | undefined
  /** Span (`positionLength`, ≥ 1) of each position, aligned with `positions`; omitted = all 1. */
  readonly spans?: ArrayLike<number> | undefined
}

/** Byte lengths of what {@link PostingsWriter.write} appended. */
export interface WrittenPostings {
  readonly postingsLength: number
  readonly positionsLength: number
}

/**
 * Encodes term postings into a segment's `.pst` (doc gaps, frequencies, skip entries with
 * block impacts) and `.pos` (positions) byte streams. Layout per term (see README "On-disk
 * format"):
 *
 * `.pst`: when the term has more than one block of {@link BLOCK_SIZE} documents, first one
 * skip entry per block — `vint(lastDoc − previous lastDoc)`, `vint(doc bytes)`,
 * `vint(position bytes)` (fields with positions only), `vint(impact bytes)` — then the block
 * impacts — `vint(count)` then `(vint(Δfreq), vint(Δlength))` pairs — then the blocks, each
 * `codec(doc − previous doc − 1)` and `codec(freq − 1)`.
 *
 * `.pos`: per document, per occurrence `vint(2·Δposition + hasSpan)` and, when `hasSpan`,
 * `vint(span − 2)`; Δposition restarts from 0 at each document.
 */
export class PostingsWriter {
  private readonly codec: BlockCodec
  private readonly withPositions: boolean
  private readonly blocks = new ByteWriter(4096)
  private readonly skips = new ByteWriter(256)
  private readonly impacts = new ByteWriter(256)
  private readonly gaps = new Int32Array(BLOCK_SIZE)
  private readonly freqs = new Int32Array(BLOCK_SIZE)
  private readonly lengths = new Int32Array(BLOCK_SIZE)

  /**
   * @param codec - the block codec for doc gaps and frequencies
   * @param withPositions - whether the field stores positions
   */
  constructor(codec: BlockCodec, withPositions: boolean) {
    this.codec = codec
    this.withPositions = withPositions
  }

  /**
   * Appends one term's postings.
   * @param input - the postings
   * @param fieldLengths - the field length of every local document (for block impacts)
   * @param pst - the `.pst` stream
   * @param pos - the `.pos` stream
   */
  write(
    input: TermPostingsInput,
    fieldLengths: ArrayLike<number>,
    pst: ByteWriter,
    pos: ByteWriter,
  ): WrittenPostings {
    const { docs, count } = input
    const numBlocks = Math.ceil(count / BLOCK_SIZE)
    const pstStart = pst.length
    const posStart = pos.length
    const blocks = this.blocks
    const skips = this.skips
    const impacts = this.impacts
    blocks.reset()
    skips.reset()
    impacts.reset()
    let previousDoc = -1
    let previousLast = -1
    let positionIndex = 0
    for (let block = 0; block < numBlocks; block++) {
      const from = block * BLOCK_SIZE
      const n = Math.min(BLOCK_SIZE, count - from)
      for (let i = 0; i < n; i++) {
        const doc = docs[from + i]!
        this.gaps[i] = doc - previousDoc - 1
        previousDoc = doc
        this.freqs[i] = input.freqs[from + i]! - 1
      }
      const blockStart = blocks.length
      this.codec.encode(this.gaps, n, blocks)
      this.codec.encode(this.freqs, n, blocks)
      const blockPosStart = pos.length
      if (this.withPositions) {
        positionIndex = this.writePositions(input, from, n, positionIndex, pos)
      }
      if (numBlocks > 1) {
        skips.vint(previousDoc - previousLast)
        previousLast = previousDoc
        skips.vint(blocks.length - blockStart)
        if (this.withPositions) {
          skips.vint(pos.length - blockPosStart)
        }
        for (let i = 0; i < n; i++) {
          this.freqs[i] = input.freqs[from + i]!
          this.lengths[i] = fieldLengths[docs[from + i]!]!
        }
        const frontier = competitiveImpacts(this.freqs, this.lengths, n)
        const impactStart = impacts.length
        impacts.vint(frontier.length)
        let f = 0
        let l = 0
        for (const impact of frontier) {
          impacts.vint(impact.freq - f)
          impacts.vint(impact.length - l)
          f = impact.freq
          l = impact.length
        }
        skips.vint(impacts.length - impactStart)
      }
    }
    if (numBlocks > 1) {
      pst.bytes(skips.view())
      pst.bytes(impacts.view())
    }
    pst.bytes(blocks.view())
    return { postingsLength: pst.length - pstStart, positionsLength: pos.length - posStart }
  }

  private writePositions(
    input: TermPostingsInput,
    from: number,
    n: number,
    start: number,
    pos: ByteWriter,
  ): number {
    const positions = input.positions
    const spans = input.spans
    let p = start
    for (let i = 0; i < n; i++) {
      const freq = input.freqs[from + i]!
      let previous = 0
      for (let k = 0; k < freq; k++, p++) {
        const position = positions === undefined ? 0 : positions[p]!
        const span = spans === undefined ? 1 : spans[p]!
        const gap = position - previous
        if (gap < 0) {
          throw new PubmatchError(
            'INTERNAL',
            `positions of a document must not decrease (${previous} then ${position})`,
          )
        }
        previous = position
        if (span > 1) {
          pos.vint(gap * 2 + 1)
          pos.vint(span - 2)
        } else {
          pos.vint(gap * 2)
        }
      }
    }
    return p
  }
}
