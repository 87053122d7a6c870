/**
 * The proximity ("span") features F149–F167 of Best Match, as a pure function of the
 * query-term matches in a token stream (title then abstract).
 *
 * Reproduces `FeatureCalculator.getProximityFeature` of NCBI's research code
 * (github.com/ncbi-nlp/PubMed-Best-Match, `bestmatch/features.py`), quirks included:
 * - a span closes before a match that repeats the previous match's query term, or that lies
 *   more than {@link SPAN_BREAK_GAP} tokens after the previous match;
 * - on X … Y … X (the match repeats the term two matches back, and that match does not end or
 *   begin the last closed span) the span is cut at the larger gap: `X | Y X` when the X–Y gap is
 *   at least the Y–X gap, else `X Y | X`;
 * - a span of a single match counts {@link SINGLE_MATCH_SPAN_LENGTH} tokens long (its
 *   article/stop-word counts still look at its one token);
 * - F167 is the running sum of densities at the first longest span, not that span's density.
 */

// The token flags are defined with the token streams (`@pubmatch/analysis/internal`).
import { TOKEN_DEFINITE, TOKEN_INDEFINITE, TOKEN_STOPWORD } from '@pubmatch/analysis/internal'

export { TOKEN_DEFINITE, TOKEN_INDEFINITE, TOKEN_STOPWORD }

/** A gap of more than this many tokens between two matches breaks a span (NCBI's `th`). */
export const SPAN_BREAK_GAP = 10
/** The length a span of one match counts as (NCBI's `th`). */
export const SINGLE_MATCH_SPAN_LENGTH = 10
/** The number of span features (F149–F167). */
export const SPAN_FEATURE_COUNT = 19

const NONE = -1

/**
 * Cuts the matches into spans; writes each span's first and last token position into
 * `begins`/`ends` (each needs room for `count` entries) and returns the number of spans.
 * @param positions - token positions of the matches, ascending
 * @param terms - the query term (any non-negative id) each match belongs to
 * @param count - how many matches to read from `positions`/`terms`
 * @param begins - out: first position of each span
 * @param ends - out: last position of each span
 */
export function findSpansInto(
  positions: ArrayLike<number>,
  terms: ArrayLike<number>,
  count: number,
  begins: Int32Array,
  ends: Int32Array,
): number {
  let spans = 0
  let begin = NONE
  let lastPos = NONE
  let lastLastPos = NONE
  let lastMatch = NONE
  let lastLastMatch = NONE
  for (let i = 0; i < count; i++) {
    const pos = positions[i]!
    const match = terms[i]!
    if (begin === NONE) {
      begin = pos
      lastPos = pos
    }
    // X | X (same term again) or X ……… | Y (gap over the threshold): close the open span.
    if (match === lastMatch || pos - lastPos > SPAN_BREAK_GAP) {
      begins[spans] = begin
      ends[spans] = lastPos
      spans++
      begin = pos
      lastMatch = NONE
      lastLastMatch = NONE
    }
    // X … Y … X: cut at the larger gap, unless X already bounds the last closed span.
    if (
      match === lastLastMatch &&
      (spans === 0 || (begins[spans - 1] !== lastLastPos && ends[spans - 1] !== lastLastPos))
    ) {
      const yToX = pos - lastPos
      const xToY = lastPos - lastLastPos
      if (yToX <= xToY) {
        begins[spans] = begin
        ends[spans] = lastLastPos
        spans++
        begin = lastPos
      } else {
        begins[spans] = begin
        ends[spans] = lastPos
        spans++
        begin = pos
      }
    }
    lastLastMatch = lastMatch
    lastMatch = match
    lastLastPos = lastPos
    lastPos = pos
  }
  if (begin !== NONE) {
    begins[spans] = begin
    ends[spans] = lastPos
    spans++
  }
  return spans
}

/**
 * The spans of a match list as `[first, last]` token positions (see {@link findSpansInto}).
 * @param positions - token positions of the matches, ascending
 * @param terms - the query term each match belongs to
 */
export function findSpans(positions: readonly number[], terms: readonly number[]): [number, number][] {
  const n = positions.length
  const begins = new Int32Array(n + 1)
  const ends = new Int32Array(n + 1)
  const spans = findSpansInto(positions, terms, n, begins, ends)
  const out: [number, number][] = []
  for (let s = 0; s < spans; s++) {
    out.push([begins[s]!, ends[s]!])
  }
  return out
}

