/**
 * Best Match's second stage inside SolrCloud: the rerank query {@code rq={!pubmatch model=NAME
 * reRankDocs=500 total=N}} ({@link org.pubmatch.solr.rerank.PubmatchRerankQParserPlugin}), which
 * on each shard computes the 179 features of its first-stage candidates from the shard's own data
 * ({@link org.pubmatch.solr.shard.ShardDocumentReader}) and the collection-wide statistics, scores
 * them with a deployed LightGBM model ({@link org.pubmatch.solr.models.ModelCache}) and returns
 * them in model order; and the {@code [pubmatch]} document transformer returning each hit's
 * feature vector ({@link org.pubmatch.solr.rerank.PubmatchFeaturesTransformerFactory}).
 */
package org.pubmatch.solr.rerank;
