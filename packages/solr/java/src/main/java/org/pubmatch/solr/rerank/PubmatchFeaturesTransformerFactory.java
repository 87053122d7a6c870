package org.pubmatch.solr.rerank;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.transform.DocTransformer;
import org.apache.solr.response.transform.TransformerFactory;
import org.pubmatch.solr.ltr.LightGbmModel;

/**
 * The {@code [pubmatch]} document transformer: each hit of a {@code rq={!pubmatch …}} request with
 * what the rescorer computed for it: {@code score} (the model's raw score as a double; {@code null}
 * when the query fell back to first-stage order), {@code firstStageScore} (F143) and {@code
 * features} (the 179 values in {@code BestMatchSchema}'s order, then M1–M3 for a model with a query memory). Register with {@code <transformer
 * name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchFeaturesTransformerFactory"/>}; ask with
 * {@code fl=id,score,[pubmatch]}. Parameters: {@code features=false} leaves the 179 values out
 * (the double model score alone); {@code explain=true} adds {@code bias} and {@code contributions}
 * (one per feature column: the model's raw score attributed to the features along the row's paths,
 * Saabas' method, {@link LightGbmModel#explainContributions(double[])}, as {@code explainScore} of
 * {@code @pubmatch/ltr}), computed also when the query fell back to first-stage order.
 *
 * <p>The values are those of the same shard request, so a distributed request needs {@code
 * distrib.singlePass=true} (the shards then return the documents' fields with the ids); a hit
 * the rescorer did not see (a second, field-fetching phase) is refused with 400.
 */
public class PubmatchFeaturesTransformerFactory extends TransformerFactory {

  @Override
  public DocTransformer create(String field, SolrParams params, SolrQueryRequest req) {
    req.getContext().put(PubmatchRescorer.WANT_ROWS, Boolean.TRUE);
    boolean withFeatures = params == null || params.getBool("features", true);
    boolean explain = params != null && params.getBool("explain", false);
    return new DocTransformer() {
      @Override
      public String getName() {
        return field;
      }

      @Override
      @SuppressWarnings("unchecked")
      public void transform(SolrDocument doc, int docid) {
        Map<Integer, PubmatchRescorer.ScoredRow> rows =
            (Map<Integer, PubmatchRescorer.ScoredRow>) req.getContext().get(PubmatchRescorer.ROWS);
        PubmatchRescorer.ScoredRow row = rows == null ? null : rows.get(docid);
        if (row == null) {
          throw new SolrException(
              ErrorCode.BAD_REQUEST,
              "[" + field + "] shows what rq={!pubmatch ...} computed in the same request: use it with that rank query, and"
                  + " with distrib.singlePass=true in a distributed request");
        }
        NamedList<Object> value = new SimpleOrderedMap<>();
        value.add("score", Double.isNaN(row.score()) ? null : row.score());
        value.add("firstStageScore", row.firstStageScore());
        if (withFeatures) {
          value.add("features", doubles(row.features()));
        }
        if (explain) {
          LightGbmModel model = (LightGbmModel) req.getContext().get(PubmatchRescorer.MODEL);
          LightGbmModel.Contributions c = model.explainContributions(row.features());
          value.add("bias", c.bias());
          value.add("contributions", doubles(c.contributions()));
        }
        PubmatchRescorer.QueryStatistics stats = (PubmatchRescorer.QueryStatistics) req.getContext().get(PubmatchRescorer.STATS);
        if (stats != null) {
          NamedList<Object> s = new SimpleOrderedMap<>();
          s.add("docCount", stats.docCount());
          List<Object> terms = new ArrayList<>();
          for (int q = 0; q < stats.terms().size(); q++) {
            NamedList<Object> t = new SimpleOrderedMap<>();
            t.add("term", stats.terms().get(q));
            t.add("title", stats.title()[q]);
            t.add("abstract", stats.abstractDocFreq()[q]);
            t.add("any", stats.any()[q]);
            terms.add(t);
          }
          s.add("terms", terms);
          value.add("statistics", s);
        }
        doc.setField(field, value);
      }
    };
  }

  private static List<Double> doubles(double[] values) {
    List<Double> out = new ArrayList<>(values.length);
    for (double v : values) {
      out.add(v);
    }
    return out;
  }
}
