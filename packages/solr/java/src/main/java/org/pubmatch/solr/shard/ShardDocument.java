package org.pubmatch.solr.shard;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.lucene.util.BytesRef;

/**
 * One document's feature data as a shard holds it: the title, abstract and MeSH token streams
 * (each token a term of the document's own term dictionary, or none for a stop word the index
 * analyzer drops, plus its flag bits) and the doc values (year, past usage, publication types, languages,
 * id). Filled by {@link ShardDocumentReader#read}; meant to be reused across documents: its arrays
 * grow and are kept, term strings are decoded on first use, and the publication types and
 * languages are strings shared by every document of a segment. Not thread-safe.
 *
 * <p>The forward value's format ({@code packages/solr/src/forward.ts}; varints are Lucene's
 * {@code VInt}): a format byte (1); a varint n and n terms, each a varint byte length and UTF-8
 * bytes; then for title, abstract and MeSH a varint token count and per token a varint {@code (ref
 * << 3) | flags}, where ref 0 is a token without a term and ref k the term k - 1.
 */
public final class ShardDocument {
  /** Stream index of the title. */
  public static final int TITLE = 0;

  /** Stream index of the abstract. */
  public static final int ABSTRACT = 1;

  /** Stream index of the MeSH headings (every descriptor name's tokens, one after another). */
  public static final int MESH = 2;

  /** The number of streams. */
  public static final int STREAMS = 3;

  /** {@link #tokenTerm} of a token without a term (a stop word the index analyzer drops). */
  public static final int NO_TERM = -1;

  private static final int FLAG_BITS = 3;
  private static final int FLAG_MASK = (1 << FLAG_BITS) - 1;

  private byte[] bytes = new byte[1024];
  private int termCount;
  private int[] termStart = new int[64];
  private int[] termLength = new int[64];
  private String[] termStrings = new String[64];
  private final int[] tokenCounts = new int[STREAMS];
  private final int[][] tokenTerms = {new int[256], new int[1024], new int[256]};
  private final byte[][] tokenFlags = {new byte[256], new byte[1024], new byte[256]};

  boolean hasYear;
  int year;
  long abstractClicks;
  long fullTextRequests;
  String[] publicationTypes = new String[8];
  int publicationTypeCount;
  String[] languages = new String[4];
  int languageCount;
  private byte[] idBytes = new byte[32];
  private int pos;
  private int idLength = -1;
  private String id;

  /** The document's distinct terms (its term dictionary). */
  public int termCount() {
    return termCount;
  }

  /**
   * A term of the document's dictionary as a string (decoded on first use, then kept until the
   * next document).
   *
   * @param term 0 ≤ term &lt; {@link #termCount()}
   */
  public String term(int term) {
    checkTerm(term);
    String s = termStrings[term];
    if (s == null) {
      s = new String(bytes, termStart[term], termLength[term], StandardCharsets.UTF_8);
      termStrings[term] = s;
    }
    return s;
  }

  /**
   * Points {@code into} at a term's UTF-8 bytes (valid until the next document), without copying.
   *
   * @param term 0 ≤ term &lt; {@link #termCount()}
   * @param into the reference to set
   * @return {@code into}
   */
  public BytesRef termBytes(int term, BytesRef into) {
    checkTerm(term);
    into.bytes = bytes;
    into.offset = termStart[term];
    into.length = termLength[term];
    return into;
  }

  /**
   * The number of tokens of a stream.
   *
   * @param stream {@link #TITLE}, {@link #ABSTRACT} or {@link #MESH}
   */
  public int tokenCount(int stream) {
    return tokenCounts[stream];
  }

  /**
   * The term of a token: an index into the term dictionary, or {@link #NO_TERM}.
   *
   * @param stream the stream
   * @param token 0 ≤ token &lt; {@link #tokenCount(int)}
   */
  public int tokenTerm(int stream, int token) {
    checkToken(stream, token);
    return tokenTerms[stream][token];
  }

  /**
   * The flag bits of a token ({@link ShardFields#TOKEN_STOPWORD}, {@link
   * ShardFields#TOKEN_INDEFINITE}, {@link ShardFields#TOKEN_DEFINITE}).
   *
   * @param stream the stream
   * @param token 0 ≤ token &lt; {@link #tokenCount(int)}
   */
  public int tokenFlags(int stream, int token) {
    checkToken(stream, token);
    return tokenFlags[stream][token];
  }

  /**
   * The term of every token of a stream, for loops (entries from {@link #tokenCount(int)} on are
   * stale); shared: do not modify.
   *
   * @param stream the stream
   */
  public int[] tokenTermArray(int stream) {
    return tokenTerms[stream];
  }

  /**
   * The flags of every token of a stream, for loops (entries from {@link #tokenCount(int)} on are
   * stale); shared: do not modify.
   *
   * @param stream the stream
   */
  public byte[] tokenFlagArray(int stream) {
    return tokenFlags[stream];
  }

  /** Whether the document has a year. */
  public boolean hasYear() {
    return hasYear;
  }

  /** The year; meaningful only when {@link #hasYear()}. */
  public int year() {
    return year;
  }

  /** Past usage: abstract views in the search log (F2); 0 without usage data. */
  public long abstractClicks() {
    return abstractClicks;
  }

  /** Past usage: full-text requests in the search log (F3); 0 without usage data. */
  public long fullTextRequests() {
    return fullTextRequests;
  }

