package org.pubmatch.solr.rerank;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Rescorer;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.pubmatch.solr.features.BestMatchFeatures;
import org.pubmatch.solr.features.BestMatchQuery;
import org.pubmatch.solr.features.BestMatchSchema;
import org.pubmatch.solr.features.QueryMemoryFeatures;
import org.pubmatch.solr.ltr.LightGbmModel;
import org.pubmatch.solr.shard.CollectionTermStats;
import org.pubmatch.solr.shard.ShardDocument;
import org.pubmatch.solr.shard.ShardDocumentReader;

/**
 * Scores a shard's first-stage candidates with a Best Match model: reads each candidate's feature
 * data ({@link ShardDocumentReader}, in doc id order), computes its 179 features ({@link
 * BestMatchFeatures}; F143 is the candidate's first-stage score, F176 the request's collection-wide
 * total, the IDFs from collection-wide statistics) and, for a model with a query memory, M1–M3
 * ({@link QueryMemoryFeatures}, by the candidate's id), scores the row with the model's raw score
 * ({@link LightGbmModel#predictRaw}) and returns the candidates by model score, highest first (ties:
 * first-stage order). A query whose query-level features lie outside the model's range ({@link
 * RerankRequest#fallback()}) keeps its first-stage order and scores.
 *
 * <p>When the request asks for the {@code [pubmatch]} transformer, each candidate's row, model score
 * and first-stage score are kept in the request's context for it ({@link #rows}).
 */
public final class PubmatchRescorer extends Rescorer {

  /** Request context key: set by the transformer, asks the rescorer to keep the rows. */
  static final String WANT_ROWS = "pubmatch.rerank.wantRows";

  /** Request context key: the rows kept, {@code Map<Integer, ScoredRow>} by top-level doc id. */
  static final String ROWS = "pubmatch.rerank.rows";

  /** Request context key: the model that scored the rows kept ({@link LightGbmModel}). */
  static final String MODEL = "pubmatch.rerank.model";

  /** Request context key: the statistics the IDFs used ({@link QueryStatistics}). */
  static final String STATS = "pubmatch.rerank.stats";

  /**
   * The statistics behind the IDFs (F171–F175) on this shard: the collection's when {@code
   * ExactStatsCache} gathered them.
   *
   * @param docCount the number of articles
   * @param terms the query terms
   * @param title each term's title docFreq
   * @param abstractDocFreq each term's abstract docFreq
   * @param any each term's title-or-abstract docFreq
   */
  public record QueryStatistics(long docCount, List<String> terms, long[] title, long[] abstractDocFreq, long[] any) {}

  /**
   * One candidate as the rescorer saw it.
   *
   * @param features the feature values (179, or 182 with a query memory)
   * @param score the model's raw score ({@code NaN} when the query fell back)
   * @param firstStageScore the first-stage score (F143)
   */
  public record ScoredRow(double[] features, double score, double firstStageScore) {}

  private final RerankRequest request;

  /**
   * A rescorer for one request.
   *
   * @param request the request
   */
  public PubmatchRescorer(RerankRequest request) {
    this.request = request;
  }

