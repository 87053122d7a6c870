package org.pubmatch.solr.features;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The binary form of a document's three token streams, for one binary docValues field that a Solr
 * shard writes at index time and {@link EncodedCandidateDocument} reads at query time.
 *
 * <p>Format 1, every integer a variable-length unsigned int (7 bits a byte, low bits first, high
 * bit set on all but the last byte, as Lucene's {@code DataOutput.writeVInt}):
 *
 * <pre>
 *   vint  format (1)
 *   vint  T, the number of distinct terms of the document
 *   T ×   vint byteLength, then the term's UTF-8 bytes      (ordinals 0 … T − 1, in this order)
 *   3 ×   field, in the order title, abstract, mesh:
 *           vint  n, the number of tokens
 *           n ×   vint ((ordinal + 1) &lt;&lt; 3 | flags)        (ordinal −1: no index term → 0 &lt;&lt; 3)
 * </pre>
 *
 * <p>{@code flags} are the three bits of {@link SpanFeatures#TOKEN_STOPWORD}, {@link
 * SpanFeatures#TOKEN_INDEFINITE} and {@link SpanFeatures#TOKEN_DEFINITE}. A token of a document
 * with fewer than 16 distinct terms takes one byte, otherwise two (three past 2,047 terms).
 */
public final class TokenStreamsCodec {

  /** The format this class writes and reads. */
  public static final int FORMAT = 1;

  private TokenStreamsCodec() {}

  /**
   * Encodes a document's term table and token streams (its doc values and score are not part of
   * the encoding: they live in their own docValues fields).
   *
   * @param doc the document
   * @return the bytes of the docValues field
   * @throws IllegalArgumentException when a flag value uses more than the three defined bits
   */
  public static byte[] encode(CandidateDocument doc) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeVInt(out, FORMAT);
    int terms = doc.termCount();
    writeVInt(out, terms);
    for (int t = 0; t < terms; t++) {
      byte[] utf8 = doc.term(t).getBytes(StandardCharsets.UTF_8);
      writeVInt(out, utf8.length);
      out.write(utf8, 0, utf8.length);
    }
    for (FeatureField field : FeatureField.values()) {
      int n = doc.tokenCount(field);
      writeVInt(out, n);
      for (int i = 0; i < n; i++) {
        int flags = doc.flags(field, i);
        if ((flags & ~7) != 0) {
          throw new IllegalArgumentException(field + " token " + i + " has flags " + flags);
        }
        writeVInt(out, (doc.termOrdinal(field, i) + 1) << 3 | flags);
      }
    }
    return out.toByteArray();
  }

  private static void writeVInt(ByteArrayOutputStream out, int value) {
    int v = value;
    while ((v & ~0x7f) != 0) {
      out.write((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }
}
