package org.pubmatch.solr.features;

/**
 * Collection-wide statistics the IDF features (F171–F175) need. In a sharded collection these
 * must be the whole collection's numbers (as Solr's {@code ExactStatsCache} merges them), never
 * one shard's, or a document's features would depend on the shard that holds it.
 *
 * <p>The TypeScript extractor reads them from its {@code IndexReader}: {@code docCount}, {@code
 * docFreq('title' | 'abstract', term)} and {@code docFreqAny(term, ['title', 'abstract'])}.
 */
public interface FeatureStatistics {

  /**
   * The number of documents in the collection ({@code IndexReader.docCount}: live documents).
   *
   * @return N of the IDF
   */
  long docCount();

  /**
   * The number of documents holding a term in one field.
   *
   * @param field {@link FeatureField#TITLE} or {@link FeatureField#ABSTRACT}
   * @param term an index term
   * @return its document frequency in that field (0 when absent)
   */
  long docFreq(FeatureField field, String term);

  /**
   * The number of documents holding a term in the title or the abstract (or both): the union of
   * the two fields' postings, not the sum or the maximum of their document frequencies.
   *
   * @param term an index term
   * @return its title-or-abstract document frequency (0 when absent)
   */
  long docFreqAny(String term);

  /**
   * Whether the collection has a title field; without it the title IDF (F173) is 0 and the
   * title-or-abstract IDF comes from the abstract alone.
   *
   * @return defaults to true
   */
  default boolean hasTitle() {
    return true;
  }

  /**
   * Whether the collection has an abstract field (as {@link #hasTitle()} for F174).
   *
   * @return defaults to true
   */
  default boolean hasAbstract() {
    return true;
  }
}
