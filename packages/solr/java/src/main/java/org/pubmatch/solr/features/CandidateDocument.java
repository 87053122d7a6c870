package org.pubmatch.solr.features;

/**
 * One first-stage candidate as the Best Match features read it: its token streams (title,
 * abstract, MeSH), its doc values and its first-stage score.
 *
 * <p><b>Token streams.</b> Each field is a sequence of tokens, position {@code i} being the
 * {@code i}-th word of the field, stop words included, joined compound forms ({@code cox2} beside
 * {@code cox}, {@code 2}) left out: exactly the streams of pubmatch's forward store
 * ({@code forward.ts}). A token has
 *
 * <ul>
 *   <li>a term: the index term (analysed, e.g. Porter2-stemmed) of the word, given as an ordinal
 *       into the document's own term table ({@link #termCount()}, {@link #term(int)}), or
 *       {@code -1} when the word has no index term (a stop word the index analyzer drops: it never
 *       matches a query term);
 *   <li>flag bits of its surface word: {@link SpanFeatures#TOKEN_STOPWORD} (a PubMed stop word),
 *       {@link SpanFeatures#TOKEN_INDEFINITE} ({@code a}/{@code an}), {@link
 *       SpanFeatures#TOKEN_DEFINITE} ({@code the}).
 * </ul>
 *
 * <p>The term table is per document and holds each distinct term once, so the extractor matches
 * the query against {@link #termCount()} strings and then walks the tokens by ordinal. In a Solr
 * shard the table and the streams come from one binary docValues field written at index time; a
 * reader of it can implement this interface as one reusable cursor (the extractor reads one
 * document completely before the next).
 *
 * <p><b>Doc values.</b> The year (F1), publication types (F4–F77) and languages (F80–F140) as the
 * index stores them; past usage (F2–F3) defaults to none (a shard reads it from the usage doc
 * values {@code pubmatch clicks usage-solr} writes).
 */
public interface CandidateDocument {

  /**
   * The number of distinct terms of the document's three streams.
   *
   * @return the size of the term table
   */
  int termCount();

  /**
   * A term of the document's table.
   *
   * @param ordinal 0 … {@link #termCount()} − 1
   * @return the index term
   */
  String term(int ordinal);

  /**
   * The query slot of a term of the document's table: {@link BestMatchQuery#slotOf(String)} of
   * {@link #term(int)}. An implementation that holds its terms as UTF-8 bytes can answer with
   * {@link BestMatchQuery#slotOf(byte[], int, int)} instead and create no strings.
   *
   * @param query the prepared query
   * @param ordinal 0 … {@link #termCount()} − 1
   * @return the term's slot in the query, or −1 when it is not a query term
   */
  default int querySlot(BestMatchQuery query, int ordinal) {
    return query.slotOf(term(ordinal));
  }

  /**
   * The number of tokens of a field (0 for an absent field).
   *
   * @param field the field
   * @return tokens, stop words included
   */
  int tokenCount(FeatureField field);

  /**
   * The term of a token.
   *
   * @param field the field
   * @param position 0 … {@link #tokenCount(FeatureField)} − 1
   * @return its ordinal in the term table, or −1 when the token has no index term
   */
  int termOrdinal(FeatureField field, int position);

  /**
   * The flag bits of a token.
   *
   * @param field the field
   * @param position 0 … {@link #tokenCount(FeatureField)} − 1
   * @return {@code TOKEN_STOPWORD | TOKEN_INDEFINITE | TOKEN_DEFINITE} bits
   */
  int flags(FeatureField field, int position);

  /**
   * The publication year (the index's {@code year} numeric doc value).
   *
   * @return the year, or {@link Double#NaN} when the document has none (F1 is then {@link
   *     BestMatchSchema#NEUTRAL_YEAR})
   */
  double year();

  /**
   * The number of publication types (the {@code pubtype} sorted-set doc values).
   *
   * @return how many
   */
  int publicationTypeCount();

  /**
   * A publication type as indexed, e.g. {@code Journal Article} (matched case-insensitively
   * against {@link BestMatchSchema#PUBLICATION_TYPES}; others are ignored).
   *
   * @param index 0 … {@link #publicationTypeCount()} − 1
   * @return the value
   */
  String publicationType(int index);

  /**
   * The number of languages (the {@code language} sorted-set doc values).
   *
   * @return how many
   */
  int languageCount();

  /**
   * A language code as indexed, e.g. {@code eng} (matched like publication types against {@link
   * BestMatchSchema#LANGUAGES}).
   *
   * @param index 0 … {@link #languageCount()} − 1
   * @return the value
   */
  String language(int index);

  /**
   * The document's first-stage score (F143), as the first stage ranked it.
   *
   * @return the score
   */
  double firstStageScore();

  /**
   * Past usage: abstract views of the document in the search log (F2).
   *
   * @return the count; defaults to 0 (no usage data)
   */
  default double abstractClicks() {
    return 0;
  }

  /**
   * Past usage: full-text requests of the document in the search log (F3).
   *
   * @return the count; defaults to 0 (no usage data)
   */
  default double fullTextRequests() {
    return 0;
  }
}
