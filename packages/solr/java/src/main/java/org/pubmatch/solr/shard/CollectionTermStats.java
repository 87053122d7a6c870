package org.pubmatch.solr.shard;

import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.util.BytesRef;

/**
 * The collection-wide statistics the features read (the number of articles, per-field document
 * frequencies of title, abstract and MeSH, and docFreqAny: documents holding a term in the title
 * or the abstract), through {@link IndexSearcher#collectionStatistics} and {@link
 * IndexSearcher#termStatistics}.
 *
 * <p>On a shard's {@code SolrIndexSearcher} those consult the request's statistics source: with
 * the collection's {@code ExactStatsCache} they are the sums over all shards for every (field,
 * term) the request's main query asked statistics for while Solr collected them, and the shard's
 * local values for anything else. A Lucene {@code IndexSearcher} over a {@code MultiReader} of all
 * the shards' indexes gives the same sums. Deleted documents count until they are merged away, as
 * in every Lucene statistic. Thread-safe if the searcher is.
 */
public final class CollectionTermStats {
  private final IndexSearcher searcher;

  /**
   * Statistics through a searcher.
   *
   * @param searcher a shard's searcher (or any searcher over a pubmatch collection)
   */
  public CollectionTermStats(IndexSearcher searcher) {
    this.searcher = searcher;
  }

  /**
   * The number of article documents: the docFreq of the term {@code 1} of {@link
   * ShardFields#ARTICLE}, which every article holds (not the state document). A term statistic
   * rather than the field's {@code docCount}: on a shard, {@code ExactStatsCache} served the
   * shard's own collection statistics for a field asked with {@code solr.stats.fields} (seen on Solr
   * 9.10.1), while it serves the collection's term statistics for the terms of {@code
   * solr.stats.terms}.
   *
   * @throws IOException when the index cannot be read
   */
  public long docCount() throws IOException {
    return docFreq(ShardFields.ARTICLE, ARTICLE_TERM);
  }

  /** The one term of {@link ShardFields#ARTICLE}. */
  public static final BytesRef ARTICLE_TERM = new BytesRef("1");

  /**
   * The number of documents holding a term in a field; 0 when none does.
   *
   * @param field e.g. {@link ShardFields#TITLE}, {@link ShardFields#ABSTRACT}, {@link
   *     ShardFields#MESH} or {@link ShardFields#TITLE_ABSTRACT}
   * @param term the term's UTF-8 bytes (an analyzed term of the field)
   * @throws IOException when the index cannot be read
   */
  public long docFreq(String field, BytesRef term) throws IOException {
    Term t = new Term(field, term);
    TermStates local = TermStates.build(searcher, t, true);
    try {
      // a SolrIndexSearcher returns the statistics source's value, global with ExactStatsCache,
      // also when the local docFreq is 0
      TermStatistics stats = searcher.termStatistics(t, local.docFreq(), local.totalTermFreq());
      return stats == null ? 0 : stats.docFreq();
    } catch (IllegalArgumentException absent) {
      // Lucene's own IndexSearcher refuses docFreq 0 (no statistics anywhere)
      return 0;
    }
  }

  /**
   * See {@link #docFreq(String, BytesRef)}.
   *
   * @param field the field
   * @param term the term
   * @throws IOException when the index cannot be read
   */
  public long docFreq(String field, String term) throws IOException {
    return docFreq(field, new BytesRef(term));
  }

  /**
   * The number of documents holding a term in the title or the abstract: the docFreq of {@link
   * ShardFields#TITLE_ABSTRACT}.
   *
   * @param term the term's UTF-8 bytes
   * @throws IOException when the index cannot be read
   */
  public long docFreqAny(BytesRef term) throws IOException {
    return docFreq(ShardFields.TITLE_ABSTRACT, term);
  }
}
