package org.pubmatch.solr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.TokenFilterFactory;
import org.apache.lucene.analysis.CharFilterFactory;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;
import org.apache.solr.analysis.TokenizerChain;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.schema.FieldType;
import org.apache.solr.schema.IndexSchema;
import org.apache.solr.schema.SchemaField;
import org.apache.solr.search.QParser;
import org.apache.solr.search.QParserPlugin;
import org.apache.solr.search.SyntaxError;

/**
 * BM25F over weighted fields.
 *
 * <p>Usage: {@code {!bm25f qf="title^5 abstract mesh^5 keywords" mm=any}free text words} (the text
 * may also be given with {@code v=}). Register with {@code <queryParser name="bm25f"
 * class="org.pubmatch.solr.Bm25fQParserPlugin"/>}.
 *
 * <p>The text is analysed once with the (shared) query analyzer of the {@code qf} fields. Each
 * distinct term becomes one clause, SHOULD ({@code mm=any}, default) or MUST ({@code mm=all}); a
 * term repeated in the query counts once, as in pubmatch's embedded BM25F. The per-term scores are
 * summed.
 *
 * <p>{@code model=bm25f} (default): each clause is a {@link Bm25fQuery}, the Robertson–Zaragoza
 * BM25F of pubmatch's embedded engine: {@code tf~ = sum_f w_f * tf_f / (1 - b_f + b_f * len_f /
 * avgl_f)}, {@code score = idf * tf~ / (k1 + tf~)}, with k1 and b from the schema's {@code
 * BM25Similarity} (or the local params {@code k1}/{@code b}), optional per-field b with {@code
 * fb="title:0.5 abstract:0.8"}, weights &gt; 0, and statistics asked from the searcher for every
 * field (so Solr's {@code ExactStatsCache} gives shard-independent scores).
 *
 * <p>{@code model=combined}: each clause is Lucene's sandbox {@link CombinedFieldQuery} (one
 * synthetic field, scored by the schema similarity); weights must be &gt;= 1; {@code k1}, {@code b}
 * and {@code fb} are refused.
 *
 * <p>Validation (HTTP 400): unknown field, field not indexed or without norms, bad weight,
 * duplicate field, qf fields whose query analyzers differ, and (bm25f model) fields indexed
 * without term frequencies.
 */
public class Bm25fQParserPlugin extends QParserPlugin {

  /** Local parameter (falls back to the request parameter of the same name): weighted fields. */
  public static final String QF = "qf";

  /** Local parameter: {@code any} (default) or {@code all}. */
  public static final String MM = "mm";

  /** Local parameter: {@code bm25f} (default, {@link Bm25fQuery}) or {@code combined}. */
  public static final String MODEL = "model";

  /** Local parameter (bm25f model): k1, overriding the schema's BM25Similarity. */
  public static final String K1 = "k1";

  /** Local parameter (bm25f model): b for all fields, overriding the schema's BM25Similarity. */
  public static final String B = "b";

  /** Local parameter (bm25f model): per-field b, {@code "title:0.5 abstract:0.8"}. */
  public static final String FB = "fb";

  /** The two scoring models. */
  enum Model {
    BM25F,
    COMBINED
  }

  @Override
  public QParser createParser(
      String qstr, SolrParams localParams, SolrParams params, SolrQueryRequest req) {
    return new Bm25fQParser(qstr, localParams, params, req);
  }

  /** Field name with its BM25F weight. */
  static final class WeightedField {
    final String name;
    final float weight;

    WeightedField(String name, float weight) {
      this.name = name;
      this.weight = weight;
    }
  }

  static final class Bm25fQParser extends QParser {

    Bm25fQParser(String qstr, SolrParams localParams, SolrParams params, SolrQueryRequest req) {
      super(qstr, localParams, params, req);
    }

    @Override
    public Query parse() throws SyntaxError {
      String qf = localParams == null ? null : localParams.get(QF);
      if (qf == null && params != null) {
        qf = params.get(QF);
      }
      if (qf == null || qf.isBlank()) {
        throw badRequest("bm25f: the qf parameter (weighted fields) is required");
      }
      boolean requireAll = parseMm(localParam(MM));
      Model model = parseModel(localParam(MODEL));

      IndexSchema schema = req.getSchema();
      List<WeightedField> fields = parseQf(qf, schema, model);
      Analyzer analyzer = sharedQueryAnalyzer(fields, schema);

      String[] names = new String[fields.size()];
      float[] weights = new float[fields.size()];
      for (int i = 0; i < names.length; i++) {
        names[i] = fields.get(i).name;
        weights[i] = fields.get(i).weight;
      }
      float k1 = 0f;
      float[] bs = null;
      if (model == Model.BM25F) {
        float[] k1b = resolveK1B(schema.getSimilarity(), localParam(K1), localParam(B));
        k1 = k1b[0];
        bs = parseFb(localParam(FB), names, k1b[1]);
      } else {
        for (String p : new String[] {K1, B, FB}) {
          if (localParam(p) != null) {
            throw badRequest(
                "bm25f: local param '" + p + "' only applies to model=bm25f, not model=combined");
          }
        }
      }

      String text = qstr == null ? "" : qstr;
      Map<BytesRef, Integer> termCounts = analyze(analyzer, fields.get(0).name, text);
      if (termCounts.isEmpty()) {
        return new MatchNoDocsQuery("bm25f: no terms after analysis");
      }

      BooleanClause.Occur occur = requireAll ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
      BooleanQuery.Builder bq = new BooleanQuery.Builder();
      // each distinct term once, as pubmatch's embedded BM25F scores its distinct query terms
      for (BytesRef term : termCounts.keySet()) {
        Query clause;
        if (model == Model.BM25F) {
          clause = new Bm25fQuery(term, names, weights, k1, bs);
        } else {
          CombinedFieldQuery.Builder cfq = new CombinedFieldQuery.Builder();
          for (WeightedField f : fields) {
            cfq.addField(f.name, f.weight);
          }
          cfq.addTerm(term);
          clause = cfq.build();
        }
        bq.add(clause, occur);
      }
      return bq.build();
    }

