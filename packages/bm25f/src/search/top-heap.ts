/**
 * The bounded heap of the top-k loops: the best (score, document) pairs seen, worst on top.
 */

/** The hits of the loop (best first) and its counters. */
export interface TopKOutput {
  readonly docs: Int32Array
  readonly scores: Float64Array
  readonly docsScored: number
  readonly postingsScored: number
  readonly docsMatched: number
  readonly windows: number
  readonly blocksSkipped: number
  /** Whether every matching document was visited (so `docsMatched` is the exact total). */
  readonly visitedAll: boolean
  /** Which loop ran. */
  readonly strategy: 'termAtATime' | 'intersection' | 'documentAtATime'
}

/** A bounded heap of the best (score, doc) pairs; its top is the worst one held. */
export class TopHeap {
  readonly scores: Float64Array
  readonly docs: Int32Array
  size = 0
  private readonly k: number
  /** `null`: ties go to the smaller document number (the common case, kept inline). */
  private readonly tieBetter: ((a: number, b: number) => boolean) | null

  constructor(k: number, tieBetter: ((a: number, b: number) => boolean) | null) {
    this.k = k
    this.scores = new Float64Array(k)
    this.docs = new Int32Array(k)
    this.tieBetter = tieBetter
  }

  get full(): boolean {
    return this.size >= this.k
  }

  /** The k-th best score once full, −∞ before. */
  get threshold(): number {
    return this.size >= this.k && this.k > 0 ? this.scores[0]! : Number.NEGATIVE_INFINITY
  }

  /** Whether (s1, d1) ranks before (s2, d2). */
  better(s1: number, d1: number, s2: number, d2: number): boolean {
    if (s1 !== s2) {
      return s1 > s2
    }
    return this.tieBetter === null ? d1 < d2 : this.tieBetter(d1, d2)
  }

  offer(score: number, doc: number): void {
    if (this.k === 0) {
      return
    }
    const scores = this.scores
    const docs = this.docs
    if (this.size < this.k) {
      // Sift up: parents are worse than children.
      let i = this.size++
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!this.better(scores[parent]!, docs[parent]!, score, doc)) {
          break
        }
        scores[i] = scores[parent]!
        docs[i] = docs[parent]!
        i = parent
      }
      scores[i] = score
      docs[i] = doc
      return
    }
    if (!this.better(score, doc, scores[0]!, docs[0]!)) {
      return
    }
    this.siftDown(score, doc, this.size)
  }

  /** Puts (score, doc) at the root and sifts it down within the first `n` entries. */
  private siftDown(score: number, doc: number, n: number): void {
    const scores = this.scores
    const docs = this.docs
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= n) {
        break
      }
      const right = left + 1
      let worst = left
      if (right < n && this.better(scores[left]!, docs[left]!, scores[right]!, docs[right]!)) {
        worst = right
      }
      if (!this.better(score, doc, scores[worst]!, docs[worst]!)) {
        break
      }
      scores[i] = scores[worst]!
      docs[i] = docs[worst]!
      i = worst
    }
    scores[i] = score
    docs[i] = doc
  }

  /** The held pairs, best first (empties the heap: the worst is popped into the last place). */
  sorted(): { docs: Int32Array; scores: Float64Array } {
    const n = this.size
    const outDocs = new Int32Array(n)
    const outScores = new Float64Array(n)
    for (let last = n - 1; last >= 0; last--) {
      outScores[last] = this.scores[0]!
      outDocs[last] = this.docs[0]!
      if (last > 0) {
        this.siftDown(this.scores[last]!, this.docs[last]!, last)
      }
    }
    this.size = 0
    return { docs: outDocs, scores: outScores }
  }
}