  /** The number of distinct publication types. */
  public int publicationTypeCount() {
    return publicationTypeCount;
  }

  /**
   * A publication type, in the doc values' order (UTF-8 byte order).
   *
   * @param i 0 ≤ i &lt; {@link #publicationTypeCount()}
   */
  public String publicationType(int i) {
    if (i < 0 || i >= publicationTypeCount) {
      throw new IndexOutOfBoundsException(i);
    }
    return publicationTypes[i];
  }

  /** The number of distinct languages. */
  public int languageCount() {
    return languageCount;
  }

  /**
   * A language code, in the doc values' order (UTF-8 byte order).
   *
   * @param i 0 ≤ i &lt; {@link #languageCount()}
   */
  public String language(int i) {
    if (i < 0 || i >= languageCount) {
      throw new IndexOutOfBoundsException(i);
    }
    return languages[i];
  }

  /** The external id (decoded on first use), or null when the document has none. */
  public String id() {
    if (id == null && idLength >= 0) {
      id = new String(idBytes, 0, idLength, StandardCharsets.UTF_8);
    }
    return id;
  }

  void clearDocValues() {
    hasYear = false;
    year = 0;
    abstractClicks = 0;
    fullTextRequests = 0;
    publicationTypeCount = 0;
    languageCount = 0;
    idLength = -1;
    id = null;
  }

  void setId(BytesRef value) {
    if (idBytes.length < value.length) {
      idBytes = new byte[Math.max(value.length, 2 * idBytes.length)];
    }
    System.arraycopy(value.bytes, value.offset, idBytes, 0, value.length);
    idLength = value.length;
    id = null;
  }

  void addPublicationType(String value) {
    if (publicationTypeCount == publicationTypes.length) {
      publicationTypes = Arrays.copyOf(publicationTypes, 2 * publicationTypeCount);
    }
    publicationTypes[publicationTypeCount++] = value;
  }

  void addLanguage(String value) {
    if (languageCount == languages.length) {
      languages = Arrays.copyOf(languages, 2 * languageCount);
    }
    languages[languageCount++] = value;
  }

  /**
   * Decodes a forward value (the {@code pubmatch_fwd} doc value) into this document's term
   * dictionary and token streams. The bytes are copied, so {@code value} may be reused afterwards.
   *
   * @param value the encoded streams
   * @throws IllegalArgumentException for another format byte, or a truncated or malformed value
   */
  public void decodeForward(BytesRef value) {
    int n = value.length;
    if (bytes.length < n) {
      bytes = new byte[Math.max(n, 2 * bytes.length)];
    }
    System.arraycopy(value.bytes, value.offset, bytes, 0, n);
    termCount = 0;
    Arrays.fill(tokenCounts, 0);
    if (n == 0) {
      throw new IllegalArgumentException("empty forward value");
    }
    if (bytes[0] != ShardFields.FORWARD_FORMAT) {
      throw new IllegalArgumentException(
          "forward value of format "
              + (bytes[0] & 0xff)
              + ", this version reads "
              + ShardFields.FORWARD_FORMAT
              + "; index the collection again with this pubmatch");
    }
    pos = 1;
    int terms = readVInt(n);
    if (terms > n) {
      throw malformed("term count " + terms);
    }
    if (termStart.length < terms) {
      int size = Math.max(terms, 2 * termStart.length);
      termStart = new int[size];
      termLength = new int[size];
      termStrings = new String[size];
    } else {
      Arrays.fill(termStrings, 0, terms, null);
    }
    for (int t = 0; t < terms; t++) {
      int length = readVInt(n);
      if (length > n - pos) {
        throw malformed("term " + t + " runs past the end");
      }
      termStart[t] = pos;
      termLength[t] = length;
      pos += length;
    }
    termCount = terms;
    for (int s = 0; s < STREAMS; s++) {
      int count = readVInt(n);
      if (count > n - pos) {
        throw malformed("token count " + count);
      }
      if (tokenTerms[s].length < count) {
        int size = Math.max(count, 2 * tokenTerms[s].length);
        tokenTerms[s] = new int[size];
        tokenFlags[s] = new byte[size];
      }
      int[] ts = tokenTerms[s];
      byte[] fs = tokenFlags[s];
      for (int i = 0; i < count; i++) {
        int token = readVInt(n);
        int ref = token >>> FLAG_BITS;
        if (ref > terms) {
          throw malformed("token refers to term " + (ref - 1) + " of " + terms);
        }
        ts[i] = ref - 1;
        fs[i] = (byte) (token & FLAG_MASK);
      }
      tokenCounts[s] = count;
    }
    if (pos != n) {
      throw malformed((n - pos) + " trailing bytes");
    }
  }

  private int readVInt(int end) {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= end) {
        throw malformed("truncated");
      }
      byte b = bytes[pos++];
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        if (value < 0) {
          throw malformed("varint out of range");
        }
        return value;
      }
    }
    throw malformed("varint longer than 5 bytes");
  }

  private static IllegalArgumentException malformed(String what) {
    return new IllegalArgumentException("malformed forward value: " + what);
  }

  private void checkTerm(int term) {
    if (term < 0 || term >= termCount) {
      throw new IndexOutOfBoundsException("term " + term + " of " + termCount);
    }
  }

  private void checkToken(int stream, int token) {
    if (token < 0 || token >= tokenCounts[stream]) {
      throw new IndexOutOfBoundsException("token " + token + " of " + tokenCounts[stream]);
    }
  }
}
