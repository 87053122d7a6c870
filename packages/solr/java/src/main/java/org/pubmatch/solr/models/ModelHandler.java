package org.pubmatch.solr.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.cloud.CloudDescriptor;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.common.util.ContentStream;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.SolrCore;
import org.apache.solr.handler.RequestHandlerBase;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.security.AuthorizationContext;

/**
 * {@code /pubmatch/models}: deploys pubmatch models into the collection, lists, describes and
 * removes them, and loads one through this node's {@link ModelCache}. Register it in the
 * collection's {@code solrconfig.xml} with {@code <requestHandler name="/pubmatch/models"
 * class="org.pubmatch.solr.models.ModelHandler"/>} (pubmatch's generated configset does).
 *
 * <p>Actions (parameter {@code action}; every answer is Solr's JSON with the fields below):
 *
 * <ul>
 *   <li>{@code list} (default): {@code models} (descriptors of complete models) and {@code
 *       incomplete} (names being uploaded or whose upload was interrupted).
 *   <li>{@code get&name=N}: {@code model} (the descriptor) and {@code manifest}; with {@code
 *       file=model.txt|manifest.json|memory.jsonl|memory-terms.jsonl}, that file read back from ZooKeeper: {@code
 *       file}, {@code bytes}, {@code sha256}, {@code text}.
 *   <li>{@code upload&name=N} (POST): the body is a JSON envelope {@code {"manifest": {…},
 *       "model": "…model.txt…", "memory": "…memory.jsonl…", "memoryTerms":
 *       "…memory-terms.jsonl…"}} ({@code memory} only for a model with a query memory; {@code
 *       memoryTerms}, the memory analysed by pubmatch's analyzer, required when its features
 *       include M1–M3). The model is checked ({@link ModelValidator}) against itself and
 *       against the collection's first stage, then stored ({@link ModelStore}); answers {@code
 *       model} (the descriptor). 409 when the name exists.
 *   <li>{@code delete&name=N} (POST): removes the model; {@code removed}, {@code wasComplete}.
 *   <li>{@code load&name=N}: loads the model through the node's {@link ModelCache} (a debug and
 *       warm-up call, best sent to one core with {@code /solr/CORE/pubmatch/models}): {@code
 *       node}, {@code core}, {@code shard}, {@code collection}, {@code name}, {@code uploadId},
 *       {@code trees}, {@code features}, {@code schemaFeatures}, {@code depth}, {@code memory}
 *       (whether it has a query memory), {@code wasCached}, {@code cached}.
 *   <li>{@code firstStage}: the collection's first-stage record ({@value
 *       ModelValidator#FIRST_STAGE_PROPERTY}), or {@code null}.
 * </ul>
 *
 * <p>Init arg {@code maxUploadMB} (default 256) bounds the upload body.
 */
public final class ModelHandler extends RequestHandlerBase {

  private static final ObjectMapper JSON = new ObjectMapper();

  private long maxUploadBytes = 256L * 1024 * 1024;

  @Override
  public void init(NamedList<?> args) {
    super.init(args);
    Object max = args == null ? null : args.get("maxUploadMB");
    if (max != null) {
      maxUploadBytes = Long.parseLong(max.toString()) * 1024 * 1024;
    }
  }

  @Override
  public String getDescription() {
    return "pubmatch models of the collection in ZooKeeper: list, get, upload, delete, load";
  }

  @Override
  public Name getPermissionName(AuthorizationContext context) {
    String action = context.getParams().get("action", "list");
    return action.equals("upload") || action.equals("delete") ? Name.COLL_EDIT_PERM : Name.COLL_READ_PERM;
  }

