package org.pubmatch.solr.features;

import java.util.Arrays;

/**
 * The proximity ("span") features F149–F167 of Best Match: the Java port of {@code
 * packages/ltr/src/features/spans.ts}, same arithmetic in the same order.
 *
 * <p>Reproduces {@code FeatureCalculator.getProximityFeature} of NCBI's research code
 * (github.com/ncbi-nlp/PubMed-Best-Match, {@code bestmatch/features.py}), quirks included:
 *
 * <ul>
 *   <li>a span closes before a match that repeats the previous match's query term, or that lies
 *       more than {@link #SPAN_BREAK_GAP} tokens after the previous match;
 *   <li>on X … Y … X (the match repeats the term two matches back, and that match does not end or
 *       begin the last closed span) the span is cut at the larger gap: {@code X | Y X} when the X–Y
 *       gap is at least the Y–X gap, else {@code X Y | X};
 *   <li>a span of a single match counts {@link #SINGLE_MATCH_SPAN_LENGTH} tokens long (its
 *       article/stop-word counts still look at its one token);
 *   <li>F167 is the running sum of densities at the first longest span, not that span's density.
 * </ul>
 *
 * <p>An instance holds reusable work arrays and is not thread-safe.
 */
public final class SpanFeatures {

  /** Token flag: the token is a stop word. */
  public static final int TOKEN_STOPWORD = 1;
  /** Token flag: the token is {@code a} or {@code an}. */
  public static final int TOKEN_INDEFINITE = 2;
  /** Token flag: the token is {@code the}. */
  public static final int TOKEN_DEFINITE = 4;

  /** A gap of more than this many tokens between two matches breaks a span (NCBI's {@code th}). */
  public static final int SPAN_BREAK_GAP = 10;
  /** The length a span of one match counts as (NCBI's {@code th}). */
  public static final int SINGLE_MATCH_SPAN_LENGTH = 10;
  /** The number of span features (F149–F167). */
  public static final int COUNT = 19;

  /** Offset of "spans holding more than one query-term match" (F149). */
  public static final int MULTI_TERM_SPANS = 0;
  /** Offset of "spans holding more than three matches" (F150). */
  public static final int RICH_SPANS = 1;
  /** Offset of "sum of span lengths" (F151). */
  public static final int LENGTH_SUM = 2;
  /** Offset of "sum of matches in spans" (F152). */
  public static final int TERM_SUM = 3;
  /** Offset of "sum of span densities" (F153). */
  public static final int DENSITY_SUM = 4;
  /** Offset of "a/an inside spans" (F154). */
  public static final int INDEFINITE_ARTICLES = 5;
  /** Offset of "the inside spans" (F155). */
  public static final int DEFINITE_ARTICLES = 6;
  /** Offset of "stop words inside spans" (F156). */
  public static final int STOPWORDS = 7;
  /** Offset of "spans made only of stop words" (F157). */
  public static final int STOPWORD_ONLY_SPANS = 8;
  /** Offset of "sum over spans of matches³ / length" (F158). */
  public static final int CUBED_TERMS_PER_LENGTH = 9;
  /** Offset of "number of spans" (F159). */
  public static final int SPAN_COUNT = 10;
  /** Offset of "longest span" (F160). */
  public static final int MAX_LENGTH = 11;
  /** Offset of "mean span length" (F161). */
  public static final int MEAN_LENGTH = 12;
  /** Offset of "most matches in one span" (F162). */
  public static final int MAX_TERMS = 13;
  /** Offset of "mean matches per span" (F163). */
  public static final int MEAN_TERMS = 14;
  /** Offset of "highest span density" (F164). */
  public static final int MAX_DENSITY = 15;
  /** Offset of "mean span density" (F165). */
  public static final int MEAN_DENSITY = 16;
  /** Offset of "length of the first densest span" (F166). */
  public static final int DENSEST_LENGTH = 17;
  /** Offset of "running density sum at the first longest span" (F167). */
  public static final int LONGEST_RUNNING_DENSITY = 18;

  private static final int NONE = -1;

  private int[] begins;
  private int[] ends;

  /**
   * Work arrays for {@code capacity} matches; they grow on demand.
   *
   * @param capacity matches held before growing
   */
  public SpanFeatures(int capacity) {
    begins = new int[capacity + 1];
    ends = new int[capacity + 1];
  }

  /**
   * Cuts the matches into spans; writes each span's first and last token position into {@code
   * begins}/{@code ends} (each needs room for {@code count + 1} entries) and returns the number of
   * spans ({@code findSpansInto} of {@code spans.ts}).
   *
   * @param positions token positions of the matches, ascending
   * @param terms the query term (any non-negative id) of each match
   * @param count how many matches to read
   * @param begins out: first position of each span
   * @param ends out: last position of each span
   * @return the number of spans
   */
  public static int findSpans(int[] positions, int[] terms, int count, int[] begins, int[] ends) {
    int spans = 0;
    int begin = NONE;
    int lastPos = NONE;
    int lastLastPos = NONE;
    int lastMatch = NONE;
    int lastLastMatch = NONE;
    for (int i = 0; i < count; i++) {
      int pos = positions[i];
      int match = terms[i];
      if (begin == NONE) {
        begin = pos;
        lastPos = pos;
      }
      // X | X (same term again) or X ……… | Y (gap over the threshold): close the open span.
      if (match == lastMatch || pos - lastPos > SPAN_BREAK_GAP) {
        begins[spans] = begin;
        ends[spans] = lastPos;
        spans++;
        begin = pos;
        lastMatch = NONE;
        lastLastMatch = NONE;
      }
      // X … Y … X: cut at the larger gap, unless X already bounds the last closed span.
      if (match == lastLastMatch
          && (spans == 0 || (begins[spans - 1] != lastLastPos && ends[spans - 1] != lastLastPos))) {
        int yToX = pos - lastPos;
        int xToY = lastPos - lastLastPos;
        if (yToX <= xToY) {
          begins[spans] = begin;
          ends[spans] = lastLastPos;
          spans++;
          begin = lastPos;
        } else {
          begins[spans] = begin;
          ends[spans] = lastPos;
          spans++;
          begin = pos;
        }
      }
      lastLastMatch = lastMatch;
      lastMatch = match;
      lastLastPos = lastPos;
      lastPos = pos;
    }
    if (begin != NONE) {
      begins[spans] = begin;
      ends[spans] = lastPos;
      spans++;
    }
    return spans;
  }

