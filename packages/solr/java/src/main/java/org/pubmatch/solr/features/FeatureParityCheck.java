package org.pubmatch.solr.features;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks {@link BestMatchFeatures} against feature rows of the TypeScript extractor: a main class
 * that reads a parity case (JSON, written by {@code packages/solr/test/features-java.test.ts}),
 * computes every row in Java from exactly the inputs the case gives, and prints a JSON report of
 * the differences per column to stdout.
 *
 * <pre>
 * java -cp target/pubmatch-solr-0.1.0.jar:$(cat target/classpath.txt) \
 *   org.pubmatch.solr.features.FeatureParityCheck CASE.json
 * </pre>
 *
 * <p>Input ({@code CASE.json}):
 *
 * <pre>
 * { "stats": { "docCount": N, "hasTitle": true, "hasAbstract": true,
 *              "terms": { "term": [titleDf, abstractDf, titleOrAbstractDf], … } },
 *   "documents": { "id": { "year": 2004 | null, "pubtypes": […], "languages": […],
 *                          "title": { "terms": ["term" | null, …], "flags": [0, 1, …] },
 *                          "abstract": {…}, "mesh": {…} }, … },
 *   "queries": [ { "id": "q1", "text": "as typed", "queryStopwords": ["what", …],
 *                  "tokens": [ { "term": "…", "original": "…" | null, "joined": false }, … ],
 *                  "total": 1234, "hits": [ { "id": "…", "score": 12.3 }, … ],
 *                  "features": [ [179 numbers], … one row per hit ],
 *                  "exclude": "remembered id" | null, "memory": [ [M1, M2, M3], … ] }, … ],
 *   "memory": { "k": 20, "queries": [ { "id": "…", "tokens": [ { "term": "…", "joined": false }, … ],
 *                                       "judgements": [ ["doc id", 2], … ] }, … ] } }
 * </pre>
 *
 * <p>{@code "memory"} is optional: with it, each query's {@code "memory"} rows are compared with
 * {@link QueryMemoryFeatures} as three more columns M1–M3 (M3 a count).
 *
 * <p>Report: {@code rows}, {@code queries}, Java's {@code names} and {@code neutral} values per
 * column, and per column {@code count} (an integer-valued column), {@code identical} (rows whose
 * two doubles are equal), {@code maxAbs}, {@code maxRel} (|a − b| / max(|a|, |b|)) and the worst
 * row; {@code failures} counts columns out of tolerance: a count column must be equal, a real one
 * within 1e-9 relative. (The shard's own path, documents decoded from {@code pubmatch_fwd} by
 * {@code shard.ShardDocumentReader}, is checked against the embedded extractor by the engine's
 * Solr rerank test.) Exit status 0 without failures, 1 otherwise, 2 for bad input.
 */
public final class FeatureParityCheck {

  /** The largest relative difference accepted in a real-valued column. */
  public static final double RELATIVE_TOLERANCE = 1e-9;

  private FeatureParityCheck() {}

