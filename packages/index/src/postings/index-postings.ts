import type { LiveDocs } from '../segment/live-docs.ts'
import { mergeImpacts, type Impact } from './impacts.ts'
import type { PostingsCursor } from './postings-cursor.ts'
import { NO_MORE_DOCS } from './postings-format.ts'

/** One segment's share of an index-level postings list. */
export interface PostingsPart {
  /** The segment's first global document number. */
  readonly base: number
  /** One past the segment's last global document number. */
  readonly end: number
  /** The term's document frequency in the segment. */
  readonly docFreq: number
  /** Deletions to skip, or `null`. */
  readonly liveDocs: LiveDocs | null
  /** Opens the segment's cursor (local document numbers). */
  open(): PostingsCursor
}

/**
 * A postings cursor over several segments in global document numbers (segment base +
 * local number) that skips deleted documents. Impacts come from the segment blocks, so
 * `shallowAdvance` never crosses a segment boundary with one block.
 */
export class IndexPostings implements PostingsCursor {
  readonly docFreq: number
  private readonly parts: readonly PostingsPart[]
  private readonly cursors: (PostingsCursor | undefined)[]
  private part = 0
  private doc = -1
  private impactPart = 0

  /**
   * @param parts - segments that have the term, in document order
   */
  constructor(parts: readonly PostingsPart[]) {
    this.parts = parts
    this.cursors = parts.map(() => undefined)
    this.docFreq = parts.reduce((sum, part) => sum + part.docFreq, 0)
  }

  docID(): number {
    return this.doc
  }

  nextDoc(): number {
    while (this.part < this.parts.length) {
      const part = this.parts[this.part]!
      const cursor = this.cursor(this.part)
      let d = cursor.nextDoc()
      while (d !== NO_MORE_DOCS && part.liveDocs !== null && !part.liveDocs.isLive(d)) {
        d = cursor.nextDoc()
      }
      if (d !== NO_MORE_DOCS) {
        return (this.doc = part.base + d)
      }
      this.part++
    }
    return (this.doc = NO_MORE_DOCS)
  }

  nextDocs(docs: Int32Array, freqs: Int32Array): number {
    while (this.part < this.parts.length) {
      const part = this.parts[this.part]!
      const cursor = this.cursor(this.part)
      let n = cursor.nextDocs(docs, freqs)
      while (n > 0) {
        const base = part.base
        const live = part.liveDocs
        if (base === 0 && live === null) {
          this.doc = docs[n - 1]!
          return n
        }
        let kept = 0
        for (let i = 0; i < n; i++) {
          const d = docs[i]!
          if (live === null || live.isLive(d)) {
            docs[kept] = base + d
            freqs[kept] = freqs[i]!
            kept++
          }
        }
        if (kept > 0) {
          this.doc = docs[kept - 1]!
          return kept
        }
        n = cursor.nextDocs(docs, freqs)
      }
      this.part++
    }
    this.doc = NO_MORE_DOCS
    return 0
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    while (this.part < this.parts.length && this.parts[this.part]!.end <= target) {
      this.part++
    }
    if (this.part >= this.parts.length) {
      return (this.doc = NO_MORE_DOCS)
    }
    const part = this.parts[this.part]!
    const cursor = this.cursor(this.part)
    const d = cursor.advance(Math.max(0, target - part.base))
    if (d === NO_MORE_DOCS) {
      this.part++
      return this.nextDoc()
    }
    if (part.liveDocs !== null && !part.liveDocs.isLive(d)) {
      return this.nextDoc()
    }
    return (this.doc = part.base + d)
  }

  freq(): number {
    return this.part < this.parts.length ? this.cursor(this.part).freq() : 0
  }

  positions(): Int32Array {
    return this.cursor(Math.min(this.part, this.parts.length - 1)).positions()
  }

  positionSpans(): Int32Array {
    return this.cursor(Math.min(this.part, this.parts.length - 1)).positionSpans()
  }

  shallowAdvance(target: number): number {
    let p = Math.max(this.part, 0)
    while (p < this.parts.length && this.parts[p]!.end <= target) {
      p++
    }
    while (p < this.parts.length) {
      const part = this.parts[p]!
      const last = this.cursor(p).shallowAdvance(Math.max(0, target - part.base))
      if (last !== NO_MORE_DOCS) {
        this.impactPart = p
        return part.base + last
      }
      p++
    }
    this.impactPart = this.parts.length - 1
    return NO_MORE_DOCS
  }

  blockImpacts(): readonly Impact[] {
    return this.parts.length === 0 ? [] : this.cursor(this.impactPart).blockImpacts()
  }

  maxImpacts(): readonly Impact[] {
    return mergeImpacts(this.parts.map((_, p) => [...this.cursor(p).maxImpacts()]))
  }

  private cursor(p: number): PostingsCursor {
    let cursor = this.cursors[p]
    if (cursor === undefined) {
      cursor = this.parts[p]!.open()
      this.cursors[p] = cursor
    }
    return cursor
  }
}
