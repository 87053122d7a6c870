package org.pubmatch.solr.models;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.pubmatch.solr.features.QueryMemoryFeatures;
import org.pubmatch.solr.ltr.LightGbmModel;

/**
 * A model deployed in a collection, loaded from ZooKeeper by {@link ModelCache}: immutable and
 * safe to share between the threads of concurrent queries.
 */
public final class DeployedModel {

  private final String collection;
  private final String name;
  private final JsonNode descriptor;
  private final JsonNode manifest;
  private final LightGbmModel model;
  private final List<String> featureIds;
  private final String memory;
  private final QueryMemoryFeatures queryMemory;

  DeployedModel(String collection, String name, JsonNode descriptor, ModelValidator.Checked checked) {
    this.collection = collection;
    this.name = name;
    this.descriptor = descriptor;
    this.manifest = checked.manifest();
    this.model = checked.model();
    List<String> ids = new ArrayList<>();
    manifest.path("schema").path("features").forEach(id -> ids.add(id.asText()));
    this.featureIds = Collections.unmodifiableList(ids);
    this.memory = checked.memory();
    this.queryMemory = checked.queryMemory();
  }

  /**
   * The collection it is deployed in.
   *
   * @return the collection's name
   */
  public String collection() {
    return collection;
  }

  /**
   * Its name in the collection.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The upload's id (a new one each time a name is deployed).
   *
   * @return a UUID
   */
  public String uploadId() {
    return descriptor.path("uploadId").asText();
  }

  /**
   * What ZooKeeper's {@code complete} node says: name, collection, uploadId, uploadedAt, files
   * (bytes, gzipBytes, chunks, sha256), trees, features, schemaVersion, firstStage.
   *
   * @return the descriptor (do not modify)
   */
  public JsonNode descriptor() {
    return descriptor;
  }

  /**
   * The model's {@code manifest.json} (format {@value ModelValidator#MODEL_FORMAT}).
   *
   * @return the manifest (do not modify)
   */
  public JsonNode manifest() {
    return manifest;
  }

  /**
   * The LightGBM trees.
   *
   * @return the evaluator
   */
  public LightGbmModel model() {
    return model;
  }

  /**
   * The feature ids in column order ({@code manifest.schema.features}); a row for {@link
   * LightGbmModel#predict} has one value per id.
   *
   * @return the ids
   */
  public List<String> featureIds() {
    return featureIds;
  }

  /**
   * The feature schema's version ({@code manifest.schema.version}).
   *
   * @return the version
   */
  public String schemaVersion() {
    return manifest.path("schema").path("version").asText();
  }

  /**
   * The first stage it was trained on ({@code manifest.firstStage}: ranker, params, analyzer,
   * fieldSet, fields, match, syntax, depth); its {@code params} carry the field weights the
   * first-stage query must use.
   *
   * @return the record (do not modify)
   */
  public JsonNode firstStage() {
    return manifest.path("firstStage");
  }

  /**
   * The candidates per query it was trained on ({@code firstStage.depth}).
   *
   * @return the depth
   */
  public int depth() {
    return manifest.path("firstStage").path("depth").asInt();
  }

  /**
   * The query memory (M1–M3) as JSON lines {@code {id, text, judgements}}, or {@code null} for a
   * model without one.
   *
   * @return the text of {@code memory.jsonl}, or {@code null}
   */
  public String memory() {
    return memory;
  }

  /**
   * The query memory's features M1–M3 over its analysed form ({@code memory-terms.jsonl}, which
   * {@code deployModel} writes with pubmatch's analyzer), or {@code null} for a model without a
   * memory or one deployed before the analysed form existed.
   *
   * @return the memory, immutable and shared between queries, or {@code null}
   */
  public QueryMemoryFeatures queryMemory() {
    return queryMemory;
  }

  /**
   * Whether the model's features are the 179 followed by the query memory's M1–M3 (schema {@value
   * ModelValidator#MEMORY_SCHEMA_VERSION}).
   *
   * @return whether it needs the memory's columns
   */
  public boolean usesMemory() {
    return ModelValidator.MEMORY_SCHEMA_VERSION.equals(schemaVersion());
  }

  @Override
  public String toString() {
    return "DeployedModel[" + collection + "/" + name + ", " + model.numTrees() + " trees, " + model.numFeatures() + " features]";
  }
}
