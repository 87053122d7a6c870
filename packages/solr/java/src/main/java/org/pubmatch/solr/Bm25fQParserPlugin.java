package org.pubmatch.solr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * BM25F over weighted fields, built on Lucene's sandbox {@link CombinedFieldQuery}.
 *
 * <p>Usage: {@code {!bm25f qf="title^5 abstract mesh^5 keywords" mm=any}free text words} (the text
 * may also be given with {@code v=}). Register with {@code <queryParser name="bm25f"
 * class="org.pubmatch.solr.Bm25fQParserPlugin"/>}.
 *
 * <p>What it computes: the text is analysed once with the (shared) query analyzer of the {@code
 * qf} fields. For every distinct term {@code t} the query treats the weighted fields as one
 * synthetic field: the term frequency in a document is {@code sum_f w_f * tf(t, f)}, the document
 * length is {@code sum_f w_f * len(f)}, the average length is derived from the weighted sum of the
 * fields' total term frequencies, and the document frequency is the largest per-field document
 * frequency of {@code t}. These pseudo statistics are fed to the searcher's similarity, which for
 * the intended configsets is the global {@code BM25Similarity} (k1, b), so each term contributes
 * {@code idf(t) * tf~ * (k1 + 1) / (tf~ + k1 * (1 - b + b * len~ / avglen~))}. A term that occurs
 * several times in the query counts once, as in pubmatch's embedded BM25F; the per-term scores are summed ({@code
 * mm=any}, SHOULD clauses) or all terms are required ({@code mm=all}, MUST clauses). Statistics go
 * through {@code IndexSearcher#termStatistics}/{@code collectionStatistics}, so Solr's distributed
 * stats caches (e.g. {@code ExactStatsCache}) apply.
 *
 * <p>Validation (HTTP 400): unknown field, field not indexed or without norms, weight below 1 (a
 * requirement of {@link CombinedFieldQuery}), duplicate field, and qf fields whose query analyzers
 * differ.
 */
public class Bm25fQParserPlugin extends QParserPlugin {

  /** Local parameter (falls back to the request parameter of the same name): weighted fields. */
  public static final String QF = "qf";

  /** Local parameter: {@code any} (default) or {@code all}. */
  public static final String MM = "mm";

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
      boolean requireAll = parseMm(localParams == null ? null : localParams.get(MM));

      IndexSchema schema = req.getSchema();
      List<WeightedField> fields = parseQf(qf, schema);
      Analyzer analyzer = sharedQueryAnalyzer(fields, schema);

      String text = qstr == null ? "" : qstr;
      Map<BytesRef, Integer> termCounts = analyze(analyzer, fields.get(0).name, text);
      if (termCounts.isEmpty()) {
        return new MatchNoDocsQuery("bm25f: no terms after analysis");
      }

      BooleanClause.Occur occur = requireAll ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
      BooleanQuery.Builder bq = new BooleanQuery.Builder();
      for (Map.Entry<BytesRef, Integer> e : termCounts.entrySet()) {
        CombinedFieldQuery.Builder cfq = new CombinedFieldQuery.Builder();
        for (WeightedField f : fields) {
          cfq.addField(f.name, f.weight);
        }
        cfq.addTerm(e.getKey());
        // each distinct term once, as pubmatch's embedded BM25F scores its distinct query terms
        bq.add(cfq.build(), occur);
      }
      return bq.build();
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

    static List<WeightedField> parseQf(String qf, IndexSchema schema) {
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
        if (!Float.isFinite(weight) || weight < 1f) {
          throw badRequest(
              "bm25f: weight of field '" + name + "' is " + weight + "; weights must be >= 1");
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