  @Override
  public void handleRequestBody(SolrQueryRequest req, SolrQueryResponse rsp) throws Exception {
    SolrCore core = req.getCore();
    CoreContainer container = core.getCoreContainer();
    if (!container.isZooKeeperAware()) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "pubmatch models live in ZooKeeper: this Solr node does not run in SolrCloud mode");
    }
    String collection = core.getCoreDescriptor().getCollectionName();
    ModelStore store = new ModelStore(container.getZkController().getZkClient());
    SolrParams params = req.getParams();
    String action = params.get("action", "list");
    String name = params.get("name");
    switch (action) {
      case "list" -> {
        ModelStore.Listing listing = store.list(collection);
        rsp.add("collection", collection);
        rsp.add("models", toObjects(listing.complete()));
        rsp.add("incomplete", listing.incomplete());
      }
      case "get" -> {
        ModelStore.checkName(name);
        JsonNode descriptor = store.descriptor(collection, name);
        String file = params.get("file");
        if (file == null) {
          rsp.add("model", toObject(descriptor));
          rsp.add("manifest", toObject(JSON.readTree(store.readFile(collection, name, descriptor, "manifest.json"))));
        } else {
          if (!ModelStore.FILES.contains(file)) {
            throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": file must be one of " + ModelStore.FILES + ", got \"" + file + "\"");
          }
          String text = store.readFile(collection, name, descriptor, file);
          if (text == null) {
            throw new SolrException(ErrorCode.NOT_FOUND, "model " + name + " of collection " + collection + " has no " + file);
          }
          byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
          rsp.add("file", file);
          rsp.add("bytes", bytes.length);
          rsp.add("sha256", ModelStore.sha256(bytes));
          rsp.add("text", text);
        }
      }
      case "upload" -> {
        requirePost(req, action);
        ModelStore.checkName(name);
        JsonNode envelope = readEnvelope(req, name);
        JsonNode manifest = envelope.get("manifest");
        String model = textOrNull(envelope, "model", name);
        String memory = textOrNull(envelope, "memory", name);
        String memoryTerms = textOrNull(envelope, "memoryTerms", name);
        ModelValidator.Checked checked = ModelValidator.check(name, manifest, model, memory, memoryTerms);
        if (memoryTerms == null && checked.manifest().path("schema").path("version").asText().contains(ModelValidator.MEMORY_SCHEMA_SUFFIX)) {
          throw new SolrException(
              ErrorCode.BAD_REQUEST,
              "model " + name + ": its features include a query memory (M1-M3) but the upload has no memoryTerms (" + ModelValidator.MEMORY_TERMS_FILE
                  + ", the memory analysed by pubmatch's analyzer): deploy it with deployModel of @pubmatch/solr or `pubmatch model deploy-solr`");
        }
        JsonNode firstStage = ModelValidator.collectionFirstStage(container.getZkController().getZkClient(), collection);
        ModelValidator.checkFirstStage(name, collection, checked.manifest(), firstStage);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("manifest.json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(checked.manifest()) + "\n");
        files.put("model.txt", model);
        if (memory != null) {
          files.put("memory.jsonl", memory);
        }
        if (memoryTerms != null) {
          files.put(ModelValidator.MEMORY_TERMS_FILE, memoryTerms);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("trees", checked.model().numTrees());
        summary.put("features", checked.model().numFeatures());
        summary.put("schemaVersion", checked.manifest().path("schema").path("version").asText());
        summary.put("createdAt", checked.manifest().path("createdAt").asText(""));
        summary.put("firstStage", checked.manifest().path("firstStage"));
        JsonNode descriptor = store.write(collection, name, files, summary);
        rsp.add("model", toObject(descriptor));
      }
      case "delete" -> {
        requirePost(req, action);
        boolean complete = store.delete(collection, name);
        ModelCache.of(container).invalidate(collection, name);
        rsp.add("removed", name);
        rsp.add("wasComplete", complete);
      }
      case "load" -> {
        ModelCache cache = ModelCache.of(container);
        cache.refresh(collection, name);
        boolean wasCached = cache.isCached(collection, name);
        DeployedModel model = cache.get(collection, name);
        CloudDescriptor cloud = core.getCoreDescriptor().getCloudDescriptor();
        rsp.add("node", container.getZkController().getNodeName());
        rsp.add("core", core.getName());
        rsp.add("shard", cloud == null ? null : cloud.getShardId());
        rsp.add("collection", collection);
        rsp.add("name", model.name());
        rsp.add("uploadId", model.uploadId());
        rsp.add("trees", model.model().numTrees());
        rsp.add("features", model.model().numFeatures());
        rsp.add("schemaFeatures", model.featureIds().size());
        rsp.add("depth", model.depth());
        rsp.add("memory", model.memory() != null);
        rsp.add("memoryQueries", model.queryMemory() == null ? null : model.queryMemory().size());
        rsp.add("wasCached", wasCached);
        rsp.add("cached", cache.cached());
      }
      case "firstStage" -> {
        JsonNode firstStage = ModelValidator.collectionFirstStage(container.getZkController().getZkClient(), collection);
        rsp.add("collection", collection);
        rsp.add("firstStage", firstStage == null ? null : toObject(firstStage));
      }
      default -> throw new SolrException(ErrorCode.BAD_REQUEST, "pubmatch models: unknown action \"" + action + "\" (list, get, upload, delete, load, firstStage)");
    }
  }

  private static void requirePost(SolrQueryRequest req, String action) {
    String method = req.getHttpMethod();
    if (method != null && !method.equals("POST")) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "pubmatch models: action=" + action + " needs POST, got " + method);
    }
  }

  // Solr 9 deprecates ContentStream without a replacement for a request handler's body yet
  @SuppressWarnings("deprecation")
  private JsonNode readEnvelope(SolrQueryRequest req, String name) throws IOException {
    Iterable<ContentStream> streams = req.getContentStreams();
    Iterator<ContentStream> it = streams == null ? null : streams.iterator();
    if (it == null || !it.hasNext()) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": the upload needs a body, the JSON envelope {\"manifest\": {…}, \"model\": \"…\", \"memory\": \"…\"}");
    }
    ContentStream stream = it.next();
    byte[] body;
    try (InputStream in = stream.getStream()) {
      body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxUploadBytes + 1));
    }
    if (body.length > maxUploadBytes) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": the upload is larger than " + (maxUploadBytes / 1024 / 1024) + " MB (the handler's maxUploadMB)");
    }
    JsonNode envelope;
    try {
      envelope = JSON.readTree(body);
    } catch (IOException e) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": the upload body is not JSON: " + e.getMessage());
    }
    if (envelope == null || !envelope.isObject()) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": the upload body must be the JSON object {\"manifest\": {…}, \"model\": \"…\", \"memory\": \"…\"}");
    }
    return envelope;
  }

  private static String textOrNull(JsonNode envelope, String key, String name) {
    JsonNode value = envelope.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "model " + name + ": the envelope's " + key + " must be a string (the file's text)");
    }
    return value.asText();
  }

  private static List<Object> toObjects(List<JsonNode> nodes) {
    List<Object> out = new ArrayList<>();
    for (JsonNode node : nodes) {
      out.add(toObject(node));
    }
    return out;
  }

  /** JSON → maps and lists that Solr's response writers write as JSON. */
  private static Object toObject(JsonNode node) {
    return JSON.convertValue(node, Object.class);
  }
}
