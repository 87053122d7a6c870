package org.pubmatch.solr.features;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The query side of the Best Match features, prepared once per query: its distinct terms with
 * their three IDFs, and the raw-text counts F177–F179. Immutable; one instance may serve any
 * number of {@link BestMatchFeatures} (threads) at once.
 *
 * <p><b>Terms</b> follow {@code createQueryTerms} of {@code extract.ts}: the analysed tokens in
 * order, joined compound forms skipped, tokens whose surface word (lower-cased) is one of the
 * query stop words skipped, each term kept once (first occurrence). Analysis itself is not done
 * here: in Solr the query is analysed with the index's text analyzer (the field type's query
 * analyzer) and its tokens are passed in as {@link QueryToken}s, with the position length of each
 * token telling joined forms apart. The analyzer's own stop words are therefore whatever that
 * analyzer drops; the question stop words of pubmatch's plain-text queries ({@code
 * QUESTION_STOPWORDS} of {@code @pubmatch/bm25f}) are passed as {@code queryStopwords}.
 *
 * <p><b>IDFs</b>, per term: title-or-abstract ({@link FeatureStatistics#docFreqAny}), title and
 * abstract ({@link FeatureStatistics#docFreq}), each through the {@link IdfFunction}; a field the
 * collection lacks gives 0.
 */
public final class BestMatchQuery {

  private final String[] terms;
  private final Map<String, Integer> slots;
  /** The terms' UTF-8 bytes, and an open-addressing table of slot + 1 by their hash (0: empty). */
  private final byte[][] utf8;
  private final int[] byteSlots;
  private final double[] idfTiab;
  private final double[] idfTitle;
  private final double[] idfAbstract;
  private final int nonAlphanumeric;
  private final int words;
  private final int distinctWords;

  private BestMatchQuery(String text, String[] terms, double[] idfTiab, double[] idfTitle, double[] idfAbstract) {
    this.terms = terms;
    this.idfTiab = idfTiab;
    this.idfTitle = idfTitle;
    this.idfAbstract = idfAbstract;
    this.slots = new HashMap<>(terms.length * 2);
    for (int q = 0; q < terms.length; q++) {
      slots.put(terms[q], q);
    }
    this.utf8 = new byte[terms.length][];
    this.byteSlots = new int[Integer.highestOneBit(Math.max(1, terms.length) * 4)];
    int mask = byteSlots.length - 1;
    for (int q = 0; q < terms.length; q++) {
      utf8[q] = terms[q].getBytes(StandardCharsets.UTF_8);
      int h = hash(utf8[q], 0, utf8[q].length) & mask;
      while (byteSlots[h] != 0) {
        h = (h + 1) & mask;
      }
      byteSlots[h] = q + 1;
    }
    int[] counts = queryTextFeatures(text);
    this.nonAlphanumeric = counts[0];
    this.words = counts[1];
    this.distinctWords = counts[2];
  }

  /**
   * Prepares a query with the default IDF ({@link IdfFunction#LOG_IDF}).
   *
   * @param text the query as typed (F177–F179 count its characters and words)
   * @param tokens its analysed tokens, in analyzer order
   * @param queryStopwords surface words left out of the terms, matched case-insensitively (the
   *     first stage's question stop words for plain-text queries; empty for PubMed syntax)
   * @param stats collection-wide statistics
   * @return the prepared query
   */
  public static BestMatchQuery prepare(
      String text, List<QueryToken> tokens, Collection<String> queryStopwords, FeatureStatistics stats) {
    return prepare(text, tokens, queryStopwords, stats, IdfFunction.LOG_IDF);
  }

  /**
   * Prepares a query.
   *
   * @param text the query as typed
   * @param tokens its analysed tokens, in analyzer order
   * @param queryStopwords surface words left out of the terms, matched case-insensitively
   * @param stats collection-wide statistics
   * @param idf the IDF of F171–F175
   * @return the prepared query
   */
  public static BestMatchQuery prepare(
      String text,
      List<QueryToken> tokens,
      Collection<String> queryStopwords,
      FeatureStatistics stats,
      IdfFunction idf) {
    String[] terms = selectTerms(tokens, queryStopwords);
    int nq = terms.length;
    double[] tiab = new double[nq];
    double[] title = new double[nq];
    double[] abs = new double[nq];
    boolean hasTitle = stats.hasTitle();
    boolean hasAbstract = stats.hasAbstract();
    long docCount = stats.docCount();
    for (int q = 0; q < nq; q++) {
      String term = terms[q];
      tiab[q] = hasTitle || hasAbstract ? idf.idf(stats.docFreqAny(term), docCount) : 0;
      title[q] = hasTitle ? idf.idf(stats.docFreq(FeatureField.TITLE, term), docCount) : 0;
      abs[q] = hasAbstract ? idf.idf(stats.docFreq(FeatureField.ABSTRACT, term), docCount) : 0;
    }
    return new BestMatchQuery(text, terms, tiab, title, abs);
  }

  /**
   * The distinct query terms of analysed tokens ({@code createQueryTerms} of {@code extract.ts}):
   * joined compound forms and tokens whose lower-cased surface word ({@link QueryToken#original},
   * else the term) is in {@code queryStopwords} are skipped; each term is kept at its first
   * occurrence.
   *
   * @param tokens analysed tokens, in analyzer order
   * @param queryStopwords surface words to leave out (any case)
   * @return the terms, in order
   */
  public static String[] selectTerms(List<QueryToken> tokens, Collection<String> queryStopwords) {
    Set<String> dropped = new HashSet<>();
    for (String word : queryStopwords) {
      dropped.add(word.toLowerCase(Locale.ROOT));
    }
    List<String> out = new ArrayList<>();
    for (QueryToken token : tokens) {
      String surface = token.original() != null ? token.original() : token.term();
      boolean skip =
          token.joined() || (!dropped.isEmpty() && dropped.contains(surface.toLowerCase(Locale.ROOT)));
      if (!skip && !out.contains(token.term())) {
        out.add(token.term());
      }
    }
    return out.toArray(new String[0]);
  }

  /**
   * The query-level raw-text counts ({@code queryTextFeatures} of {@code extract.ts}): characters
   * that are neither letters ({@code \p{L}}), numbers ({@code \p{N}}) nor JavaScript white space
   * ({@code \s}), counted per code point; white-space separated words; distinct lower-cased words.
   * White space is JavaScript's ({@link #isJsWhitespace(int)}), not Java's {@code \s}.
   *
   * @param text the query as typed
   * @return {@code [non-alphanumeric, words, distinct words]}
   */
  public static int[] queryTextFeatures(String text) {
    int nonAlphanumeric = 0;
    List<String> words = new ArrayList<>();
    int wordStart = -1;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      boolean space = isJsWhitespace(cp);
      if (!space && !Character.isLetter(cp) && !isNumber(cp)) {
        nonAlphanumeric++;
      }
      if (space) {
        if (wordStart >= 0) {
          words.add(text.substring(wordStart, i));
          wordStart = -1;
        }
      } else if (wordStart < 0) {
        wordStart = i;
      }
      i += Character.charCount(cp);
    }
    if (wordStart >= 0) {
      words.add(text.substring(wordStart));
    }
    Set<String> distinct = new HashSet<>();
    for (String word : words) {
      distinct.add(word.toLowerCase(Locale.ROOT));
    }
    return new int[] {nonAlphanumeric, words.size(), distinct.size()};
  }

  /**
   * JavaScript's {@code \s}: WhiteSpace and LineTerminator of ECMA-262 (tab, vertical tab, form
   * feed, space, no-break space, zero-width no-break space U+FEFF, every {@code Zs} character, line
   * feed, carriage return, U+2028, U+2029).
   *
   * @param cp a code point
   * @return whether {@code /\s/u} matches it
   */
  static boolean isJsWhitespace(int cp) {
    switch (cp) {
      case 0x09:
      case 0x0a:
      case 0x0b:
      case 0x0c:
      case 0x0d:
      case 0x20:
      case 0xa0:
      case 0xfeff:
      case 0x2028:
      case 0x2029:
        return true;
      default:
        return Character.getType(cp) == Character.SPACE_SEPARATOR;
    }
  }

  private static boolean isNumber(int cp) {
    int type = Character.getType(cp);
    return type == Character.DECIMAL_DIGIT_NUMBER
        || type == Character.LETTER_NUMBER
        || type == Character.OTHER_NUMBER;
  }

  /**
   * The number of distinct query terms (the denominator of the coverages F144–F146).
   *
   * @return how many
   */
  public int termCount() {
    return terms.length;
  }

  /**
   * A query term.
   *
   * @param slot 0 … {@link #termCount()} − 1
   * @return the term
   */
  public String term(int slot) {
    return terms[slot];
  }

  /**
   * The slot of a term.
   *
   * @param term an index term
   * @return its slot, or −1 when it is not a query term
   */
  public int slotOf(String term) {
    Integer slot = slots.get(term);
    return slot == null ? -1 : slot;
  }

  /**
   * The slot of a term given as UTF-8 bytes, without creating a string (a hash table lookup).
   *
   * @param bytes a buffer
   * @param offset where the term starts
   * @param length its length in bytes
   * @return its slot, or −1 when it is not a query term
   */
  public int slotOf(byte[] bytes, int offset, int length) {
    int mask = byteSlots.length - 1;
    for (int h = hash(bytes, offset, length) & mask; byteSlots[h] != 0; h = (h + 1) & mask) {
      byte[] term = utf8[byteSlots[h] - 1];
      if (term.length == length && Arrays.equals(term, 0, length, bytes, offset, offset + length)) {
        return byteSlots[h] - 1;
      }
    }
    return -1;
  }

  private static int hash(byte[] bytes, int offset, int length) {
    int h = 0;
    for (int i = offset; i < offset + length; i++) {
      h = 31 * h + bytes[i];
    }
    return h ^ (h >>> 16);
  }

  /**
   * The title-or-abstract IDF of a query term.
   *
   * @param slot a slot
   * @return the IDF
   */
  public double idfTiab(int slot) {
    return idfTiab[slot];
  }

  /**
   * The title IDF of a query term.
   *
   * @param slot a slot
   * @return the IDF
   */
  public double idfTitle(int slot) {
    return idfTitle[slot];
  }

  /**
   * The abstract IDF of a query term.
   *
   * @param slot a slot
   * @return the IDF
   */
  public double idfAbstract(int slot) {
    return idfAbstract[slot];
  }

  /**
   * F177: non-alphanumeric characters of the query text, white space excluded.
   *
   * @return the count
   */
  public int nonAlphanumeric() {
    return nonAlphanumeric;
  }

  /**
   * F178: white-space separated words of the query text.
   *
   * @return the count
   */
  public int words() {
    return words;
  }

  /**
   * F179: distinct lower-cased words of the query text.
   *
   * @return the count
   */
  public int distinctWords() {
    return distinctWords;
  }

  double[] idfTiabArray() {
    return idfTiab;
  }

  double[] idfTitleArray() {
    return idfTitle;
  }

  double[] idfAbstractArray() {
    return idfAbstract;
  }
}
