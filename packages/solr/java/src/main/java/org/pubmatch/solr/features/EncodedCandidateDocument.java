package org.pubmatch.solr.features;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CandidateDocument} over the bytes of {@link TokenStreamsCodec}: a reusable cursor for
 * the shard side. {@link #read(byte[], int, int)} decodes one document's streams into work arrays
 * kept between documents, and the terms are matched against the query by their UTF-8 bytes
 * ({@link #querySlot(BestMatchQuery, int)}), so reading a document allocates nothing once the
 * arrays have grown. The doc values and the first-stage score, which live in other docValues
 * fields, are set with {@link #setYear(double)}, {@link #publicationTypes()}, {@link #languages()}
 * and {@link #setFirstStageScore(double)}. Not thread-safe.
 */
public final class EncodedCandidateDocument implements CandidateDocument {

  private byte[] bytes = new byte[0];
  private int termCount;
  private int[] termStart = new int[64];
  private int[] termLength = new int[64];
  private final int[][] tokens = new int[FeatureField.values().length][];
  private final int[] tokenCounts = new int[FeatureField.values().length];
  private int pos;
  private double year = Double.NaN;
  private final List<String> publicationTypes = new ArrayList<>();
  private final List<String> languages = new ArrayList<>();
  private double firstStageScore;

  /** Creates an empty cursor. */
  public EncodedCandidateDocument() {
    for (int f = 0; f < tokens.length; f++) {
      tokens[f] = new int[256];
    }
  }

  /**
   * Decodes one document's token streams; the bytes are read in place and must not change until
   * the next call.
   *
   * @param data the buffer
   * @param offset where the document's bytes start
   * @param length how many bytes
   * @throws IllegalArgumentException for another format or bytes that do not parse
   */
  public void read(byte[] data, int offset, int length) {
    bytes = data;
    pos = offset;
    int end = offset + length;
    int format = readVInt();
    if (format != TokenStreamsCodec.FORMAT) {
      throw new IllegalArgumentException("token streams of format " + format + ", this version reads " + TokenStreamsCodec.FORMAT);
    }
    termCount = readVInt();
    if (termStart.length < termCount) {
      termStart = new int[Math.max(termCount, 2 * termStart.length)];
      termLength = new int[termStart.length];
    }
    for (int t = 0; t < termCount; t++) {
      termLength[t] = readVInt();
      termStart[t] = pos;
      pos += termLength[t];
    }
    for (int f = 0; f < tokens.length; f++) {
      int n = readVInt();
      if (tokens[f].length < n) {
        tokens[f] = new int[Math.max(n, 2 * tokens[f].length)];
      }
      int[] values = tokens[f];
      for (int i = 0; i < n; i++) {
        int v = readVInt();
        if ((v >>> 3) > termCount) {
          throw new IllegalArgumentException("token " + i + " names term " + ((v >>> 3) - 1) + " of " + termCount);
        }
        values[i] = v;
      }
      tokenCounts[f] = n;
    }
    if (pos != end) {
      throw new IllegalArgumentException("token streams end at byte " + (pos - offset) + " of " + length);
    }
  }

  private int readVInt() {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = bytes[pos++];
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("a malformed variable-length integer");
  }

  /**
   * Sets the year (F1).
   *
   * @param year the {@code year} doc value, {@link Double#NaN} when absent
   */
  public void setYear(double year) {
    this.year = year;
  }

  /**
   * The publication types (F4–F77) of the current document, for the caller to clear and fill.
   *
   * @return the reused list
   */
  public List<String> publicationTypes() {
    return publicationTypes;
  }

  /**
   * The languages (F80–F140) of the current document, for the caller to clear and fill.
   *
   * @return the reused list
   */
  public List<String> languages() {
    return languages;
  }

  /**
   * Sets the first-stage score (F143).
   *
   * @param score the score
   */
  public void setFirstStageScore(double score) {
    this.firstStageScore = score;
  }

  @Override
  public int termCount() {
    return termCount;
  }

  @Override
  public String term(int ordinal) {
    return new String(bytes, termStart[ordinal], termLength[ordinal], StandardCharsets.UTF_8);
  }

  @Override
  public int querySlot(BestMatchQuery query, int ordinal) {
    return query.slotOf(bytes, termStart[ordinal], termLength[ordinal]);
  }

  @Override
  public int tokenCount(FeatureField field) {
    return tokenCounts[field.ordinal()];
  }

  @Override
  public int termOrdinal(FeatureField field, int position) {
    return (tokens[field.ordinal()][position] >>> 3) - 1;
  }

  @Override
  public int flags(FeatureField field, int position) {
    return tokens[field.ordinal()][position] & 7;
  }

  @Override
  public double year() {
    return year;
  }

  @Override
  public int publicationTypeCount() {
    return publicationTypes.size();
  }

  @Override
  public String publicationType(int index) {
    return publicationTypes.get(index);
  }

  @Override
  public int languageCount() {
    return languages.size();
  }

  @Override
  public String language(int index) {
    return languages.get(index);
  }

  @Override
  public double firstStageScore() {
    return firstStageScore;
  }
}