  @Override
  public TopDocs rescore(IndexSearcher searcher, TopDocs firstPass, int topN) throws IOException {
    ScoreDoc[] hits = firstPass.scoreDocs;
    int n = hits.length;
    Map<Integer, ScoredRow> kept = rowsWanted();
    if (request.fallback() != null && kept == null) {
      return new TopDocs(firstPass.totalHits, Arrays.copyOf(hits, Math.min(topN, n)));
    }
    double[] rows = features(searcher, hits);
    int width = request.model().featureIds().size();
    double[] scores = new double[n];
    if (request.fallback() == null) {
      LightGbmModel model = request.model().model();
      double[] row = new double[width];
      for (int i = 0; i < n; i++) {
        System.arraycopy(rows, i * width, row, 0, width);
        scores[i] = model.predictRaw(row);
      }
    } else {
      Arrays.fill(scores, Double.NaN);
    }
    if (kept != null) {
      SolrRequestInfo.getRequestInfo().getReq().getContext().put(MODEL, request.model().model());
      for (int i = 0; i < n; i++) {
        kept.put(
            hits[i].doc,
            new ScoredRow(Arrays.copyOfRange(rows, i * width, (i + 1) * width), scores[i], firstStageScore(hits[i].score)));
      }
    }
    if (request.fallback() != null) {
      return new TopDocs(firstPass.totalHits, Arrays.copyOf(hits, Math.min(topN, n)));
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // the first pass is in first-stage order: ties keep it, as the embedded reranker's
    Arrays.sort(order, (a, b) -> scores[b] != scores[a] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
    ScoreDoc[] out = new ScoreDoc[Math.min(topN, n)];
    for (int r = 0; r < out.length; r++) {
      ScoreDoc hit = hits[order[r]];
      out[r] = new ScoreDoc(hit.doc, (float) scores[order[r]], hit.shardIndex);
    }
    return new TopDocs(firstPass.totalHits, out);
  }

  /**
   * The model's features of each hit, row after row in the hits' order: the 179, then, for a model
   * with a query memory, M1–M3 from its memory, the query's terms and the candidates' ids.
   *
   * @param searcher the shard's searcher (documents and statistics)
   * @param hits the candidates with their first-stage scores
   * @return {@code hits.length × width} values (width 179, or 182 with a memory)
   * @throws IOException when the index cannot be read
   */
  double[] features(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    int n = hits.length;
    int width = request.model().featureIds().size();
    double[] rows = new double[n * width];
    if (n == 0) {
      return rows;
    }
    ShardFeatureStatistics stats = new ShardFeatureStatistics(new CollectionTermStats(searcher));
    BestMatchQuery query = BestMatchQuery.prepare(request.text(), request.tokens(), request.stopwords(), stats);
    keepStatistics(query, stats);
    Integer[] byDoc = new Integer[n];
    for (int i = 0; i < n; i++) {
      byDoc[i] = i;
    }
    Arrays.sort(byDoc, (a, b) -> Integer.compare(hits[a].doc, hits[b].doc));
    ShardDocumentReader reader = new ShardDocumentReader(searcher.getIndexReader());
    ShardDocument doc = new ShardDocument();
    ShardCandidate candidate = new ShardCandidate(doc);
    BestMatchFeatures extractor = new BestMatchFeatures();
    QueryMemoryFeatures memory = request.model().usesMemory() ? request.model().queryMemory() : null;
    String[] ids = new String[n];
    for (int i : byDoc) {
      reader.read(hits[i].doc, doc);
      candidate.setFirstStageScore(firstStageScore(hits[i].score));
      extractor.extract(query, candidate, request.total(), rows, i * width);
      ids[i] = doc.id();
    }
    if (memory != null) {
      // serving: no remembered query is left out (exclude is for training queries only)
      memory.evidence(QueryMemoryFeatures.terms(request.tokens()), Arrays.asList(ids), null, rows, BestMatchSchema.FEATURE_COUNT, width);
    }
    return rows;
  }

  /**
   * F143 of a first-stage score: Lucene scores are 32-bit floats, which Solr's responses write as
   * the shortest decimal that reads back as the same float ({@link Float#toString}); F143 is the
   * double of that decimal, the value a client (and the embedded extractor given Solr's first
   * stage) reads, rather than the float's exact binary value.
   *
   * @param score the first-stage score
   * @return F143
   */
  static double firstStageScore(float score) {
    return Double.parseDouble(Float.toString(score));
  }

  @Override
  public Explanation explain(IndexSearcher searcher, Explanation firstPass, int docId) throws IOException {
    ScoreDoc hit = new ScoreDoc(docId, firstPass.getValue().floatValue());
    double[] row = features(searcher, new ScoreDoc[] {hit});
    List<Explanation> details = new ArrayList<>();
    details.add(firstPass);
    List<String> names = new ArrayList<>(BestMatchSchema.names());
    names.addAll(QueryMemoryFeatures.NAMES);
    List<String> ids = request.model().featureIds();
    for (int c = 0; c < row.length; c++) {
      details.add(Explanation.match(row[c], ids.get(c) + " " + names.get(c)));
    }
    if (request.fallback() != null) {
      RerankRequest.Fallback f = request.fallback();
      return Explanation.match(
          firstPass.getValue(),
          "first-stage order: " + f.feature() + " = " + f.value() + " outside the model's range [" + f.low() + ", " + f.high() + "]",
          details);
    }
    LightGbmModel.Explanation trees = request.model().model().explain(row);
    for (LightGbmModel.TreeContribution tree : trees.trees()) {
      details.add(Explanation.match(tree.value(), "tree " + tree.tree() + ", leaf " + tree.leaf() + ", path " + tree.path()));
    }
    return Explanation.match(
        request.model().model().predictRaw(row), "pubmatch model " + request.model().name() + " (raw score), from:", details);
  }

  private static void keepStatistics(BestMatchQuery query, ShardFeatureStatistics stats) {
    SolrRequestInfo info = SolrRequestInfo.getRequestInfo();
    if (info == null || info.getReq() == null || !Boolean.TRUE.equals(info.getReq().getContext().get(WANT_ROWS))) {
      return;
    }
    int n = query.termCount();
    List<String> terms = new ArrayList<>(n);
    long[] title = new long[n];
    long[] abs = new long[n];
    long[] any = new long[n];
    for (int q = 0; q < n; q++) {
      String term = query.term(q);
      terms.add(term);
      title[q] = stats.docFreq(org.pubmatch.solr.features.FeatureField.TITLE, term);
      abs[q] = stats.docFreq(org.pubmatch.solr.features.FeatureField.ABSTRACT, term);
      any[q] = stats.docFreqAny(term);
    }
    info.getReq().getContext().put(STATS, new QueryStatistics(stats.docCount(), terms, title, abs, any));
  }

  @SuppressWarnings("unchecked")
  private static Map<Integer, ScoredRow> rowsWanted() {
    SolrRequestInfo info = SolrRequestInfo.getRequestInfo();
    if (info == null) {
      return null;
    }
    SolrQueryRequest req = info.getReq();
    if (req == null || !Boolean.TRUE.equals(req.getContext().get(WANT_ROWS))) {
      return null;
    }
    return (Map<Integer, ScoredRow>) req.getContext().computeIfAbsent(ROWS, k -> new HashMap<Integer, ScoredRow>());
  }
}
