package org.pubmatch.solr.rerank;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.pubmatch.solr.features.BestMatchQuery;
import org.pubmatch.solr.features.BestMatchSchema;
import org.pubmatch.solr.features.QueryToken;
import org.pubmatch.solr.models.DeployedModel;

/**
 * One rerank request as the parser read it: the model, the query (its text, pubmatch's analysed
 * tokens and the question stop words left out of its terms), the collection-wide first-stage total
 * (F176) and whether the query falls back to first-stage order. Immutable; shared by the query,
 * its rescorer and the threads of a request.
 *
 * @param model the deployed model
 * @param text the query as typed (F177–F179)
 * @param tokens its tokens from pubmatch's analyzer, in order
 * @param stopwords surface words left out of the query terms
 * @param total the first stage's total over the whole collection (F176)
 * @param fallback why the query keeps first-stage order, or {@code null} when it is reranked
 */
public record RerankRequest(
    DeployedModel model, String text, List<QueryToken> tokens, List<String> stopwords, long total, Fallback fallback) {

  /**
   * Why a query keeps its first-stage order: a query-level feature outside the model's accepted
   * range ({@code acceptedRange} of {@code @pubmatch/ltr}: the training range widened by {@code
   * margin} widths of at least 1 on each side).
   *
   * @param feature the feature id ({@code F176} …)
   * @param value the query's value
   * @param low the smallest value accepted
   * @param high the largest value accepted
   */
  public record Fallback(String feature, double value, double low, double high) {}

  /**
   * The first query-level feature outside the model's accepted range ({@code queryRanges} of its
   * manifest), in the manifest's order, or {@code null}.
   *
   * @param model the model
   * @param text the query text
   * @param total F176
   * @param margin widths of the training range added on each side
   * @return the fallback, or {@code null}
   */
  public static Fallback outOfRange(DeployedModel model, String text, long total, double margin) {
    JsonNode ranges = model.manifest().path("queryRanges");
    if (!ranges.isObject()) {
      return null;
    }
    int[] counts = BestMatchQuery.queryTextFeatures(text);
    List<String> ids = model.featureIds();
    for (Iterator<Map.Entry<String, JsonNode>> it = ranges.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> range = it.next();
      int column = ids.indexOf(range.getKey());
      double value;
      if (column == BestMatchSchema.RESULT_COUNT) {
        value = total;
      } else if (column == BestMatchSchema.QUERY_NON_ALPHANUMERIC) {
        value = counts[0];
      } else if (column == BestMatchSchema.QUERY_TOKENS) {
        value = counts[1];
      } else if (column == BestMatchSchema.QUERY_UNIQUE_TOKENS) {
        value = counts[2];
      } else {
        continue;
      }
      double lo = range.getValue().path(0).asDouble();
      double hi = range.getValue().path(1).asDouble();
      double widen = margin * Math.max(hi - lo, 1);
      if (value < lo - widen || value > hi + widen) {
        return new Fallback(range.getKey(), value, lo - widen, hi + widen);
      }
    }
    return null;
  }

  /** Equality for Solr's caches: the model's upload, the query's inputs, the total, the fallback. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RerankRequest)) {
      return false;
    }
    RerankRequest r = (RerankRequest) o;
    return model.collection().equals(r.model.collection())
        && model.name().equals(r.model.name())
        && model.uploadId().equals(r.model.uploadId())
        && text.equals(r.text)
        && tokens.equals(r.tokens)
        && stopwords.equals(r.stopwords)
        && total == r.total
        && Objects.equals(fallback, r.fallback);
  }

  @Override
  public int hashCode() {
    return Objects.hash(model.collection(), model.name(), model.uploadId(), text, tokens, stopwords, total, fallback);
  }
}
