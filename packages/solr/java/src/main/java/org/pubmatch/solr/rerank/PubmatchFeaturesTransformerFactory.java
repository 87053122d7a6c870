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

/**
 * The {@code [pubmatch]} document transformer: each hit of a {@code rq={!pubmatch …}} request with
 * what the rescorer computed for it: {@code score} (the model's raw score as a double; {@code null}
 * when the query fell back to first-stage order), {@code firstStageScore} (F143) and {@code
 * features} (the 179 values in {@code BestMatchSchema}'s order, then M1–M3 for a model with a query memory). Register with {@code <transformer
 * name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchFeaturesTransformerFactory"/>}; ask with
 * {@code fl=id,score,[pubmatch]}.
 *
 * <p>The values are those of the same shard request, so a distributed request needs {@code
 * distrib.singlePass=true} (the shards then return the documents' fields with the ids); a hit
 * the rescorer did not see (a second, field-fetching phase) is refused with 400.
 */
public class PubmatchFeaturesTransformerFactory extends TransformerFactory {

  @Override
  public DocTransformer create(String field, SolrParams params, SolrQueryRequest req) {
    req.getContext().put(PubmatchRescorer.WANT_ROWS, Boolean.TRUE);
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
        List<Double> features = new ArrayList<>(row.features().length);
        for (double v : row.features()) {
          features.add(v);
        }
        value.add("features", features);
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
}