  /**
   * Runs the check.
   *
   * @param args one argument: the case file
   * @throws IOException when the file cannot be read or stdout written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: FeatureParityCheck CASE.json");
      System.exit(2);
    }
    ObjectMapper mapper = new ObjectMapper();
    int failures;
    Writer writer = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
    try (JsonGenerator out = mapper.getFactory().createGenerator(writer)) {
      failures = check(mapper.readTree(new File(args[0])), out);
    } catch (IOException | RuntimeException e) {
      System.err.println("FeatureParityCheck: " + args[0] + ": " + e);
      System.exit(2);
      return;
    }
    System.out.println();
    System.out.flush();
    System.exit(failures == 0 ? 0 : 1);
  }

  private static final class Column {
    int identical;
    double maxAbs;
    double maxRel;
    String worstQuery;
    String worstDoc;
    double worstExpected;
    double worstActual;
    boolean failed;
  }

  private static int check(JsonNode root, JsonGenerator out) throws IOException {
    FeatureStatistics stats = statistics(root.required("stats"));
    JsonNode documents = root.required("documents");
    QueryMemoryFeatures memory = root.has("memory") ? memory(root.get("memory")) : null;
    int width = BestMatchSchema.FEATURE_COUNT;
    List<String> names = new ArrayList<>(BestMatchSchema.names());
    if (memory != null) {
      names.addAll(QueryMemoryFeatures.NAMES);
    }
    Column[] columns = new Column[names.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = new Column();
    }
    double[] memoryRows = new double[0];
    BestMatchFeatures features = new BestMatchFeatures();
    double[] row = new double[width];
    int rows = 0;
    int queries = 0;
    for (JsonNode query : root.required("queries")) {
      queries++;
      String queryId = query.required("id").asText();
      List<QueryToken> tokens = new ArrayList<>();
      for (JsonNode token : query.required("tokens")) {
        JsonNode original = token.path("original");
        tokens.add(
            new QueryToken(
                token.required("term").asText(),
                original.isTextual() ? original.asText() : null,
                token.path("joined").asBoolean(false)));
      }
      List<String> stopwords = strings(query.path("queryStopwords"));
      BestMatchQuery prepared = BestMatchQuery.prepare(query.required("text").asText(), tokens, stopwords, stats);
      double total = query.required("total").asDouble();
      JsonNode hits = query.required("hits");
      JsonNode expectedRows = query.required("features");
      if (hits.size() != expectedRows.size()) {
        throw new IllegalArgumentException(queryId + ": " + hits.size() + " hits but " + expectedRows.size() + " rows");
      }
      if (memory != null) {
        List<String> ids = new ArrayList<>();
        for (JsonNode hit : hits) {
          ids.add(hit.required("id").asText());
        }
        JsonNode exclude = query.path("exclude");
        if (memoryRows.length < ids.size() * QueryMemoryFeatures.COUNT) {
          memoryRows = new double[ids.size() * QueryMemoryFeatures.COUNT];
        }
        memory.evidence(
            QueryMemoryFeatures.terms(tokens), ids, exclude.isTextual() ? exclude.asText() : null, memoryRows, 0,
            QueryMemoryFeatures.COUNT);
        JsonNode expectedMemory = query.required("memory");
        for (int r = 0; r < ids.size(); r++) {
          for (int j = 0; j < QueryMemoryFeatures.COUNT; j++) {
            int c = width + j;
            compare(columns[c], isCount(c), expectedMemory.get(r).get(j).asDouble(), memoryRows[r * QueryMemoryFeatures.COUNT + j], queryId, ids.get(r));
          }
        }
      }
      for (int r = 0; r < hits.size(); r++) {
        JsonNode hit = hits.get(r);
        String docId = hit.required("id").asText();
        JsonNode doc = documents.get(docId);
        if (doc == null) {
          throw new IllegalArgumentException(queryId + ": document " + docId + " is not in \"documents\"");
        }
        CandidateDocument candidate = document(doc, hit.required("score").asDouble());
        features.extract(prepared, candidate, total, row, 0);
        JsonNode expected = expectedRows.get(r);
        if (expected.size() != width) {
          throw new IllegalArgumentException(queryId + "/" + docId + ": a row of " + expected.size() + " values");
        }
        rows++;
        for (int c = 0; c < width; c++) {
          compare(columns[c], isCount(c), expected.get(c).asDouble(), row[c], queryId, docId);
        }
      }
    }
    int failures = 0;
    out.writeStartObject();
    out.writeNumberField("rows", rows);
    out.writeNumberField("queries", queries);
    out.writeArrayFieldStart("names");
    for (String name : names) {
      out.writeString(name);
    }
    out.writeEndArray();
    out.writeArrayFieldStart("neutral");
    for (int c = 0; c < columns.length; c++) {
      out.writeNumber(c < width ? BestMatchSchema.neutral(c) : 0);
    }
    out.writeEndArray();
    out.writeArrayFieldStart("columns");
    for (int c = 0; c < columns.length; c++) {
      Column col = columns[c];
      if (col.failed) {
        failures++;
      }
      out.writeStartObject();
      out.writeNumberField("column", c);
      out.writeStringField("name", names.get(c));
      out.writeBooleanField("count", isCount(c));
      out.writeNumberField("identical", col.identical);
      out.writeNumberField("maxAbs", col.maxAbs);
      out.writeNumberField("maxRel", col.maxRel);
      out.writeBooleanField("failed", col.failed);
      if (col.worstDoc != null) {
        out.writeObjectFieldStart("worst");
        out.writeStringField("query", col.worstQuery);
        out.writeStringField("doc", col.worstDoc);
        out.writeNumberField("expected", col.worstExpected);
        out.writeNumberField("actual", col.worstActual);
        out.writeEndObject();
      }
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeNumberField("failures", failures);
    out.writeEndObject();
    return failures;
  }

  /** Whether a column of the report is integer-valued: the 179's counts, and M3. */
  private static boolean isCount(int c) {
    return c < BestMatchSchema.FEATURE_COUNT ? BestMatchSchema.isCount(c) : c == BestMatchSchema.FEATURE_COUNT + 2;
  }

