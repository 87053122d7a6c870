package org.pubmatch.solr.features;

/**
 * One token of the analysed query, as the query analyzer (the index's text analyzer) produced it.
 *
 * @param term the analysed term (e.g. Porter2-stemmed), as the index stores it
 * @param original the surface word it came from (any case), or {@code null} when the analyzer did
 *     not record one (the term is then its own surface form); only the question stop words are
 *     matched against it
 * @param joined whether the token is a joined compound form spanning several positions ({@code cox2}
 *     beside {@code cox}, {@code 2}; a position length over 1, {@code isJoinedToken} in
 *     {@code @pubmatch/analysis}); such tokens are not query terms
 */
public record QueryToken(String term, String original, boolean joined) {

  /**
   * A plain token: one position, its own surface form.
   *
   * @param term the analysed term
   * @return the token
   */
  public static QueryToken of(String term) {
    return new QueryToken(term, null, false);
  }
}