    private String localParam(String name) {
      return localParams == null ? null : localParams.get(name);
    }

    private static Model parseModel(String model) {
      if (model == null || model.isBlank()) {
        return Model.BM25F;
      }
      switch (model.trim().toLowerCase(Locale.ROOT)) {
        case "bm25f":
          return Model.BM25F;
        case "combined":
          return Model.COMBINED;
        default:
          throw badRequest("bm25f: model must be 'bm25f' or 'combined', got '" + model + "'");
      }
    }

    /**
     * k1 and b: the local params when given, else the schema's global {@link BM25Similarity}.
     * Without a BM25Similarity both local params are required.
     */
    static float[] resolveK1B(Similarity similarity, String k1Param, String bParam) {
      Float k1 = k1Param == null ? null : parseFloatParam(K1, k1Param);
      Float b = bParam == null ? null : parseFloatParam(B, bParam);
      if (similarity instanceof BM25Similarity) {
        BM25Similarity bm25 = (BM25Similarity) similarity;
        if (k1 == null) {
          k1 = bm25.getK1();
        }
        if (b == null) {
          b = bm25.getB();
        }
      } else if (k1 == null || b == null) {
        throw badRequest(
            "bm25f: the schema similarity is "
                + (similarity == null ? "null" : similarity.getClass().getSimpleName())
                + ", not BM25Similarity; give k1 and b as local params (e.g. {!bm25f k1=1.2"
                + " b=0.75 ...}) or use <similarity class=\"solr.BM25SimilarityFactory\">");
      }
      if (!Float.isFinite(k1) || k1 < 0f) {
        throw badRequest("bm25f: k1 must be finite and >= 0, got " + k1);
      }
      checkB(b, "b");
      return new float[] {k1, b};
    }

    private static float parseFloatParam(String name, String value) {
      try {
        return Float.parseFloat(value.trim());
      } catch (NumberFormatException nfe) {
        throw badRequest("bm25f: bad number for " + name + ": '" + value + "'");
      }
    }

    private static void checkB(float b, String what) {
      if (!Float.isFinite(b) || b < 0f || b > 1f) {
        throw badRequest("bm25f: " + what + " must be in [0, 1], got " + b);
      }
    }

    /** Per-field b from {@code fb="field:b field:b"}; fields not listed get defaultB. */
    static float[] parseFb(String fb, String[] names, float defaultB) {
      float[] bs = new float[names.length];
      Arrays.fill(bs, defaultB);
      if (fb == null || fb.isBlank()) {
        return bs;
      }
      Set<String> seen = new HashSet<>();
      for (String token : fb.trim().split("[\\s,]+")) {
        if (token.isEmpty()) {
          continue;
        }
        int colon = token.lastIndexOf(':');
        if (colon <= 0 || colon == token.length() - 1) {
          throw badRequest("bm25f: fb entries must be field:b, got '" + token + "'");
        }
        String name = token.substring(0, colon);
        float b = parseFloatParam(FB + " of " + name, token.substring(colon + 1));
        checkB(b, "b of field '" + name + "'");
        int idx = Arrays.asList(names).indexOf(name);
        if (idx < 0) {
          throw badRequest("bm25f: fb names field '" + name + "', which is not in qf");
        }
        if (!seen.add(name)) {
          throw badRequest("bm25f: field '" + name + "' appears more than once in fb");
        }
        bs[idx] = b;
      }
      return bs;
    }

    private static boolean parseMm(String mm) {
      if (mm == null || mm.isBlank()) {
        return false;
      }
      switch (mm.trim().toLowerCase(Locale.ROOT)) {
        case "any":
          return false;
        case "all":
          return true;
        default:
          throw badRequest("bm25f: mm must be 'any' or 'all', got '" + mm + "'");
      }
    }

