/**
 * A scoring clause at search time: one query term (or the expansions of a truncated word) over
 * its scored fields, with the postings cursors that give its per-field tfs and the block impacts
 * that bound its score.
 */
import { NO_MORE_DOCS, type PostingsCursor } from '@pubmatch/index/internal'
import type { TermScorer } from '../scoring/term-scorer.ts'

/** One postings list of a clause: a term in a scored field. */
export interface ClauseSource {
  /** The field's index in the scored fields (the scorer's field order). */
  readonly slot: number
  readonly cursor: PostingsCursor
}

/** A scoring clause with its cursors, positioned forward only. */
export class ClauseRuntime {
  /** Its index among the prepared query's terms. */
  readonly index: number
  readonly scorer: TermScorer
  /** Per scored field, the clause's tf in the current document (after {@link fillTfs}). */
  readonly tfs: Float64Array
  /** The upper bound of the current window (set by the search loop). */
  ub = 0
  /** The smallest document ≥ the last target in any of its postings. */
  doc = -1
  private readonly cursors: readonly PostingsCursor[]
  private readonly slots: Int32Array
  /** The one field every source is in, or −1. */
  private readonly singleSlot: number
  private readonly blockEnd: Float64Array
  private readonly blockMaxTf: Float64Array
  private readonly blockMinLength: Float64Array
  private readonly maxTfs: Float64Array
  private readonly minLengths: Float64Array
  private readonly impactMin: Float64Array

  /**
   * @param index - the clause's index among the prepared terms
   * @param scorer - its term scorer
   * @param sources - its postings (at least one)
   * @param fieldCount - the number of scored fields
   */
  constructor(
    index: number,
    scorer: TermScorer,
    sources: readonly ClauseSource[],
    fieldCount: number,
  ) {
    this.index = index
    this.scorer = scorer
    this.cursors = sources.map((s) => s.cursor)
    this.slots = Int32Array.from(sources, (s) => s.slot)
    const first = this.slots[0] ?? -1
    this.singleSlot = this.slots.every((slot) => slot === first) ? first : -1
    this.tfs = new Float64Array(fieldCount)
    this.blockEnd = new Float64Array(sources.length).fill(-1)
    this.blockMaxTf = new Float64Array(sources.length)
    this.blockMinLength = new Float64Array(sources.length)
    this.maxTfs = new Float64Array(fieldCount)
    this.minLengths = new Float64Array(fieldCount)
    this.impactMin = new Float64Array(fieldCount)
  }

  /** Moves every source to its first document ≥ `target`; returns the smallest. */
  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    const cursors = this.cursors
    let min = NO_MORE_DOCS
    for (let s = 0; s < cursors.length; s++) {
      const cursor = cursors[s]!
      let d = cursor.docID()
      if (d < target) {
        d = cursor.advance(target)
      }
      if (d < min) {
        min = d
      }
    }
    return (this.doc = min)
  }

  /** Fills {@link tfs} for document `doc` (the clause must be positioned at it); returns how many sources hold it. */
  fillTfs(doc: number): number {
    const tfs = this.tfs
    for (let f = 0; f < tfs.length; f++) {
      tfs[f] = 0
    }
    const cursors = this.cursors
    let found = 0
    for (let s = 0; s < cursors.length; s++) {
      const cursor = cursors[s]!
      if (cursor.docID() === doc) {
        tfs[this.slots[s]!]! += cursor.freq()
        found++
      }
    }
    return found
  }

  /**
   * Makes sure each source's cached block covers `from` and returns the end of the clause's
   * window: the smallest last document of those blocks (`NO_MORE_DOCS` when exhausted).
   * @param from - the first document of the window
   */
  updateBlocks(from: number): number {
    const cursors = this.cursors
    let end = NO_MORE_DOCS
    for (let s = 0; s < cursors.length; s++) {
      if (this.blockEnd[s]! < from) {
        const cursor = cursors[s]!
        const current = cursor.docID()
        const last =
          current === NO_MORE_DOCS ? NO_MORE_DOCS : cursor.shallowAdvance(Math.max(from, current))
        this.blockEnd[s] = last
        if (last === NO_MORE_DOCS) {
          this.blockMaxTf[s] = 0
          this.blockMinLength[s] = 0
        } else {
          let maxTf = 0
          let minLength = Number.POSITIVE_INFINITY
          for (const impact of cursor.blockImpacts()) {
            if (impact.freq > maxTf) {
              maxTf = impact.freq
            }
            if (impact.length < minLength) {
              minLength = impact.length
            }
          }
          this.blockMaxTf[s] = maxTf
          this.blockMinLength[s] = minLength === Number.POSITIVE_INFINITY ? 0 : minLength
        }
      }
      const e = this.blockEnd[s]!
      if (e < end && this.blockMaxTf[s]! > 0) {
        end = e
      }
    }
    return end
  }

  /**
   * An upper bound of the clause's score in every document of `from … to`, from the cached
   * blocks (call {@link updateBlocks} first).
   * @param separable - whether the scorer's per-field contributions only depend on the lengths
   *   of fields holding the term (Robertson–Zaragoza BM25F), so block impacts bound them alone
   * @param rangeMin - a lower bound of a scored field's length over a document range
   * @param from - first document of the window
   * @param to - last document of the window
   */
  bound(
    separable: boolean,
    rangeMin: (slot: number, from: number, to: number) => number,
    from: number,
    to: number,
  ): number {
    const maxTfs = this.maxTfs
    const impactMin = this.impactMin
    maxTfs.fill(0)
    impactMin.fill(Number.POSITIVE_INFINITY)
    for (let s = 0; s < this.slots.length; s++) {
      const tf = this.blockMaxTf[s]!
      if (tf > 0) {
        const slot = this.slots[s]!
        maxTfs[slot]! += tf
        if (this.blockMinLength[s]! < impactMin[slot]!) {
          impactMin[slot] = this.blockMinLength[s]!
        }
      }
    }
    const minLengths = this.minLengths
    let any = false
    for (let f = 0; f < maxTfs.length; f++) {
      any ||= maxTfs[f]! > 0
      if (separable) {
        minLengths[f] = maxTfs[f]! > 0 ? impactMin[f]! : 0
      } else {
        // A document of the window lacking the term in f can have any length in f: only the
        // range minimum holds for all; a single-field clause's documents all have it in f.
        const range = rangeMin(f, from, to)
        minLengths[f] =
          f === this.singleSlot && maxTfs[f]! > 0 ? Math.max(range, impactMin[f]!) : range
      }
    }
    return any ? this.scorer.upperBound(maxTfs, minLengths) : 0
  }
}
