/**
 * The top k of many scored documents: a score below the k-th best guessed from a sample, the
 * candidates reaching it collected and partially sorted (the k-th best score by quickselect over
 * every candidate when the guess lets fewer than k through). The order is the bounded heap's
 * (score descending, then the tie-break), a total order, so the hits are exactly the heap's.
 */

/** `a` ranks before `b` among equal scores; `null` for ascending document number. */
export type TieBetter = ((a: number, b: number) => boolean) | null

/** Partitions at or below this length are sorted by insertion. */
const INSERTION = 16

/**
 * The value at index `t` of `values[0 … n − 1]` were it sorted ascending (reorders `values`).
 * Three-way partitions, so runs of equal scores cost one pass.
 * @param values - the values (reordered)
 * @param n - how many
 * @param t - the rank wanted, 0-based ascending
 */
export function selectAscending(values: Float64Array, n: number, t: number): number {
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const x = values[lo]!
    const y = values[(lo + hi) >>> 1]!
    const z = values[hi]!
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y
    let lt = lo
    let i = lo
    let gt = hi
    while (i <= gt) {
      const v = values[i]!
      if (v < pivot) {
        values[i] = values[lt]!
        values[lt] = v
        lt++
        i++
      } else if (v > pivot) {
        values[i] = values[gt]!
        values[gt] = v
        gt--
      } else {
        i++
      }
    }
    if (t < lt) {
      hi = lt - 1
    } else if (t > gt) {
      lo = gt + 1
    } else {
      return pivot
    }
  }
  return values[lo]!
}

/**
 * Sorts parallel arrays of hits best first: score descending, then the tie-break; with `keep`
 * below `n`, only the first `keep` places are made final (the best `keep` hits in order, the
 * rest after them in no order): partitions wholly past them are left unsorted.
 * @param scores - the scores (reordered)
 * @param docs - their documents (reordered alike)
 * @param n - how many
 * @param tie - the tie-break
 * @param keep - how many leading places must be sorted. Defaults to `n`.
 */
