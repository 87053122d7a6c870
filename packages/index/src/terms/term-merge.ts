import { compareCodePoints } from '@pubmatch/core'

/** Anything listed by term: a term dictionary entry, an index-wide term entry. */
export interface TermKeyed {
  /** The term. */
  readonly term: string
}

/**
 * A k-way merge of term lists, each sorted in code point order (UTF-8 byte order) without
 * duplicates: `next()` steps through the union of their terms in that order and says which lists
 * hold the current term (`count` of them: list `sources[i]`, its entry `entries[i]`, in list
 * order). The lists are few (segments, section fields), so the smallest head is found by a scan;
 * nothing is allocated per term.
 *
 * ```ts
 * const merge = new TermMerge(segments.map((segment) => segment.terms(field).entries()))
 * while (merge.next()) {
 *   for (let i = 0; i < merge.count; i++) {
 *     use(merge.term, merge.sources[i]!, merge.entries[i]!)
 *   }
 * }
 * ```
 */
export class TermMerge<E extends TermKeyed> {
  /** The current term (`''` before the first `next()` and after the last). */
  term = ''
  /** How many lists hold the current term. */
  count = 0
  /** The lists holding the current term, ascending (the first `count` are valid). */
  readonly sources: Int32Array
  /** Their entries for the current term, in the order of `sources` (the first `count` are valid). */
  readonly entries: (E | undefined)[]
  private readonly lists: readonly Iterator<E>[]
  private readonly heads: (E | undefined)[]

  /**
   * @param lists - the term lists, each sorted in code point order; read lazily, one entry ahead
   */
  constructor(lists: readonly Iterator<E>[]) {
    this.lists = lists
    this.heads = lists.map((list) => list.next().value as E | undefined)
    this.sources = new Int32Array(lists.length)
    this.entries = new Array<E | undefined>(lists.length).fill(undefined)
  }

  /** Moves to the next term of the union; `false` once every list is exhausted. */
  next(): boolean {
    const heads = this.heads
    // The lists that held the previous term move on.
    for (let i = 0; i < this.count; i++) {
      const s = this.sources[i]!
      heads[s] = this.lists[s]!.next().value as E | undefined
      this.entries[i] = undefined
    }
    let term: string | undefined
    for (const head of heads) {
      if (head !== undefined && (term === undefined || compareCodePoints(head.term, term) < 0)) {
        term = head.term
      }
    }
    if (term === undefined) {
      this.term = ''
      this.count = 0
      return false
    }
    let count = 0
    for (let s = 0; s < heads.length; s++) {
      const head = heads[s]
      if (head !== undefined && head.term === term) {
        this.sources[count] = s
        this.entries[count] = head
        count++
      }
    }
    this.term = term
    this.count = count
    return true
  }
}