    static List<WeightedField> parseQf(String qf, IndexSchema schema, Model model) {
      List<WeightedField> out = new ArrayList<>();
      for (String token : qf.trim().split("[\\s,]+")) {
        if (token.isEmpty()) {
          continue;
        }
        String name = token;
        float weight = 1f;
        int caret = token.indexOf('^');
        if (caret >= 0) {
          name = token.substring(0, caret);
          String w = token.substring(caret + 1);
          try {
            weight = Float.parseFloat(w);
          } catch (NumberFormatException nfe) {
            throw badRequest("bm25f: bad weight '" + w + "' for field '" + name + "'");
          }
        }
        if (name.isEmpty()) {
          throw badRequest("bm25f: empty field name in qf '" + qf + "'");
        }
        if (model == Model.COMBINED && (!Float.isFinite(weight) || weight < 1f)) {
          throw badRequest(
              "bm25f: weight of field '"
                  + name
                  + "' is "
                  + weight
                  + "; with model=combined weights must be >= 1");
        }
        if (!Float.isFinite(weight) || weight <= 0f) {
          throw badRequest(
              "bm25f: weight of field '" + name + "' is " + weight + "; weights must be > 0");
        }
        SchemaField sf = schema.getFieldOrNull(name);
        if (sf == null) {
          throw badRequest("bm25f: unknown field '" + name + "'");
        }
        if (!sf.indexed()) {
          throw badRequest("bm25f: field '" + name + "' is not indexed");
        }
        if (sf.omitNorms()) {
          throw badRequest("bm25f: field '" + name + "' has no norms (omitNorms=true)");
        }
        if (model == Model.BM25F && sf.omitTermFreqAndPositions()) {
          throw badRequest(
              "bm25f: field '" + name + "' has no term frequencies (omitTermFreqAndPositions=true)");
        }
        for (WeightedField seen : out) {
          if (seen.name.equals(name)) {
            throw badRequest("bm25f: field '" + name + "' appears more than once in qf");
          }
        }
        out.add(new WeightedField(name, weight));
      }
      if (out.isEmpty()) {
        throw badRequest("bm25f: qf names no fields");
      }
      return out;
    }

    /** The query analyzer of the first field, after checking the others analyze the same way. */
    static Analyzer sharedQueryAnalyzer(List<WeightedField> fields, IndexSchema schema) {
      FieldType firstType = schema.getField(fields.get(0).name).getType();
      String firstSig = analyzerSignature(firstType);
      for (int i = 1; i < fields.size(); i++) {
        FieldType type = schema.getField(fields.get(i).name).getType();
        if (type == firstType || type.getTypeName().equals(firstType.getTypeName())) {
          continue;
        }
        if (!analyzerSignature(type).equals(firstSig)) {
          throw badRequest(
              "bm25f: fields '"
                  + fields.get(0).name
                  + "' (type "
                  + firstType.getTypeName()
                  + ") and '"
                  + fields.get(i).name
                  + "' (type "
                  + type.getTypeName()
                  + ") use different query analyzers");
        }
      }
      return firstType.getQueryAnalyzer();
    }

    /**
     * A description of a field type's query analysis: for Solr analyzer chains the char filter,
     * tokenizer and token filter factories with their arguments; otherwise the analyzer class.
     */
    private static String analyzerSignature(FieldType type) {
      Analyzer a = type.getQueryAnalyzer();
      if (!(a instanceof TokenizerChain)) {
        return a.getClass().getName();
      }
      TokenizerChain chain = (TokenizerChain) a;
      StringBuilder sb = new StringBuilder();
      for (CharFilterFactory cf : chain.getCharFilterFactories()) {
        sb.append(cf.getClass().getName()).append(cf.getOriginalArgs()).append('|');
      }
      sb.append(chain.getTokenizerFactory().getClass().getName())
          .append(chain.getTokenizerFactory().getOriginalArgs())
          .append('|');
      for (TokenFilterFactory tf : chain.getTokenFilterFactories()) {
        sb.append(tf.getClass().getName()).append(tf.getOriginalArgs()).append('|');
      }
      return sb.toString();
    }

    /** Distinct analysed terms in first-occurrence order, with their counts in the query. */
    static Map<BytesRef, Integer> analyze(Analyzer analyzer, String field, String text) {
      Map<BytesRef, Integer> counts = new LinkedHashMap<>();
      try (TokenStream ts = analyzer.tokenStream(field, text)) {
        TermToBytesRefAttribute termAtt = ts.addAttribute(TermToBytesRefAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
          BytesRef bytes = termAtt.getBytesRef();
          if (bytes.length == 0) {
            continue;
          }
          counts.merge(BytesRef.deepCopyOf(bytes), 1, Integer::sum);
        }
        ts.end();
      } catch (IOException e) {
        throw new SolrException(
            SolrException.ErrorCode.SERVER_ERROR, "bm25f: analysis of the query failed", e);
      }
      return counts;
    }

    private static SolrException badRequest(String msg) {
      return new SolrException(SolrException.ErrorCode.BAD_REQUEST, msg);
    }
  }
}
