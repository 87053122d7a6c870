package org.pubmatch.solr.rerank;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.util.BytesRef;
import org.pubmatch.solr.features.FeatureField;
import org.pubmatch.solr.features.FeatureStatistics;
import org.pubmatch.solr.shard.CollectionTermStats;
import org.pubmatch.solr.shard.ShardFields;

/**
 * The features' collection-wide statistics on a shard, from the fields holding pubmatch's own
 * index terms ({@link ShardFields#TITLE_TERMS}, {@link ShardFields#ABSTRACT_TERMS}, {@link
 * ShardFields#TITLE_ABSTRACT}) and the article count ({@link ShardFields#ARTICLE}), read through the
 * searcher ({@link CollectionTermStats}): global with {@code ExactStatsCache} for the terms the
 * request gathered statistics for (the rerank query's parser asks for them).
 */
public final class ShardFeatureStatistics implements FeatureStatistics {
  private final CollectionTermStats stats;
  private final long docCount;

  /**
   * Statistics through a shard's searcher.
   *
   * @param stats the searcher's statistics
   * @throws IOException when the index cannot be read
   */
  public ShardFeatureStatistics(CollectionTermStats stats) throws IOException {
    this.stats = stats;
    this.docCount = stats.docCount();
  }

  @Override
  public long docCount() {
    return docCount;
  }

  @Override
  public long docFreq(FeatureField field, String term) {
    String name = field == FeatureField.TITLE ? ShardFields.TITLE_TERMS : ShardFields.ABSTRACT_TERMS;
    try {
      return stats.docFreq(name, new BytesRef(term));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public long docFreqAny(String term) {
    try {
      return stats.docFreqAny(new BytesRef(term));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