/** Reusable work arrays of {@link spanFeatures}, grown on demand. */
export interface SpanScratch {
  begins: Int32Array
  ends: Int32Array
}

/**
 * Creates work arrays for {@link spanFeatures}.
 * @param capacity - matches they hold before growing. Defaults to `256`.
 */
export function createSpanScratch(capacity = 256): SpanScratch {
  return { begins: new Int32Array(capacity + 1), ends: new Int32Array(capacity + 1) }
}

/**
 * Computes the 19 span features F149–F167 into `out[offset … offset + 18]`: #spans with more
 * than 1 match; #spans with more than 3; Σ length; Σ matches; Σ density; Σ `a`/`an`; Σ `the`;
 * Σ stop words; #spans of stop words only; Σ matches³/length; #spans; max length; mean length;
 * max matches; mean matches; max density; mean density; length of the first densest span;
 * running Σ density at the first longest span. All 0 without matches.
 * @param positions - token positions of the matches, ascending
 * @param terms - the query term each match belongs to
 * @param count - how many matches to read
 * @param flags - {@link TOKEN_STOPWORD}/{@link TOKEN_INDEFINITE}/{@link TOKEN_DEFINITE} bits of every token, by position
 * @param out - where the 19 values go
 * @param offset - index of the first value in `out`. Defaults to `0`.
 * @param scratch - work arrays to reuse. Defaults to fresh ones.
 */
export function spanFeatures(
  positions: ArrayLike<number>,
  terms: ArrayLike<number>,
  count: number,
  flags: ArrayLike<number>,
  out: Float64Array,
  offset = 0,
  scratch: SpanScratch = createSpanScratch(count),
): void {
  out.fill(0, offset, offset + SPAN_FEATURE_COUNT)
  if (count === 0) {
    return
  }
  if (scratch.begins.length < count + 1) {
    scratch.begins = new Int32Array(2 * count + 1)
    scratch.ends = new Int32Array(2 * count + 1)
  }
  const { begins, ends } = scratch
  const spans = findSpansInto(positions, terms, count, begins, ends)
  let multi = 0
  let rich = 0
  let lengthSum = 0
  let termSum = 0
  let densitySum = 0
  let indefinite = 0
  let definite = 0
  let stopwords = 0
  let stopOnly = 0
  let cubed = 0
  let maxLength = 0
  let maxTerms = 0
  let maxDensity = 0
  let densestLength = 0
  let longestRunningDensity = 0
  let m = 0 // next match to count
  for (let s = 0; s < spans; s++) {
    const begin = begins[s]!
    const end = ends[s]!
    const length = begin === end ? SINGLE_MATCH_SPAN_LENGTH : end - begin + 1
    while (m < count && positions[m]! < begin) {
      m++
    }
    let qtnum = 0
    while (m < count && positions[m]! <= end) {
      qtnum++
      m++
    }
    let stops = 0
    for (let p = begin; p <= end; p++) {
      const f = flags[p] ?? 0
      if ((f & TOKEN_INDEFINITE) !== 0) {
        indefinite++
      }
      if ((f & TOKEN_DEFINITE) !== 0) {
        definite++
      }
      if ((f & TOKEN_STOPWORD) !== 0) {
        stops++
      }
    }
    if (qtnum > 1) {
      multi++
    }
    if (qtnum > 3) {
      rich++
    }
    lengthSum += length
    termSum += qtnum
    const density = qtnum / length
    densitySum += density
    stopwords += stops
    if (stops === end - begin + 1) {
      stopOnly++
    }
    cubed += (qtnum * qtnum * qtnum) / length
    if (length > maxLength) {
      maxLength = length
      longestRunningDensity = densitySum
    }
    if (qtnum > maxTerms) {
      maxTerms = qtnum
    }
    if (density > maxDensity) {
      maxDensity = density
      densestLength = length
    }
  }
  out[offset] = multi
  out[offset + 1] = rich
  out[offset + 2] = lengthSum
  out[offset + 3] = termSum
  out[offset + 4] = densitySum
  out[offset + 5] = indefinite
  out[offset + 6] = definite
  out[offset + 7] = stopwords
  out[offset + 8] = stopOnly
  out[offset + 9] = cubed
  out[offset + 10] = spans
  out[offset + 11] = maxLength
  out[offset + 12] = lengthSum / spans
  out[offset + 13] = maxTerms
  out[offset + 14] = termSum / spans
  out[offset + 15] = maxDensity
  out[offset + 16] = densitySum / spans
  out[offset + 17] = densestLength
  out[offset + 18] = longestRunningDensity
}
