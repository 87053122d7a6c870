package org.pubmatch.solr.models;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.common.cloud.ZkStateReader;
import org.apache.zookeeper.KeeperException;
import org.pubmatch.solr.features.BestMatchSchema;
import org.pubmatch.solr.features.QueryMemoryFeatures;
import org.pubmatch.solr.ltr.LightGbmModel;
import org.pubmatch.solr.ltr.LightGbmModelException;

/**
 * The checks of a pubmatch model against itself and against the collection it is deployed into:
 * the manifest's format ({@value #MODEL_FORMAT}) and records, LightGBM's text (parsed with {@link
 * LightGbmModel}), the feature count against the manifest's schema, the query memory, and the
 * model's first stage against the one the collection records in its collection property
 * {@value #FIRST_STAGE_PROPERTY}.
 */
public final class ModelValidator {

  /** The manifest format this Solr module reads (pubmatch's {@code MODEL_FORMAT}). */
  public static final String MODEL_FORMAT = "pubmatch-ltr-model/2";

  /**
   * The collection property holding the collection's first stage as JSON: {@code {"ranker":
   * "bm25f", "params": {"k1": 1.2, "b": 0.75}, "analyzer": "biomedical", "fieldSet": "pubmed",
   * "fields": ["title", …]}}. {@code @pubmatch/solr} sets it when it creates a collection (and
   * {@code deployModel} on an older collection, from its state document).
   */
  public static final String FIRST_STAGE_PROPERTY = "pubmatch.firstStage";

  /** The schema of a model with a query memory: the 179, then M1–M3 ({@code withMemorySchema} of pubmatch). */
  public static final String MEMORY_SCHEMA_VERSION = BestMatchSchema.VERSION + "+memory-3/1";

  /** What a query memory adds to a schema's version. */
  public static final String MEMORY_SCHEMA_SUFFIX = "+memory-3/1";

  /** The query memory analysed by pubmatch's analyzer, which {@code deployModel} sends beside {@code memory.jsonl}. */
  public static final String MEMORY_TERMS_FILE = "memory-terms.jsonl";

  /** BM25F parameters a Solr first stage honours per request; k1 and b are the collection's. */
  private static final Set<String> QUERY_TIME_PARAMS = Set.of("fieldWeights", "defaultFieldWeight", "fieldB");

  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelValidator() {}

  /**
   * A model read and checked.
   *
   * @param manifest the manifest
   * @param model the parsed LightGBM model
   * @param memory the query memory's text, or {@code null}
   * @param memoryTerms the analysed memory's text ({@value #MEMORY_TERMS_FILE}), or {@code null}
   * @param queryMemory M1–M3 over the analysed memory, or {@code null} without {@code memoryTerms}
   */
  public record Checked(JsonNode manifest, LightGbmModel model, String memory, String memoryTerms, QueryMemoryFeatures queryMemory) {}

  /**
   * Reads and checks a model's files.
   *
   * @param name the model's name, for messages
   * @param manifestText {@code manifest.json}
   * @param modelText {@code model.txt}
   * @param memoryText {@code memory.jsonl}, or {@code null}
   * @return the checked model
   * @throws SolrException 400 naming the model, the file and what is wrong
   */
  public static Checked check(String name, String manifestText, String modelText, String memoryText) {
    return check(name, manifestText, modelText, memoryText, null);
  }

  /**
   * Reads and checks a model's files, with the analysed query memory.
   *
   * @param name the model's name, for messages
   * @param manifestText {@code manifest.json}
   * @param modelText {@code model.txt}
   * @param memoryText {@code memory.jsonl}, or {@code null}
   * @param memoryTermsText {@value #MEMORY_TERMS_FILE}, or {@code null}
   * @return the checked model
   * @throws SolrException 400 naming the model, the file and what is wrong
   */
  public static Checked check(String name, String manifestText, String modelText, String memoryText, String memoryTermsText) {
    if (manifestText == null) {
      throw bad(name, "manifest.json is missing");
    }
    if (modelText == null) {
      throw bad(name, "model.txt is missing");
    }
    JsonNode manifest;
    try {
      manifest = JSON.readTree(manifestText);
    } catch (JsonProcessingException e) {
      throw bad(name, "manifest.json is not JSON: " + e.getOriginalMessage());
    }
    return check(name, manifest, modelText, memoryText, memoryTermsText);
  }

