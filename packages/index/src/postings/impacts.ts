/**
 * One competitive (frequency, field length) pair of a postings block: some document in the
 * block has the term `freq` times in a field of `length` tokens.
 */
export interface Impact {
  readonly freq: number
  readonly length: number
}

/**
 * The most impacts kept per block. Longer frontiers are coarsened by replacing two neighbours
 * with one pair that dominates both (their higher frequency with their lower length), so the
 * list stays an upper bound.
 */
export const MAX_IMPACTS_PER_BLOCK = 8

/**
 * The Pareto frontier of (frequency, length) pairs: the pairs no other pair beats on both
 * counts (higher or equal frequency with shorter or equal length). Any score that grows with
 * frequency and shrinks with length — BM25, BM25F per field, S1 — takes its maximum over
 * the documents at one of these pairs, whatever its parameters (k1, b, weights, average
 * lengths). Sorted by frequency ascending; lengths then ascend too.
 * @param freqs - term frequencies
 * @param lengths - the field length of each document, aligned with `freqs`
 * @param count - how many pairs to read
 * @param max - the longest list to return (see {@link MAX_IMPACTS_PER_BLOCK}). Defaults to it.
 */
export function competitiveImpacts(
  freqs: ArrayLike<number>,
  lengths: ArrayLike<number>,
  count: number,
  max: number = MAX_IMPACTS_PER_BLOCK,
): Impact[] {
  let maxFreq = 0
  for (let i = 0; i < count; i++) {
    if (freqs[i]! > maxFreq) {
      maxFreq = freqs[i]!
    }
  }
  const frontier: Impact[] = []
  if (maxFreq <= 4 * count + 64) {
    // Shortest length per frequency, then one sweep from the highest frequency down.
    if (shortest.length <= maxFreq) {
      shortest = new Float64Array(2 * maxFreq + 2)
    }
    shortest.fill(Infinity, 0, maxFreq + 1)
    for (let i = 0; i < count; i++) {
      const f = freqs[i]!
      if (lengths[i]! < shortest[f]!) {
        shortest[f] = lengths[i]!
      }
    }
    let minLength = Infinity
    for (let f = maxFreq; f >= 0; f--) {
      const length = shortest[f]!
      if (length < minLength) {
        frontier.push({ freq: f, length })
        minLength = length
      }
    }
  } else {
    const order = Array.from({ length: count }, (_, i) => i)
    order.sort((a, b) => freqs[b]! - freqs[a]! || lengths[a]! - lengths[b]!)
    let minLength = Infinity
    for (const i of order) {
      const length = lengths[i]!
      if (length < minLength) {
        frontier.push({ freq: freqs[i]!, length })
        minLength = length
      }
    }
  }
  frontier.reverse()
  return frontier.length > max ? coarsenImpacts(frontier, max) : frontier
}

let shortest = new Float64Array(256)

/**
 * Shortens a frontier to at most `max` pairs by merging the neighbours whose frequencies are
 * closest into (higher frequency, lower length), which dominates both; the result is still
 * an upper bound for every document the input covered.
 * @param impacts - a frontier sorted by frequency ascending
 * @param max - the longest list to return; at least 1
 */
export function coarsenImpacts(impacts: readonly Impact[], max: number): Impact[] {
  const out = [...impacts]
  while (out.length > Math.max(1, max)) {
    let best = 0
    for (let i = 1; i < out.length - 1; i++) {
      if (out[i + 1]!.freq - out[i]!.freq < out[best + 1]!.freq - out[best]!.freq) {
        best = i
      }
    }
    out.splice(best, 2, { freq: out[best + 1]!.freq, length: out[best]!.length })
  }
  return out
}

/**
 * The frontier of several frontiers (e.g. the blocks of a term, for a term-wide bound).
 * @param lists - frontiers
 * @param max - the longest list to return. Defaults to {@link MAX_IMPACTS_PER_BLOCK}.
 */
export function mergeImpacts(
  lists: readonly (readonly Impact[])[],
  max: number = MAX_IMPACTS_PER_BLOCK,
): Impact[] {
  const all = lists.flat()
  return competitiveImpacts(
    all.map((impact) => impact.freq),
    all.map((impact) => impact.length),
    all.length,
    max,
  )
}

/**
 * The largest value of `score(freq, length)` over a block's impacts: an upper bound of the
 * score of every document in the block when `score` grows with `freq` and does not grow
 * with `length`. Returns 0 for an empty list.
 * @param impacts - competitive impacts of a block or term
 * @param score - the per-document score as a function of frequency and field length
 */
export function maxOverImpacts(
  impacts: readonly Impact[],
  score: (freq: number, length: number) => number,
): number {
  let best = 0
  for (const impact of impacts) {
    const value = score(impact.freq, impact.length)
    if (value > best) {
      best = value
    }
  }
  return best
}
