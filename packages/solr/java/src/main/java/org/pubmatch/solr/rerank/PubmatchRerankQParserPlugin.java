package org.pubmatch.solr.rerank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.params.ShardParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.search.QParser;
import org.apache.solr.search.QParserPlugin;
import org.apache.solr.search.SyntaxError;
import org.apache.solr.search.stats.StatsUtil;
import org.pubmatch.solr.features.BestMatchQuery;
import org.pubmatch.solr.features.BestMatchSchema;
import org.pubmatch.solr.features.QueryMemoryFeatures;
import org.pubmatch.solr.features.QueryToken;
import org.pubmatch.solr.models.DeployedModel;
import org.pubmatch.solr.models.ModelCache;
import org.pubmatch.solr.models.ModelValidator;
import org.pubmatch.solr.shard.CollectionTermStats;
import org.pubmatch.solr.shard.ShardFields;

/**
 * The parser of pubmatch's rerank query: {@code rq={!pubmatch model=NAME reRankDocs=500
 * total=N}}, with the query's analysis in request parameters. Register with {@code <queryParser
 * name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchRerankQParserPlugin"/>}.
 *
 * <p>Local parameters: {@code model} (required, a model deployed into the collection), {@code
 * reRankDocs} (candidates reranked per shard; default the model's training depth), {@code total}
 * (required: F176, the first stage's total over the whole collection, never a shard's), {@code
 * outOfRange} ({@code fallback}, the default: a query whose query-level features lie outside the
 * model's range keeps its first-stage order; {@code rerank}: reranked anyway) and {@code
 * rangeMargin} (widths of the training range accepted on each side; default 0). Request parameters
 * (or local ones of the same name): {@code pm.text} (the query as typed, F177–F179), {@code
 * pm.tokens} (JSON {@code [{"term","original","joined"}]}: the query's tokens from pubmatch's
 * analyzer) and {@code pm.stopwords} (JSON array of surface words left out of the query terms,
 * default none).
 *
 * <p>Statistics: the parser adds to the request the {@code solr.stats.terms} of each query term in
 * {@link ShardFields#TITLE_TERMS}, {@link ShardFields#ABSTRACT_TERMS} and {@link
 * ShardFields#TITLE_ABSTRACT}, and {@code solr.stats.fields} {@link ShardFields#ARTICLE}, which
 * {@code ExactStatsCache} reads on each shard while it gathers statistics: so the IDFs and the
 * document count the features use are the collection's. On the coordinator it adds {@code
 * pubmatch} to the response: the model and, when the query falls back, why.
 *
 * <p>Models: the 179 features of {@link BestMatchSchema#VERSION}, or those followed by the query
 * memory's M1–M3 ({@link ModelValidator#MEMORY_SCHEMA_VERSION}), computed from the memory's
 * analysed form that {@code deployModel} stored with the model and the query's terms from {@code
 * pm.tokens} (every token that is not a joined compound form, as pubmatch's memory analyses the
 * query text with the same analyzer; no stop words dropped).
 *
 * <p>Refused with 400: a missing or bad parameter, a model of another schema, a model with a
 * memory deployed without its analysed form; 404: an unknown model.
 */
public class PubmatchRerankQParserPlugin extends QParserPlugin {

  /** The parser's name in the generated {@code solrconfig.xml}. */
  public static final String NAME = "pubmatch";

  /** Request parameter: the query as typed. */
  public static final String TEXT = "pm.text";

  /** Request parameter: the query's tokens from pubmatch's analyzer, JSON. */
  public static final String TOKENS = "pm.tokens";

  /** Request parameter: the surface words left out of the query terms, JSON. */
  public static final String STOPWORDS = "pm.stopwords";

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public QParser createParser(String qstr, SolrParams localParams, SolrParams params, SolrQueryRequest req) {
    return new QParser(qstr, localParams, params, req) {
      @Override
      public Query parse() throws SyntaxError {
        return parseRerank(localParams, params, req);
      }
    };
  }

