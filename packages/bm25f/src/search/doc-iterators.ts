/**
 * Document iterators for Boolean matching: postings, conjunctions (leapfrog), disjunctions,
 * exclusions, predicates over doc values, and precomputed document lists. Every iterator moves
 * forward only, in increasing document order, and ends at `NO_MORE_DOCS`.
 */
import { NO_MORE_DOCS, type PostingsCursor } from '@pubmatch/index/internal'

/** A forward-only iterator over matching documents. */
export interface DocIterator {
  /** The current document: `-1` before the start, `NO_MORE_DOCS` at the end. */
  docID(): number
  /**
   * Moves to the first matching document ≥ `target` and returns it; stays put when the current
   * document is already ≥ `target`.
   */
  advance(target: number): number
  /** An estimate of how many documents it yields (drives conjunction order). */
  readonly cost: number
}

/** Matches nothing. */
export const EMPTY_ITERATOR: DocIterator = Object.freeze({
  docID: () => NO_MORE_DOCS,
  advance: () => NO_MORE_DOCS,
  cost: 0,
})

/** The documents of one postings list. */
export class PostingsIterator implements DocIterator {
  readonly cost: number
  readonly cursor: PostingsCursor

  constructor(cursor: PostingsCursor) {
    this.cursor = cursor
    this.cost = cursor.docFreq
  }

  docID(): number {
    return this.cursor.docID()
  }

  advance(target: number): number {
    return this.cursor.advance(target)
  }
}

/** The documents of a sorted, duplicate-free list (a precomputed union, `[pmid]` look-ups). */
export class DocListIterator implements DocIterator {
  readonly cost: number
  private readonly docs: Int32Array
  private index = -1
  private doc = -1

  constructor(docs: Int32Array) {
    this.docs = docs
    this.cost = docs.length
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    const docs = this.docs
    // Gallop from the current index, then binary search.
    let lo = this.index + 1
    let step = 1
    let hi = lo
    while (hi < docs.length && docs[hi]! < target) {
      lo = hi + 1
      hi += step
      step *= 2
    }
    hi = Math.min(hi, docs.length)
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (docs[mid]! < target) {
        lo = mid + 1
      } else {
        hi = mid
      }
    }
    this.index = lo
    this.doc = lo < docs.length ? docs[lo]! : NO_MORE_DOCS
    return this.doc
  }
}

/** Live documents that satisfy a predicate (doc-value filters, every document). */
export class PredicateIterator implements DocIterator {
  readonly cost: number
  private readonly maxDoc: number
  private readonly accept: (doc: number) => boolean
  private doc = -1

  /**
   * @param maxDoc - one past the last document number
   * @param accept - whether a document matches (must reject deleted documents itself)
   */
  constructor(maxDoc: number, accept: (doc: number) => boolean) {
    this.maxDoc = maxDoc
    this.accept = accept
    this.cost = maxDoc
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    for (let d = Math.max(target, 0); d < this.maxDoc; d++) {
      if (this.accept(d)) {
        return (this.doc = d)
      }
    }
    return (this.doc = NO_MORE_DOCS)
  }
}

/** Documents matched by every child (leapfrog over the children, cheapest first). */
export class ConjunctionIterator implements DocIterator {
  readonly cost: number
  private readonly children: readonly DocIterator[]
  private doc = -1

  constructor(children: readonly DocIterator[]) {
    this.children = [...children].sort((a, b) => a.cost - b.cost)
    this.cost = this.children[0]?.cost ?? 0
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    const children = this.children
    const lead = children[0]!
    let d = lead.advance(target)
    let i = 1
    while (d !== NO_MORE_DOCS && i < children.length) {
      const child = children[i]!
      const c = child.docID() < d ? child.advance(d) : child.docID()
      if (c === d) {
        i++
      } else {
        d = lead.advance(c)
        i = 1
      }
    }
    return (this.doc = d)
  }
}

/** Documents matched by any child. */
export class DisjunctionIterator implements DocIterator {
  readonly cost: number
  private readonly children: readonly DocIterator[]
  private doc = -1

  constructor(children: readonly DocIterator[]) {
    this.children = children
    this.cost = children.reduce((sum, child) => sum + child.cost, 0)
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    let min = NO_MORE_DOCS
    for (const child of this.children) {
      const c = child.docID() < target ? child.advance(target) : child.docID()
      if (c < min) {
        min = c
      }
    }
    return (this.doc = min)
  }
}

/** `include NOT exclude`. */
export class ExclusionIterator implements DocIterator {
  readonly cost: number
  private readonly include: DocIterator
  private readonly exclude: DocIterator
  private doc = -1

  constructor(include: DocIterator, exclude: DocIterator) {
    this.include = include
    this.exclude = exclude
    this.cost = include.cost
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    let d = this.include.advance(target)
    while (d !== NO_MORE_DOCS) {
      const e = this.exclude.docID() < d ? this.exclude.advance(d) : this.exclude.docID()
      if (e !== d) {
        break
      }
      d = this.include.advance(d + 1)
    }
    return (this.doc = d)
  }
}