  /**
   * Checks a model whose manifest is already parsed.
   *
   * @param name the model's name, for messages
   * @param manifest the manifest
   * @param modelText {@code model.txt}
   * @param memoryText {@code memory.jsonl}, or {@code null}
   * @return the checked model
   * @throws SolrException 400 naming the model, the file and what is wrong
   */
  public static Checked check(String name, JsonNode manifest, String modelText, String memoryText) {
    return check(name, manifest, modelText, memoryText, null);
  }

  /**
   * Checks a model whose manifest is already parsed, with the analysed query memory: each line of
   * {@value #MEMORY_TERMS_FILE} is {@code {"id", "terms": [strings], "judgements": {doc: grade}}},
   * the remembered queries of {@code memory.jsonl} in the same order.
   *
   * @param name the model's name, for messages
   * @param manifest the manifest
   * @param modelText {@code model.txt}
   * @param memoryText {@code memory.jsonl}, or {@code null}
   * @param memoryTermsText {@value #MEMORY_TERMS_FILE}, or {@code null}
   * @return the checked model
   * @throws SolrException 400 naming the model, the file and what is wrong
   */
  public static Checked check(String name, JsonNode manifest, String modelText, String memoryText, String memoryTermsText) {
    if (manifest == null || !manifest.isObject()) {
      throw bad(name, "manifest.json is not a JSON object");
    }
    String format = manifest.path("format").asText("");
    if ("pubmatch-ltr-model/1".equals(format)) {
      throw bad(name, "manifest.json is a pubmatch-ltr-model/1 manifest, which does not record its first stage exactly; retrain the model with `pubmatch train`");
    }
    if (!MODEL_FORMAT.equals(format)) {
      throw bad(name, "manifest.json has format \"" + format + "\", expected \"" + MODEL_FORMAT + "\" (a model folder written by `pubmatch train`)");
    }
    JsonNode features = manifest.path("schema").path("features");
    if (!features.isArray() || !manifest.path("schema").path("version").isTextual()) {
      throw bad(name, "manifest.json: schema must be {version, features: [ids]}");
    }
    for (JsonNode id : features) {
      if (!id.isTextual()) {
        throw bad(name, "manifest.json: schema.features must be strings");
      }
    }
    JsonNode firstStage = manifest.path("firstStage");
    for (String key : List.of("ranker", "analyzer", "fieldSet", "match", "syntax")) {
      if (!firstStage.path(key).isTextual()) {
        throw bad(name, "manifest.json: firstStage." + key + " must be a string");
      }
    }
    if (!firstStage.path("params").isObject() || !firstStage.path("fields").isArray() || !firstStage.path("depth").canConvertToInt() || firstStage.path("depth").asInt(-1) < 0) {
      throw bad(name, "manifest.json: firstStage needs params (an object), fields (an array) and depth (a count)");
    }
    LightGbmModel model;
    try {
      model = LightGbmModel.parse(modelText, "model.txt");
    } catch (LightGbmModelException e) {
      throw bad(name, e.getMessage());
    }
    if (model.numFeatures() != features.size()) {
      throw bad(name, "model.txt uses " + model.numFeatures() + " features but manifest.json's schema lists " + features.size());
    }
    JsonNode memorySpec = manifest.path("training").path("memory");
    boolean wantsMemory = memorySpec.isObject();
    if (wantsMemory && memoryText == null) {
      throw bad(name, "manifest.json says the model was trained with a query memory, but memory.jsonl is missing");
    }
    List<String> memoryIds = new ArrayList<>();
    if (memoryText != null) {
      String[] lines = memoryText.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].isBlank()) {
          continue;
        }
        JsonNode line;
        try {
          line = JSON.readTree(lines[i]);
        } catch (JsonProcessingException e) {
          throw bad(name, "memory.jsonl line " + (i + 1) + " is not JSON: " + e.getOriginalMessage());
        }
        if (!line.path("id").isTextual() || !line.path("text").isTextual() || !line.path("judgements").isObject()) {
          throw bad(name, "memory.jsonl line " + (i + 1) + " is not {id, text, judgements}");
        }
        memoryIds.add(line.path("id").asText());
      }
    }
    QueryMemoryFeatures queryMemory = null;
    if (memoryTermsText != null) {
      if (memoryText == null) {
        throw bad(name, MEMORY_TERMS_FILE + " comes without memory.jsonl");
      }
      queryMemory = queryMemory(name, memoryTermsText, memoryIds, memorySpec.path("k").asInt(QueryMemoryFeatures.DEFAULT_K));
    }
    return new Checked(manifest, model, memoryText, memoryTermsText, queryMemory);
  }

  /** M1–M3 over the analysed memory, whose queries must be memory.jsonl's in the same order. */
  private static QueryMemoryFeatures queryMemory(String name, String text, List<String> memoryIds, int k) {
    List<QueryMemoryFeatures.RememberedQuery> queries = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      String where = MEMORY_TERMS_FILE + " line " + (i + 1);
      JsonNode line;
      try {
        line = JSON.readTree(lines[i]);
      } catch (JsonProcessingException e) {
        throw bad(name, where + " is not JSON: " + e.getOriginalMessage());
      }
      if (!line.path("id").isTextual() || !line.path("terms").isArray() || !line.path("judgements").isObject()) {
        throw bad(name, where + " is not {id, terms, judgements}");
      }
      List<String> terms = new ArrayList<>();
      for (JsonNode term : line.get("terms")) {
        if (!term.isTextual()) {
          throw bad(name, where + ": terms must be strings");
        }
        terms.add(term.asText());
      }
      List<QueryMemoryFeatures.Judgement> judgements = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = line.get("judgements").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> judgement = it.next();
        if (!judgement.getValue().isNumber()) {
          throw bad(name, where + ": the grade of " + judgement.getKey() + " is not a number");
        }
        judgements.add(new QueryMemoryFeatures.Judgement(judgement.getKey(), judgement.getValue().asDouble()));
      }
      String id = line.get("id").asText();
      int q = queries.size();
      if (q >= memoryIds.size() || !memoryIds.get(q).equals(id)) {
        throw bad(name, where + ": query " + id + " is not memory.jsonl's query " + (q + 1) + (q < memoryIds.size() ? " (" + memoryIds.get(q) + ")" : "") + "; deploy the model folder again");
      }
      queries.add(new QueryMemoryFeatures.RememberedQuery(id, List.copyOf(terms), List.copyOf(judgements)));
    }
    if (queries.size() != memoryIds.size()) {
      throw bad(name, MEMORY_TERMS_FILE + " has " + queries.size() + " queries, memory.jsonl " + memoryIds.size() + "; deploy the model folder again");
    }
    if (k < 1) {
      throw bad(name, "manifest.json: training.memory.k must be a positive integer, got " + k);
    }
    try {
      return new QueryMemoryFeatures(queries, k);
    } catch (IllegalArgumentException e) {
      throw bad(name, MEMORY_TERMS_FILE + ": " + e.getMessage());
    }
  }

  /**
   * The first stage a collection records, or {@code null} when it records none. Read from
   * ZooKeeper ({@code /collections/COLLECTION/collectionprops.json}) at each call, not from {@code
   * ZkStateReader}'s watched copy, which may lag behind a property set a moment ago.
   *
   * @param zk the node's ZooKeeper client
   * @param collection the collection
   * @return the record ({@link #FIRST_STAGE_PROPERTY} parsed), or {@code null}
   * @throws SolrException 500 when the properties or the property are not JSON, or ZooKeeper fails
   */
  public static JsonNode collectionFirstStage(SolrZkClient zk, String collection) {
    String path = ZkStateReader.COLLECTIONS_ZKNODE + "/" + collection + "/" + ZkStateReader.COLLECTION_PROPS_ZKNODE;
    byte[] data;
    try {
      data = zk.getData(path, null, null, true);
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (KeeperException | InterruptedException e) {
      throw ModelStore.zkFailure("reading the properties of collection " + collection, e);
    }
    try {
      JsonNode text = JSON.readTree(data).get(FIRST_STAGE_PROPERTY);
      return text == null || text.isNull() ? null : JSON.readTree(text.asText());
    } catch (IOException e) {
      throw new SolrException(ErrorCode.SERVER_ERROR, "collection " + collection + ": its property " + FIRST_STAGE_PROPERTY + " is not JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Throws unless a model reranks the collection's first stage: the same ranker, analyzer, field
   * set and text fields, and parameters the collection honours (k1 and b equal to the collection's
   * after pubmatch's defaults 1.2 and 0.75; Lucene's idf; no (k1 + 1); field weights and per-field
   * b, which the Solr first stage takes per request, are allowed).
   *
   * @param name the model, for messages
   * @param collection the collection, for messages
   * @param manifest the model's manifest
   * @param collectionStage the collection's record ({@link #collectionFirstStage}), or {@code null}
   * @throws SolrException 400 naming the first difference, or when the collection records no first
   *     stage
   */
  public static void checkFirstStage(String name, String collection, JsonNode manifest, JsonNode collectionStage) {
    if (collectionStage == null) {
      throw new SolrException(
          ErrorCode.BAD_REQUEST,
          "model " + name + ": collection " + collection + " records no first stage (collection property " + FIRST_STAGE_PROPERTY
              + "); deploy with `pubmatch model deploy-solr`, which records it from the collection's state document, or recreate the collection with `pubmatch index --solr`");
    }
    JsonNode trained = manifest.path("firstStage");
    for (String key : List.of("ranker", "analyzer", "fieldSet", "fields")) {
      if (!trained.path(key).equals(collectionStage.path(key))) {
        throw mismatch(name, collection, key, trained.path(key), collectionStage.path(key));
      }
    }
    JsonNode params = trained.path("params");
    JsonNode ours = collectionStage.path("params");
    List<String> unknown = new ArrayList<>();
    params.fieldNames().forEachRemaining(key -> {
      if (!QUERY_TIME_PARAMS.contains(key) && !Set.of("k1", "b", "idf", "k1Plus1").contains(key)) {
        unknown.add(key);
      }
    });
    if (!unknown.isEmpty()) {
      throw new SolrException(
          ErrorCode.BAD_REQUEST,
          "model " + name + " was trained on a first stage with parameters " + unknown + " that collection " + collection + "'s BM25F does not take; retrain it on this collection's first stage");
    }
    for (String key : List.of("k1", "b")) {
      double def = key.equals("k1") ? 1.2 : 0.75;
      double model = params.path(key).asDouble(def);
      double collectionValue = ours.path(key).asDouble(def);
      if (params.has(key) && !params.get(key).isNumber()) {
        throw mismatch(name, collection, "params." + key, params.get(key), ours.path(key));
      }
      if (model != collectionValue) {
        throw mismatch(name, collection, "params." + key, JSON.getNodeFactory().numberNode(model), ours.path(key));
      }
    }
    if (params.has("idf") && !"lucene".equals(params.get("idf").asText())) {
      throw mismatch(name, collection, "params.idf", params.get("idf"), JSON.getNodeFactory().textNode("lucene"));
    }
    if (params.path("k1Plus1").asBoolean(false)) {
      throw mismatch(name, collection, "params.k1Plus1", params.get("k1Plus1"), JSON.getNodeFactory().booleanNode(false));
    }
  }

  private static SolrException mismatch(String name, String collection, String key, JsonNode trained, JsonNode current) {
    return new SolrException(
        ErrorCode.BAD_REQUEST,
        "model " + name + " was trained on a first stage with " + key + " " + trained + ", but collection " + collection + " searches with " + key + " " + current
            + "; its features (first-stage score, analysed terms) would differ from what it learned: retrain it on this collection's first stage");
  }

  private static SolrException bad(String name, String problem) {
    return new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": " + problem);
  }
}