  private static String param(SolrParams local, SolrParams params, String name) {
    String value = local == null ? null : local.get(name);
    return value != null ? value : params.get(name);
  }

  static Query parseRerank(SolrParams local, SolrParams params, SolrQueryRequest req) {
    String name = local == null ? null : local.get("model");
    if (name == null || name.isEmpty()) {
      throw bad("the pubmatch rerank query needs model=NAME");
    }
    SolrCore core = req.getCore();
    DeployedModel model = ModelCache.of(core).get(core, name);
    boolean plain = BestMatchSchema.VERSION.equals(model.schemaVersion()) && model.featureIds().size() == BestMatchSchema.FEATURE_COUNT;
    boolean withMemory = model.usesMemory() && model.featureIds().size() == BestMatchSchema.FEATURE_COUNT + QueryMemoryFeatures.COUNT;
    if (!plain && !withMemory) {
      throw bad(
          "model "
              + name
              + " has features of schema \""
              + model.schemaVersion()
              + "\" ("
              + model.featureIds().size()
              + " features): the pubmatch rerank query computes the "
              + BestMatchSchema.FEATURE_COUNT
              + " features of \""
              + BestMatchSchema.VERSION
              + "\", optionally followed by the query memory's M1-M3 (\""
              + ModelValidator.MEMORY_SCHEMA_VERSION
              + "\"), only; rerank with this model in pubmatch");
    }
    if (withMemory && model.queryMemory() == null) {
      throw bad(
          "model "
              + name
              + " uses a query memory (M1-M3) but was deployed without its analysed form ("
              + ModelValidator.MEMORY_TERMS_FILE
              + "); remove it and deploy it again with deployModel of @pubmatch/solr or `pubmatch model deploy-solr`");
    }
    String totalText = local.get("total");
    if (totalText == null) {
      throw bad("the pubmatch rerank query needs total=N, the first stage's total over the collection (F176)");
    }
    long total;
    int reRankDocs;
    double margin;
    try {
      total = Long.parseLong(totalText);
      reRankDocs = local.getInt("reRankDocs", model.depth() > 0 ? model.depth() : 500);
      margin = Double.parseDouble(local.get("rangeMargin", "0"));
    } catch (NumberFormatException e) {
      throw bad("the pubmatch rerank query: " + e.getMessage());
    }
    if (total < 0 || reRankDocs < 1 || !(margin >= 0)) {
      throw bad("the pubmatch rerank query needs total >= 0, reRankDocs >= 1 and rangeMargin >= 0");
    }
    String outOfRange = local.get("outOfRange", "fallback");
    if (!outOfRange.equals("fallback") && !outOfRange.equals("rerank")) {
      throw bad("outOfRange must be fallback or rerank, not \"" + outOfRange + "\"");
    }
    String text = param(local, params, TEXT);
    if (text == null) {
      throw bad("the pubmatch rerank query needs the query text in " + TEXT);
    }
    List<QueryToken> tokens = readTokens(param(local, params, TOKENS));
    List<String> stopwords = readStrings(param(local, params, STOPWORDS), STOPWORDS);
    RerankRequest.Fallback fallback = outOfRange.equals("fallback") ? RerankRequest.outOfRange(model, text, total, margin) : null;
    RerankRequest request = new RerankRequest(model, text, List.copyOf(tokens), List.copyOf(stopwords), total, fallback);
    askForStatistics(req, BestMatchQuery.selectTerms(tokens, stopwords));
    if (!req.getParams().getBool(ShardParams.IS_SHARD, false)) {
      describe(request);
    }
    return new PubmatchRerankQuery(request, reRankDocs);
  }