  private static void compare(Column col, boolean count, double expected, double actual, String query, String doc) {
    if (Double.compare(expected, actual) == 0 || expected == actual) {
      col.identical++;
      return;
    }
    double abs = Math.abs(expected - actual);
    double scale = Math.max(Math.abs(expected), Math.abs(actual));
    double rel = Double.isNaN(abs) ? Double.POSITIVE_INFINITY : abs / scale;
    if (count || rel > RELATIVE_TOLERANCE) {
      col.failed = true;
    }
    if (!(abs <= col.maxAbs)) {
      col.maxAbs = abs;
      col.worstQuery = query;
      col.worstDoc = doc;
      col.worstExpected = expected;
      col.worstActual = actual;
    }
    if (!(rel <= col.maxRel)) {
      col.maxRel = rel;
    }
  }

  private static CandidateDocument document(JsonNode doc, double score) {
    JsonNode year = doc.path("year");
    return new ArrayCandidateDocument(
        terms(doc.required("title")),
        flags(doc.required("title")),
        terms(doc.required("abstract")),
        flags(doc.required("abstract")),
        terms(doc.required("mesh")),
        flags(doc.required("mesh")),
        year.isNumber() ? year.asDouble() : Double.NaN,
        strings(doc.path("pubtypes")),
        strings(doc.path("languages")),
        score);
  }

  private static String[] terms(JsonNode field) {
    JsonNode terms = field.required("terms");
    String[] out = new String[terms.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode term = terms.get(i);
      out[i] = term.isNull() ? null : term.asText();
    }
    return out;
  }

  private static byte[] flags(JsonNode field) {
    JsonNode flags = field.required("flags");
    byte[] out = new byte[flags.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) flags.get(i).asInt();
    }
    return out;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode value : array) {
      out.add(value.asText());
    }
    return out;
  }

  private static QueryMemoryFeatures memory(JsonNode node) {
    List<QueryMemoryFeatures.RememberedQuery> queries = new ArrayList<>();
    for (JsonNode query : node.required("queries")) {
      List<QueryToken> tokens = new ArrayList<>();
      for (JsonNode token : query.required("tokens")) {
        tokens.add(new QueryToken(token.required("term").asText(), null, token.path("joined").asBoolean(false)));
      }
      List<QueryMemoryFeatures.Judgement> judgements = new ArrayList<>();
      for (JsonNode judgement : query.required("judgements")) {
        judgements.add(new QueryMemoryFeatures.Judgement(judgement.get(0).asText(), judgement.get(1).asDouble()));
      }
      queries.add(
          new QueryMemoryFeatures.RememberedQuery(
              query.required("id").asText(), QueryMemoryFeatures.terms(tokens), judgements));
    }
    return new QueryMemoryFeatures(queries, node.path("k").asInt(QueryMemoryFeatures.DEFAULT_K));
  }

  private static FeatureStatistics statistics(JsonNode node) {
    long docCount = node.required("docCount").asLong();
    boolean hasTitle = node.path("hasTitle").asBoolean(true);
    boolean hasAbstract = node.path("hasAbstract").asBoolean(true);
    Map<String, long[]> terms = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.required("terms").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      JsonNode v = entry.getValue();
      terms.put(entry.getKey(), new long[] {v.get(0).asLong(), v.get(1).asLong(), v.get(2).asLong()});
    }
    return new FeatureStatistics() {
      @Override
      public long docCount() {
        return docCount;
      }

      @Override
      public long docFreq(FeatureField field, String term) {
        long[] df = terms.get(term);
        if (df == null) {
          return 0;
        }
        return field == FeatureField.TITLE ? df[0] : field == FeatureField.ABSTRACT ? df[1] : 0;
      }

      @Override
      public long docFreqAny(String term) {
        long[] df = terms.get(term);
        return df == null ? 0 : df[2];
      }

      @Override
      public boolean hasTitle() {
        return hasTitle;
      }

      @Override
      public boolean hasAbstract() {
        return hasAbstract;
      }
    };
  }
}
