package org.pubmatch.solr.features;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Best Match's 179 features of one candidate: the Java port of {@code createFeatureExtractor} in
 * {@code packages/ltr/src/features/extract.ts}, over a {@link CandidateDocument} and a prepared
 * {@link BestMatchQuery} instead of an index reader and a forward store.
 *
 * <p>Per candidate, one pass over each of the title, abstract and MeSH tokens gives matches,
 * coverage, mean match position, IDF sums (one IDF per matching token, as NCBI's code sums them)
 * and the span input; spans run over title then abstract as one stream (abstract positions follow
 * the title's). The row has {@link BestMatchSchema}'s column order and absent data takes each
 * column's neutral value: no year → 0, no publication types or languages → all 0, no MeSH → 0, no
 * match in a field → its average position −1.
 *
 * <p>Every value is computed with the TypeScript extractor's operations in the same order (sums in
 * token order, then one division), so rows are bit-identical to it given the same inputs (the
 * parity test {@code packages/solr/test/features-java.test.ts} checks this with {@link
 * FeatureParityCheck}).
 *
 * <p>An instance keeps its work arrays between calls: one instance per thread, reused for every
 * candidate of every query (no allocation per candidate once the arrays have grown to the longest
 * document).
 */
public final class BestMatchFeatures {

  private static final Map<String, Integer> PUBTYPE_COLUMNS =
      oneHotColumns(BestMatchSchema.PUBLICATION_TYPES, BestMatchSchema.PUBTYPE_FIRST);
  private static final Map<String, Integer> LANGUAGE_COLUMNS =
      oneHotColumns(BestMatchSchema.LANGUAGES, BestMatchSchema.LANGUAGE_FIRST);

  /** Per document term ordinal: its query slot, or −1. */
  private int[] slotOfOrdinal = new int[256];
  /** Per query slot: the scan stamp that last saw it (coverage). */
  private int[] seen = new int[16];
  private int stamp;
  private int[] matchPositions = new int[256];
  private int[] matchTerms = new int[256];
  private int spanCount;
  private byte[] flagBuffer = new byte[1024];
  private final SpanFeatures spans = new SpanFeatures(256);

  // What the last scan counted.
  private int matches;
  private int covered;
  private int positionSum;
  private double idfA;
  private double idfB;

  /** Creates an extractor with small work arrays; they grow on demand. */
  public BestMatchFeatures() {}

  /**
   * Computes one candidate's 179 features into {@code out[offset … offset + 178]}; every column is
   * written.
   *
   * @param query the prepared query
   * @param doc the candidate
   * @param resultCount F176: the number of documents the first stage matched in the whole
   *     collection ({@code SearchResult.total}), the same for every candidate of the query
   * @param out the row's destination
   * @param offset index of F1 in {@code out}
   */
  public void extract(BestMatchQuery query, CandidateDocument doc, double resultCount, double[] out, int offset) {
    Arrays.fill(out, offset, offset + BestMatchSchema.FEATURE_COUNT, 0);
    int nq = query.termCount();
    if (seen.length < nq) {
      seen = new int[2 * nq];
      stamp = 0;
    }
    resolveTerms(query, doc);
    double[] idfTiab = query.idfTiabArray();
    int o = offset;

    // Document features.
    double year = doc.year();
    out[o + BestMatchSchema.YEAR] = Double.isNaN(year) ? BestMatchSchema.NEUTRAL_YEAR : year;
    out[o + BestMatchSchema.ABSTRACT_CLICKS] = doc.abstractClicks();
    out[o + BestMatchSchema.FULL_TEXT_REQUESTS] = doc.fullTextRequests();
    for (int i = 0, n = doc.publicationTypeCount(); i < n; i++) {
      setOneHot(out, o, PUBTYPE_COLUMNS, doc.publicationType(i));
    }
    for (int i = 0, n = doc.languageCount(); i < n; i++) {
      setOneHot(out, o, LANGUAGE_COLUMNS, doc.language(i));
    }
    out[o + BestMatchSchema.FIRST_STAGE_SCORE] = doc.firstStageScore();

    // Title (span positions 0 … titleLength − 1).
    int titleLength = doc.tokenCount(FeatureField.TITLE);
    int titleStops = scan(doc, FeatureField.TITLE, idfTiab, query.idfTitleArray(), 0);
    out[o + BestMatchSchema.TITLE_TOKENS] = titleLength;
    out[o + BestMatchSchema.TITLE_STOPWORD_RATIO] = titleLength == 0 ? 0 : (double) titleStops / titleLength;
    out[o + BestMatchSchema.TITLE_COVERAGE] = nq == 0 ? 0 : (double) covered / nq;
    out[o + BestMatchSchema.TITLE_AVG_POSITION] =
        matches == 0 ? BestMatchSchema.NO_POSITION : (double) positionSum / matches;
    out[o + BestMatchSchema.TITLE_MATCHES] = matches;
    out[o + BestMatchSchema.TITLE_IDF_TIAB] = idfA;
    out[o + BestMatchSchema.TITLE_IDF_TITLE] = idfB;

    // Abstract (span positions continue after the title).
    int abstractLength = doc.tokenCount(FeatureField.ABSTRACT);
    int abstractStops = scan(doc, FeatureField.ABSTRACT, idfTiab, query.idfAbstractArray(), titleLength);
    out[o + BestMatchSchema.ABSTRACT_TOKENS] = abstractLength;
    out[o + BestMatchSchema.ABSTRACT_STOPWORD_RATIO] =
        abstractLength == 0 ? 0 : (double) abstractStops / abstractLength;
    out[o + BestMatchSchema.ABSTRACT_COVERAGE] = nq == 0 ? 0 : (double) covered / nq;
    out[o + BestMatchSchema.ABSTRACT_AVG_POSITION] =
        matches == 0 ? BestMatchSchema.NO_POSITION : (double) positionSum / matches;
    out[o + BestMatchSchema.ABSTRACT_MATCHES] = matches;
    out[o + BestMatchSchema.ABSTRACT_IDF_TIAB] = idfA;
    out[o + BestMatchSchema.ABSTRACT_IDF_ABSTRACT] = idfB;

    // Spans over title + abstract.
    spans.compute(
        matchPositions, matchTerms, spanCount, flagBuffer, titleLength + abstractLength, out,
        o + BestMatchSchema.SPAN_FIRST);

    // MeSH.
    scan(doc, FeatureField.MESH, idfTiab, idfTiab, -1);
    out[o + BestMatchSchema.MESH_COVERAGE] = nq == 0 ? 0 : (double) covered / nq;
    out[o + BestMatchSchema.MESH_MATCHES] = matches;
    out[o + BestMatchSchema.MESH_IDF_TIAB] = idfA;

    // Query features.
    out[o + BestMatchSchema.RESULT_COUNT] = resultCount;
    out[o + BestMatchSchema.QUERY_NON_ALPHANUMERIC] = query.nonAlphanumeric();
    out[o + BestMatchSchema.QUERY_TOKENS] = query.words();
    out[o + BestMatchSchema.QUERY_UNIQUE_TOKENS] = query.distinctWords();
  }

  /** Maps each term of the document's table to its query slot (−1: not a query term). */
  private void resolveTerms(BestMatchQuery query, CandidateDocument doc) {
    int n = doc.termCount();
    if (slotOfOrdinal.length < n) {
      slotOfOrdinal = new int[Math.max(2 * slotOfOrdinal.length, n)];
    }
    for (int t = 0; t < n; t++) {
      slotOfOrdinal[t] = doc.querySlot(query, t);
    }
  }

  /**
   * One pass over a field's tokens ({@code scan} of {@code extract.ts}); {@code spanBase} ≥ 0 also
   * records matches and flags for spans (positions from {@code spanBase}; 0 starts a new
   * document's spans). Returns the number of stop-word tokens.
   */
  private int scan(CandidateDocument doc, FeatureField field, double[] idfsA, double[] idfsB, int spanBase) {
    int length = doc.tokenCount(field);
    stamp++;
    matches = 0;
    covered = 0;
    positionSum = 0;
    idfA = 0;
    idfB = 0;
    if (stamp == 0x3fffffff) {
      Arrays.fill(seen, 0);
      stamp = 1;
    }
    int stops = 0;
    if (spanBase == 0) {
      spanCount = 0;
    }
    if (spanBase >= 0 && flagBuffer.length < spanBase + length) {
      flagBuffer = Arrays.copyOf(flagBuffer, 2 * (spanBase + length));
    }
    for (int i = 0; i < length; i++) {
      int f = doc.flags(field, i);
      if ((f & SpanFeatures.TOKEN_STOPWORD) != 0) {
        stops++;
      }
      if (spanBase >= 0) {
        flagBuffer[spanBase + i] = (byte) f;
      }
      int t = doc.termOrdinal(field, i);
      if (t < 0) {
        continue;
      }
      int q = slotOfOrdinal[t];
      if (q < 0) {
        continue;
      }
      matches++;
      positionSum += i;
      idfA += idfsA[q];
      idfB += idfsB[q];
      if (seen[q] != stamp) {
        seen[q] = stamp;
        covered++;
      }
      if (spanBase >= 0) {
        if (spanCount == matchPositions.length) {
          matchPositions = Arrays.copyOf(matchPositions, 2 * spanCount);
          matchTerms = Arrays.copyOf(matchTerms, 2 * spanCount);
        }
        matchPositions[spanCount] = spanBase + i;
        matchTerms[spanCount] = q;
        spanCount++;
      }
    }
    return stops;
  }

  /**
   * The column of each one-hot value, under its own spelling and lower-cased ({@code oneHotColumns}
   * of {@code extract.ts}).
   */
  private static Map<String, Integer> oneHotColumns(List<String> values, int first) {
    Map<String, Integer> map = new HashMap<>();
    for (int i = 0; i < values.size(); i++) {
      map.put(values.get(i), first + i);
      map.put(values.get(i).toLowerCase(Locale.ROOT), first + i);
    }
    return map;
  }

  /** Sets a one-hot column: the value as given, else lower-cased; unknown values set nothing. */
  private static void setOneHot(double[] out, int offset, Map<String, Integer> columns, String value) {
    Integer column = columns.get(value);
    if (column == null) {
      column = columns.get(value.toLowerCase(Locale.ROOT));
    }
    if (column != null) {
      out[offset + column] = 1;
    }
  }
}
