package org.pubmatch.solr.rerank;

import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.solr.search.AbstractReRankQuery;

/**
 * The rank query of {@code rq={!pubmatch …}}: Solr's re-rank collector keeps the main query's top
 * {@code reRankDocs} of a shard and hands them to a {@link PubmatchRescorer}, which orders them by
 * the model. Never cached in the query result cache ({@code getCache() == false}): the {@code
 * [pubmatch]} transformer reads what the rescorer computed in the same request.
 */
public final class PubmatchRerankQuery extends AbstractReRankQuery {
  private static final Query DEFAULT_QUERY = new MatchAllDocsQuery();

  private final RerankRequest request;

  /**
   * A rank query.
   *
   * @param request the request
   * @param reRankDocs the candidates reranked per shard (the main query's top)
   */
  public PubmatchRerankQuery(RerankRequest request, int reRankDocs) {
    super(DEFAULT_QUERY, reRankDocs, new PubmatchRescorer(request));
    this.request = request;
    setCache(false);
  }

  /**
   * The request this query reranks for.
   *
   * @return the request
   */
  public RerankRequest request() {
    return request;
  }

  @Override
  protected Query rewrite(Query rewrittenMainQuery) throws IOException {
    return new PubmatchRerankQuery(request, reRankDocs).wrap(rewrittenMainQuery);
  }

  @Override
  public String toString(String field) {
    return "{!pubmatch model=" + request.model().name() + " reRankDocs=" + reRankDocs + " total=" + request.total()
        + " mainQuery='" + mainQuery.toString() + "'}";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other)
        && mainQuery.equals(((PubmatchRerankQuery) other).mainQuery)
        && reRankDocs == ((PubmatchRerankQuery) other).reRankDocs
        && request.equals(((PubmatchRerankQuery) other).request);
  }

  @Override
  public int hashCode() {
    return 31 * classHash() + Objects.hash(mainQuery, reRankDocs, request);
  }
}
