package org.pubmatch.solr.features;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The query-memory features M1–M3 that follow F179 in pubmatch's schema {@code
 * bestmatch-179/1+memory-3/1}: the Java port of {@code createQueryMemory} in {@code
 * packages/ltr/src/memory.ts}, same arithmetic in the same order.
 *
 * <p>The memory holds remembered queries with graded judgements. For a new query it finds the
 * {@code k} most similar remembered queries (cosine of TF-IDF vectors {@code (1 + ln tf) · ln(1 +
 * M / (1 + df))} over the memory's {@code M} queries, L2-normalised; ties in memory order) and
 * gives each candidate:
 *
 * <ul>
 *   <li>M1 {@code memory_evidence}: Σ over those queries of similarity × the grade they gave it;
 *   <li>M2 {@code memory_max_similarity}: the highest similarity of one that judged it relevant;
 *   <li>M3 {@code memory_votes}: how many of them judged it relevant (grade &gt; 0).
 * </ul>
 *
 * <p>Queries come analysed, as for {@link BestMatchQuery}: each query's terms are the terms of its
 * tokens in analyzer order, duplicates kept (they are the term frequencies), joined compound forms
 * left out (see {@link #terms(List)}); the TypeScript memory analyses with the index's title
 * analyzer. A training query must not see its own judgements: {@code exclude} leaves out a
 * remembered query and its variants ({@code <id>#<n>}). Immutable after construction.
 */
public final class QueryMemoryFeatures {

  /** The number of memory features (M1–M3). */
  public static final int COUNT = 3;

  /** The features' names, in column order (after F179). */
  public static final List<String> NAMES = List.of("memory_evidence", "memory_max_similarity", "memory_votes");

  /** The default number of similar remembered queries consulted. */
  public static final int DEFAULT_K = 20;

  /**
   * A judgement of a remembered query.
   *
   * @param doc the document id
   * @param grade its grade (only grades &gt; 0 count)
   */
  public record Judgement(String doc, double grade) {}

  /**
   * A remembered query.
   *
   * @param id its id ({@code <id>#<n>} for a variant of query {@code <id>})
   * @param terms its analysed terms, in order, duplicates kept
   * @param judgements its judgements, in the order they were recorded
   */
  public record RememberedQuery(String id, List<String> terms, List<Judgement> judgements) {}

  /**
   * A similar remembered query.
   *
   * @param id its id
   * @param similarity its cosine similarity to the query
   */
  public record Neighbour(String id, double similarity) {}

  private final int k;
  private final int m;
  private final String[] ids;
  private final Map<String, Integer> df = new HashMap<>();
  /** term → parallel (query index, normalised weight) lists, in memory order. */
  private final Map<String, int[]> postingQueries = new HashMap<>();
  private final Map<String, double[]> postingWeights = new HashMap<>();
  private final Map<String, RememberedQuery> byId = new HashMap<>();

  /**
   * Builds a memory.
   *
   * @param queries the remembered queries
   * @param k similar queries consulted ({@link #DEFAULT_K} in pubmatch)
   * @throws IllegalArgumentException for k &lt; 1 or a duplicate query id
   */
  public QueryMemoryFeatures(List<RememberedQuery> queries, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("query memory k must be a positive integer, got " + k);
    }
    this.k = k;
    this.m = queries.size();
    this.ids = new String[m];
    List<LinkedHashMap<String, Integer>> counts = new ArrayList<>(m);
    Set<String> seen = new HashSet<>();
    for (int q = 0; q < m; q++) {
      RememberedQuery query = queries.get(q);
      if (!seen.add(query.id())) {
        throw new IllegalArgumentException("query memory: query id " + query.id() + " appears twice");
      }
      ids[q] = query.id();
      byId.put(query.id(), query);
      counts.add(counts(query.terms()));
    }
    for (LinkedHashMap<String, Integer> c : counts) {
      for (String term : c.keySet()) {
        df.merge(term, 1, Integer::sum);
      }
    }
    Map<String, List<double[]>> lists = new HashMap<>();
    for (int q = 0; q < m; q++) {
      LinkedHashMap<String, Integer> c = counts.get(q);
      double norm = 0;
      for (Map.Entry<String, Integer> e : c.entrySet()) {
        double w = weight(e.getKey(), e.getValue());
        norm += w * w;
      }
      norm = Math.sqrt(norm);
      if (norm == 0) {
        continue;
      }
      for (Map.Entry<String, Integer> e : c.entrySet()) {
        lists.computeIfAbsent(e.getKey(), t -> new ArrayList<>()).add(new double[] {q, weight(e.getKey(), e.getValue()) / norm});
      }
    }
    for (Map.Entry<String, List<double[]>> e : lists.entrySet()) {
      List<double[]> list = e.getValue();
      int[] qs = new int[list.size()];
      double[] ws = new double[list.size()];
      for (int i = 0; i < qs.length; i++) {
        qs[i] = (int) list.get(i)[0];
        ws[i] = list.get(i)[1];
      }
      postingQueries.put(e.getKey(), qs);
      postingWeights.put(e.getKey(), ws);
    }
  }

  /**
   * The terms of analysed tokens as the memory counts them: every token that is not a joined
   * compound form, in order ({@code terms} of {@code memory.ts}; unlike {@link BestMatchQuery}, no
   * question stop words are dropped and duplicates stay).
   *
   * @param tokens analysed tokens
   * @return their terms
   */
  public static List<String> terms(List<QueryToken> tokens) {
    List<String> out = new ArrayList<>(tokens.size());
    for (QueryToken token : tokens) {
      if (!token.joined()) {
        out.add(token.term());
      }
    }
    return out;
  }

  /**
   * The number of remembered queries.
   *
   * @return M
   */
  public int size() {
    return m;
  }

  /**
   * The number of similar queries consulted.
   *
   * @return k
   */
  public int k() {
    return k;
  }

  private static LinkedHashMap<String, Integer> counts(List<String> terms) {
    LinkedHashMap<String, Integer> counts = new LinkedHashMap<>();
    for (String term : terms) {
      counts.merge(term, 1, Integer::sum);
    }
    return counts;
  }

  /** {@code (1 + ln tf) · ln(1 + M / (1 + df))}, with fdlibm's log as V8's {@code Math.log}. */
  private double weight(String term, int tf) {
    Integer d = df.get(term);
    return (1 + StrictMath.log(tf)) * StrictMath.log(1 + (double) m / (1 + (d == null ? 0 : d)));
  }

  /**
   * The {@code k} most similar remembered queries, best first (ties: memory order).
   *
   * @param terms the query's analysed terms ({@link #terms(List)})
   * @param exclude a remembered query id to leave out with its variants (and, for a variant id, its
   *     base query), or {@code null}
   * @return at most k neighbours
   */
  public List<Neighbour> similar(List<String> terms, String exclude) {
    String base = exclude == null ? null : baseId(exclude);
    LinkedHashMap<String, Integer> c = counts(terms);
    List<String> vectorTerms = new ArrayList<>();
    List<Double> vectorWeights = new ArrayList<>();
    double norm = 0;
    for (Map.Entry<String, Integer> e : c.entrySet()) {
      double w = weight(e.getKey(), e.getValue());
      if (postingQueries.containsKey(e.getKey())) {
        vectorTerms.add(e.getKey());
        vectorWeights.add(w);
      }
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm == 0 || vectorTerms.isEmpty()) {
      return List.of();
    }
    // Scores per query index in the order queries are first met, as a JS Map iterates.
    LinkedHashMap<Integer, Double> scores = new LinkedHashMap<>();
    for (int i = 0; i < vectorTerms.size(); i++) {
      double w = vectorWeights.get(i);
      int[] qs = postingQueries.get(vectorTerms.get(i));
      double[] xs = postingWeights.get(vectorTerms.get(i));
      for (int p = 0; p < qs.length; p++) {
        double previous = scores.getOrDefault(qs[p], 0.0);
        scores.put(qs[p], previous + (w / norm) * xs[p]);
      }
    }
    List<Map.Entry<Integer, Double>> ranked = new ArrayList<>();
    for (Map.Entry<Integer, Double> e : scores.entrySet()) {
      if (base == null || !baseId(ids[e.getKey()]).equals(base)) {
        ranked.add(e);
      }
    }
    ranked.sort(
        (a, b) -> {
          int bySimilarity = Double.compare(b.getValue(), a.getValue());
          return bySimilarity != 0 ? bySimilarity : Integer.compare(a.getKey(), b.getKey());
        });
    List<Neighbour> out = new ArrayList<>(Math.min(k, ranked.size()));
    for (int i = 0; i < ranked.size() && i < k; i++) {
      out.add(new Neighbour(ids[ranked.get(i).getKey()], ranked.get(i).getValue()));
    }
    return out;
  }

  /**
   * M1–M3 of each candidate, written into {@code out[offset + r · stride + 0 … 2]} for candidate
   * {@code r} (all three written, 0 without evidence).
   *
   * @param terms the query's analysed terms ({@link #terms(List)})
   * @param candidates candidate document ids, in row order
   * @param exclude a remembered query id to leave out, or {@code null}
   * @param out the destination
   * @param offset index of candidate 0's M1
   * @param stride distance between two candidates' rows ({@code 3} for a bare block, {@code 182}
   *     after the 179)
   */
  public void evidence(List<String> terms, List<String> candidates, String exclude, double[] out, int offset, int stride) {
    Map<String, Integer> row = new HashMap<>();
    for (int r = 0; r < candidates.size(); r++) {
      Arrays.fill(out, offset + r * stride, offset + r * stride + COUNT, 0);
      row.put(candidates.get(r), r);
    }
    for (Neighbour neighbour : similar(terms, exclude)) {
      double similarity = neighbour.similarity();
      for (Judgement judgement : byId.get(neighbour.id()).judgements()) {
        Integer r = row.get(judgement.doc());
        if (r == null || judgement.grade() <= 0) {
          continue;
        }
        int o = offset + r * stride;
        out[o] = out[o] + similarity * judgement.grade();
        out[o + 1] = Math.max(out[o + 1], similarity);
        out[o + 2] = out[o + 2] + 1;
      }
    }
  }

  /** The query a remembered id belongs to: variants ({@code PLAIN-10#2}) carry its judgements. */
  private static String baseId(String id) {
    int hash = id.indexOf('#');
    return hash < 0 ? id : id.substring(0, hash);
  }
}