  /**
   * Adds the query terms' (field, term) pairs and the article field to the statistics that {@code
   * ExactStatsCache} gathers from every shard ({@code solr.stats.terms}, {@code solr.stats.fields};
   * the shard requests copy the coordinator's parameters).
   */
  private static void askForStatistics(SolrQueryRequest req, String[] terms) {
    SolrParams params = req.getParams();
    Set<Term> wanted = new LinkedHashSet<>(StatsUtil.termsFromEncodedString(params.get("solr.stats.terms")));
    Set<String> fields = new LinkedHashSet<>(StatsUtil.fieldsFromString(params.get("solr.stats.fields")));
    int before = wanted.size() + fields.size();
    for (String term : terms) {
      wanted.add(new Term(ShardFields.TITLE_TERMS, term));
      wanted.add(new Term(ShardFields.ABSTRACT_TERMS, term));
      wanted.add(new Term(ShardFields.TITLE_ABSTRACT, term));
    }
    wanted.add(new Term(ShardFields.ARTICLE, CollectionTermStats.ARTICLE_TERM));
    fields.add(ShardFields.ARTICLE);
    if (wanted.size() + fields.size() == before) {
      return;
    }
    ModifiableSolrParams out = new ModifiableSolrParams(params);
    out.set("solr.stats.terms", StatsUtil.termsToEncodedString(wanted));
    out.set("solr.stats.fields", String.join(",", fields));
    req.setParams(out);
  }

  /** Adds {@code pubmatch: {model, uploadId, fallback?}} to the coordinator's response. */
  private static void describe(RerankRequest request) {
    SolrRequestInfo info = SolrRequestInfo.getRequestInfo();
    if (info == null || info.getRsp() == null) {
      return;
    }
    NamedList<Object> values = new SimpleOrderedMap<>();
    values.add("model", request.model().name());
    values.add("uploadId", request.model().uploadId());
    RerankRequest.Fallback f = request.fallback();
    if (f != null) {
      NamedList<Object> fallback = new SimpleOrderedMap<>();
      fallback.add("feature", f.feature());
      fallback.add("value", f.value());
      fallback.add("range", List.of(f.low(), f.high()));
      values.add("fallback", fallback);
    }
    if (info.getRsp().getValues().get("pubmatch") == null) {
      info.getRsp().add("pubmatch", values);
    }
  }

  private static List<QueryToken> readTokens(String json) {
    List<QueryToken> tokens = new ArrayList<>();
    if (json == null) {
      throw bad("the pubmatch rerank query needs the query's tokens in " + TOKENS);
    }
    JsonNode node = readJson(json, TOKENS);
    if (!node.isArray()) {
      throw bad(TOKENS + " must be a JSON array of {\"term\", \"original\", \"joined\"}");
    }
    for (JsonNode token : node) {
      JsonNode term = token.get("term");
      JsonNode original = token.get("original");
      JsonNode joined = token.get("joined");
      if (term == null || !term.isTextual() || (original != null && !original.isNull() && !original.isTextual())
          || (joined != null && !joined.isBoolean())) {
        throw bad(TOKENS + ": each token is {\"term\": string, \"original\"?: string, \"joined\"?: boolean}, not " + token);
      }
      tokens.add(new QueryToken(term.asText(), original == null || original.isNull() ? null : original.asText(), joined != null && joined.asBoolean()));
    }
    return tokens;
  }

  private static List<String> readStrings(String json, String name) {
    List<String> out = new ArrayList<>();
    if (json == null) {
      return out;
    }
    JsonNode node = readJson(json, name);
    if (!node.isArray()) {
      throw bad(name + " must be a JSON array of strings");
    }
    for (JsonNode value : node) {
      if (!value.isTextual()) {
        throw bad(name + " must be a JSON array of strings");
      }
      out.add(value.asText());
    }
    return out;
  }

  private static JsonNode readJson(String json, String name) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw bad(name + " is not JSON: " + e.getMessage());
    }
  }

  private static SolrException bad(String message) {
    return new SolrException(ErrorCode.BAD_REQUEST, message);
  }
}