export function sortHits(
  scores: Float64Array,
  docs: Int32Array,
  n: number,
  tie: TieBetter,
  keep: number = n,
): void {
  const before = (s1: number, d1: number, s2: number, d2: number): boolean =>
    s1 !== s2 ? s1 > s2 : tie === null ? d1 < d2 : tie(d1, d2)
  const stack: number[] = [0, n - 1]
  while (stack.length > 0) {
    let hi = stack.pop()!
    let lo = stack.pop()!
    if (lo >= keep) {
      continue
    }
    while (hi - lo > INSERTION) {
      // Median of three as the pivot.
      const mid = (lo + hi) >>> 1
      let a = lo
      let b = mid
      const c = hi
      if (before(scores[b]!, docs[b]!, scores[a]!, docs[a]!)) {
        ;[a, b] = [b, a]
      }
      if (before(scores[c]!, docs[c]!, scores[b]!, docs[b]!)) {
        b = before(scores[c]!, docs[c]!, scores[a]!, docs[a]!) ? a : c
      }
      const ps = scores[b]!
      const pd = docs[b]!
      let i = lo
      let j = hi
      while (i <= j) {
        while (before(scores[i]!, docs[i]!, ps, pd)) {
          i++
        }
        while (before(ps, pd, scores[j]!, docs[j]!)) {
          j--
        }
        if (i <= j) {
          const s = scores[i]!
          scores[i] = scores[j]!
          scores[j] = s
          const d = docs[i]!
          docs[i] = docs[j]!
          docs[j] = d
          i++
          j--
        }
      }
      // Loop on the larger side, push the smaller (a right side wholly past `keep` is dropped).
      if (i >= keep) {
        hi = j
      } else if (j - lo < hi - i) {
        if (i < hi) {
          stack.push(i, hi)
        }
        hi = j
      } else {
        if (lo < j) {
          stack.push(lo, j)
        }
        lo = i
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const s = scores[i]!
      const d = docs[i]!
      let j = i - 1
      while (j >= lo && before(s, d, scores[j]!, docs[j]!)) {
        scores[j + 1] = scores[j]!
        docs[j + 1] = docs[j]!
        j--
      }
      scores[j + 1] = s
      docs[j + 1] = d
    }
  }
}

/** Scratch arrays of {@link selectTop}, each at least as long as the candidates. */
export interface SelectScratch {
  readonly values: Float64Array
  readonly ties: Int32Array
}

/** Candidate scores sampled to guess a score below the k-th best. */
export const SAMPLE_SIZE = 512

/**
 * How many candidates, relative to k, the sampled score should let through: enough that at least
 * k do almost always (else the exact fallback runs), few enough that sorting them stays cheap.
 */
const SAMPLE_MARGIN = 1.25

/**
 * A score that probably about `SAMPLE_MARGIN · k` candidates reach: the matching rank of an
 * evenly spaced sample of their scores. Only a guess: {@link selectTop} checks that at least k
 * candidates reach it.
 */
function sampledThreshold(
  docScores: Float64Array,
  candidates: Int32Array,
  n: number,
  k: number,
  values: Float64Array,
): number {
  const stride = Math.max(1, Math.floor(n / SAMPLE_SIZE))
  let size = 0
  for (let i = 0; i < n; i += stride) {
    values[size++] = docScores[candidates[i]!]!
  }
  const rank = Math.ceil(((k * size) / n) * SAMPLE_MARGIN)
  return rank >= size ? Number.NEGATIVE_INFINITY : selectAscending(values, size, size - rank)
}

/**
 * The best `k` of the candidates, best first. Beyond k candidates: a score below the k-th best is
 * guessed from a sample ({@link SAMPLE_SIZE} scores); the candidates reaching it are collected and,
 * when there are at least k of them, the k-th best score is at least the guess, so they hold
 * every hit and a partial sort of them gives the k. Otherwise (a rare bad guess) the k-th best
 * score is found by quickselect over every candidate.
 * @param docScores - each document's score, by document number
 * @param candidates - the scored documents (any order, no duplicates)
 * @param n - how many candidates
 * @param k - how many hits
 * @param tie - the tie-break
 * @param scratch - work arrays (overwritten)
 */
export function selectTop(
  docScores: Float64Array,
  candidates: Int32Array,
  n: number,
  k: number,
  tie: TieBetter,
  scratch: SelectScratch,
): { docs: Int32Array; scores: Float64Array } {
  const m = Math.min(n, k)
  const docs = new Int32Array(m)
  const scores = new Float64Array(m)
  if (m === 0) {
    return { docs, scores }
  }
  if (n <= k) {
    for (let i = 0; i < n; i++) {
      const d = candidates[i]!
      docs[i] = d
      scores[i] = docScores[d]!
    }
    sortHits(scores, docs, m, tie)
    return { docs, scores }
  }
  const { values, ties } = scratch
  const guess = sampledThreshold(docScores, candidates, n, k, values)
  let count = 0
  for (let i = 0; i < n; i++) {
    const d = candidates[i]!
    const s = docScores[d]!
    if (s >= guess) {
      values[count] = s
      ties[count] = d
      count++
    }
  }
  if (count >= k) {
    sortHits(values, ties, count, tie, m)
    docs.set(ties.subarray(0, m))
    scores.set(values.subarray(0, m))
    return { docs, scores }
  }
  for (let i = 0; i < n; i++) {
    values[i] = docScores[candidates[i]!]!
  }
  const kth = selectAscending(values, n, n - k)
  // Every candidate above the k-th score is in; of those at it, the best-tied fill the rest.
  count = 0
  let tied = 0
  for (let i = 0; i < n; i++) {
    const d = candidates[i]!
    const s = docScores[d]!
    if (s > kth) {
      docs[count] = d
      scores[count] = s
      count++
    } else if (s === kth) {
      ties[tied++] = d
    }
  }
  let chosen = ties.subarray(0, tied)
  if (tied > m - count) {
    chosen =
      tie === null ? chosen.sort() : chosen.sort((a, b) => (tie(a, b) ? -1 : tie(b, a) ? 1 : 0))
  }
  for (let i = 0; count < m; i++) {
    const d = chosen[i]!
    docs[count] = d
    scores[count] = docScores[d]!
    count++
  }
  sortHits(scores, docs, m, tie)
  return { docs, scores }
}