  /**
   * Computes the 19 span features into {@code out[offset … offset + 18]} ({@code spanFeatures} of
   * {@code spans.ts}): #spans with more than 1 match; #spans with more than 3; Σ length; Σ matches;
   * Σ density; Σ a/an; Σ the; Σ stop words; #spans of stop words only; Σ matches³/length; #spans;
   * max length; mean length; max matches; mean matches; max density; mean density; length of the
   * first densest span; running Σ density at the first longest span. All 0 without matches.
   *
   * @param positions token positions of the matches, ascending
   * @param terms the query term of each match
   * @param count how many matches to read
   * @param flags {@link #TOKEN_STOPWORD}/{@link #TOKEN_INDEFINITE}/{@link #TOKEN_DEFINITE} bits of
   *     every token, by position; positions past {@code flagCount} count as 0
   * @param flagCount how many entries of {@code flags} are valid
   * @param out where the 19 values go
   * @param offset index of the first value in {@code out}
   */
  public void compute(
      int[] positions, int[] terms, int count, byte[] flags, int flagCount, double[] out, int offset) {
    Arrays.fill(out, offset, offset + COUNT, 0);
    if (count == 0) {
      return;
    }
    if (begins.length < count + 1) {
      begins = new int[2 * count + 1];
      ends = new int[2 * count + 1];
    }
    int spans = findSpans(positions, terms, count, begins, ends);
    // The TypeScript original keeps these in JS numbers (doubles); the integer ones stay exact in
    // int, the sums of densities are accumulated in double in the same order.
    int multi = 0;
    int rich = 0;
    int lengthSum = 0;
    int termSum = 0;
    double densitySum = 0;
    int indefinite = 0;
    int definite = 0;
    int stopwords = 0;
    int stopOnly = 0;
    double cubed = 0;
    int maxLength = 0;
    int maxTerms = 0;
    double maxDensity = 0;
    int densestLength = 0;
    double longestRunningDensity = 0;
    int m = 0; // next match to count
    for (int s = 0; s < spans; s++) {
      int begin = begins[s];
      int end = ends[s];
      int length = begin == end ? SINGLE_MATCH_SPAN_LENGTH : end - begin + 1;
      while (m < count && positions[m] < begin) {
        m++;
      }
      int qtnum = 0;
      while (m < count && positions[m] <= end) {
        qtnum++;
        m++;
      }
      int stops = 0;
      for (int p = begin; p <= end; p++) {
        int f = p < flagCount ? flags[p] : 0;
        if ((f & TOKEN_INDEFINITE) != 0) {
          indefinite++;
        }
        if ((f & TOKEN_DEFINITE) != 0) {
          definite++;
        }
        if ((f & TOKEN_STOPWORD) != 0) {
          stops++;
        }
      }
      if (qtnum > 1) {
        multi++;
      }
      if (qtnum > 3) {
        rich++;
      }
      lengthSum += length;
      termSum += qtnum;
      double density = (double) qtnum / length;
      densitySum += density;
      stopwords += stops;
      if (stops == end - begin + 1) {
        stopOnly++;
      }
      // (qtnum * qtnum * qtnum) is exact in double as in int for any realistic match count; the
      // division is the one rounding, as in JS.
      cubed += ((double) qtnum * qtnum * qtnum) / length;
      if (length > maxLength) {
        maxLength = length;
        longestRunningDensity = densitySum;
      }
      if (qtnum > maxTerms) {
        maxTerms = qtnum;
      }
      if (density > maxDensity) {
        maxDensity = density;
        densestLength = length;
      }
    }
    out[offset + MULTI_TERM_SPANS] = multi;
    out[offset + RICH_SPANS] = rich;
    out[offset + LENGTH_SUM] = lengthSum;
    out[offset + TERM_SUM] = termSum;
    out[offset + DENSITY_SUM] = densitySum;
    out[offset + INDEFINITE_ARTICLES] = indefinite;
    out[offset + DEFINITE_ARTICLES] = definite;
    out[offset + STOPWORDS] = stopwords;
    out[offset + STOPWORD_ONLY_SPANS] = stopOnly;
    out[offset + CUBED_TERMS_PER_LENGTH] = cubed;
    out[offset + SPAN_COUNT] = spans;
    out[offset + MAX_LENGTH] = maxLength;
    out[offset + MEAN_LENGTH] = (double) lengthSum / spans;
    out[offset + MAX_TERMS] = maxTerms;
    out[offset + MEAN_TERMS] = (double) termSum / spans;
    out[offset + MAX_DENSITY] = maxDensity;
    out[offset + MEAN_DENSITY] = densitySum / spans;
    out[offset + DENSEST_LENGTH] = densestLength;
    out[offset + LONGEST_RUNNING_DENSITY] = longestRunningDensity;
  }
}
