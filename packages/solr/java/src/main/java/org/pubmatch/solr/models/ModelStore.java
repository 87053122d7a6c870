package org.pubmatch.solr.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

/**
 * pubmatch models of a collection in ZooKeeper: immutable per name, gzip-compressed, split into
 * chunks below ZooKeeper's 1 MB node limit, and visible only once complete.
 *
 * <p>Layout, under {@value #ROOT}:
 *
 * <pre>
 * /pubmatch/models/COLLECTION/NAME                   {"uploadId":…,"startedAt":…}  created first (the name's lock)
 * /pubmatch/models/COLLECTION/NAME/manifest.json/000000   gzip of the file, bytes 0 … 524287
 * /pubmatch/models/COLLECTION/NAME/model.txt/000000, 000001, …
 * /pubmatch/models/COLLECTION/NAME/memory.jsonl/000000    (only for a model with a query memory)
 * /pubmatch/models/COLLECTION/NAME/memory-terms.jsonl/000000  (the memory analysed by pubmatch's analyzer)
 * /pubmatch/models/COLLECTION/NAME/complete          the descriptor (JSON), created last
 * </pre>
 *
 * <p>A model is visible (listed, loadable) only when its {@code complete} node exists; the
 * descriptor in it gives each file's size, gzip size, chunk count and SHA-256, which a reader
 * checks. Removing a model deletes {@code complete} first, so it disappears at once, then the
 * rest. A name whose lock exists without {@code complete} is an upload in progress or one that
 * was interrupted: {@link #list} reports it as incomplete and {@link #delete} removes it.
 */
public final class ModelStore {

  /** The ZooKeeper folder of every collection's models. */
  public static final String ROOT = "/pubmatch/models";

  /** The node created last, holding the descriptor. */
  public static final String COMPLETE = "complete";

  /** The files of a model, in the order they are written. */
  public static final List<String> FILES = List.of("manifest.json", "model.txt", "memory.jsonl", "memory-terms.jsonl");

  /** Bytes per chunk: half of ZooKeeper's default {@code jute.maxbuffer} (1 MB). */
  public static final int CHUNK_BYTES = 512 * 1024;

  /** What a model name may be: a letter or digit, then letters, digits, {@code _ . -}. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SolrZkClient zk;

  /**
   * A store over a ZooKeeper client.
   *
   * @param zk the node's ZooKeeper client ({@code CoreContainer.getZkController().getZkClient()})
   */
  public ModelStore(SolrZkClient zk) {
    this.zk = zk;
  }

  /**
   * The ZooKeeper path of a collection's models.
   *
   * @param collection the collection
   * @return {@code /pubmatch/models/COLLECTION}
   */
  public static String collectionPath(String collection) {
    return ROOT + "/" + collection;
  }

  /**
   * The ZooKeeper path of one model.
   *
   * @param collection the collection
   * @param name the model's name
   * @return {@code /pubmatch/models/COLLECTION/NAME}
   */
  public static String modelPath(String collection, String name) {
    return collectionPath(collection) + "/" + name;
  }

  /**
   * Throws unless a model name is valid.
   *
   * @param name the name
   * @throws SolrException 400 naming the rule
   */
  public static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new SolrException(ErrorCode.BAD_REQUEST, "pubmatch models: the request needs a model name (name=…)");
    }
    if (!NAME.matcher(name).matches()) {
      throw new SolrException(
          ErrorCode.BAD_REQUEST,
          "pubmatch models: \"" + name + "\" is not a valid model name (a letter or digit, then up to 127 letters, digits, _ . -)");
    }
  }

  /**
   * The complete models of a collection and the names of incomplete ones.
   *
   * @param complete the descriptors of complete models, sorted by name
   * @param incomplete names being uploaded, or whose upload was interrupted
   */
  public record Listing(List<JsonNode> complete, List<String> incomplete) {}

  /**
   * Lists a collection's models.
   *
   * @param collection the collection
   * @return the complete models' descriptors and the incomplete names
   */
  public Listing list(String collection) {
    List<String> names;
    try {
      names = new ArrayList<>(zk.getChildren(collectionPath(collection), null, true));
    } catch (KeeperException.NoNodeException e) {
      return new Listing(List.of(), List.of());
    } catch (KeeperException | InterruptedException e) {
      throw zkFailure("listing the models of collection " + collection, e);
    }
    Collections.sort(names);
    List<JsonNode> complete = new ArrayList<>();
    List<String> incomplete = new ArrayList<>();
    for (String name : names) {
      JsonNode descriptor = descriptorOrNull(collection, name, null);
      if (descriptor == null) {
        incomplete.add(name);
      } else {
        complete.add(descriptor);
      }
    }
    return new Listing(complete, incomplete);
  }

  /**
   * A complete model's descriptor.
   *
   * @param collection the collection
   * @param name the model
   * @return the descriptor
   * @throws SolrException 404 when there is no complete model of that name
   */
  public JsonNode descriptor(String collection, String name) {
    JsonNode descriptor = descriptorOrNull(collection, name, null);
    if (descriptor == null) {
      throw notFound(collection, name);
    }
    return descriptor;
  }

  /**
   * A complete model's descriptor, with a one-shot watch on its {@code complete} node (fired when
   * the model is removed).
   *
   * @param collection the collection
   * @param name the model
   * @param watcher called on the next change of the {@code complete} node, or {@code null}
   * @return the descriptor, or {@code null} when there is no complete model of that name
   */
  public JsonNode descriptorOrNull(String collection, String name, Watcher watcher) {
    String path = modelPath(collection, name) + "/" + COMPLETE;
    byte[] data;
    try {
      if (watcher != null && zk.exists(path, watcher, true) == null) {
        return null;
      }
      data = zk.getData(path, null, null, true);
    } catch (KeeperException.NoNodeException e) {
      return null;
    } catch (KeeperException | InterruptedException e) {
      throw zkFailure("reading model " + name + " of collection " + collection, e);
    }
    try {
      return JSON.readTree(data);
    } catch (IOException e) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          "model " + name + " of collection " + collection + ": its descriptor " + path + " is not JSON (" + e.getMessage() + "); remove the model and deploy it again",
          e);
    }
  }

  /**
   * Reads one file of a complete model and checks it against the descriptor (size and SHA-256).
   *
   * @param collection the collection
   * @param name the model
   * @param descriptor its descriptor
   * @param file one of {@link #FILES}
   * @return the file's text, or {@code null} when the model has no such file
   * @throws SolrException 500 when a chunk is missing or the file does not match its descriptor
   */
  public String readFile(String collection, String name, JsonNode descriptor, String file) {
    JsonNode info = descriptor.path("files").get(file);
    if (info == null) {
      return null;
    }
    int chunks = info.path("chunks").asInt(-1);
    String where = "model " + name + " of collection " + collection + ": " + file;
    ByteArrayOutputStream gzip = new ByteArrayOutputStream(Math.max(0, info.path("gzipBytes").asInt(0)));
    for (int i = 0; i < chunks; i++) {
      try {
        gzip.write(zk.getData(chunkPath(collection, name, file, i), null, null, true));
      } catch (KeeperException.NoNodeException e) {
        throw new SolrException(ErrorCode.SERVER_ERROR, where + ": chunk " + i + " of " + chunks + " is missing in ZooKeeper; remove the model and deploy it again", e);
      } catch (KeeperException | InterruptedException | IOException e) {
        throw zkFailure("reading " + where, e);
      }
    }
    byte[] bytes;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip.toByteArray()))) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new SolrException(ErrorCode.SERVER_ERROR, where + ": its chunks are not gzip (" + e.getMessage() + "); remove the model and deploy it again", e);
    }
    String sha = sha256(bytes);
    if (bytes.length != info.path("bytes").asLong(-1) || !sha.equals(info.path("sha256").asText())) {
      throw new SolrException(
          ErrorCode.SERVER_ERROR,
          where + ": read " + bytes.length + " bytes with SHA-256 " + sha + ", the descriptor says " + info.path("bytes").asLong(-1) + " bytes with " + info.path("sha256").asText() + "; remove the model and deploy it again");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Writes a model that has been validated: the name's lock node, every file's chunks, then the
   * descriptor in {@code complete}. On failure it removes what it wrote.
   *
   * @param collection the collection
   * @param name the new model's name
   * @param files file name → text ({@code manifest.json} and {@code model.txt}, optionally {@code
   *     memory.jsonl} and {@code memory-terms.jsonl})
   * @param summary fields added to the descriptor (trees, features, first stage, …)
   * @return the descriptor
   * @throws SolrException 409 when the name is taken (complete, or an upload in progress or
   *     interrupted)
   */
  public JsonNode write(String collection, String name, Map<String, String> files, Map<String, Object> summary) {
    checkName(name);
    String uploadId = UUID.randomUUID().toString();
    String path = modelPath(collection, name);
    ObjectNode lock = JSON.createObjectNode();
    lock.put("uploadId", uploadId);
    lock.put("startedAt", Instant.now().toString());
    try {
      zk.makePath(collectionPath(collection), false, true);
      try {
        zk.create(path, JSON.writeValueAsBytes(lock), CreateMode.PERSISTENT, true);
      } catch (KeeperException.NodeExistsException e) {
        // a retry after a lost connection may find the node it created itself
        JsonNode existing = JSON.readTree(zk.getData(path, null, null, true));
        if (!uploadId.equals(existing.path("uploadId").asText())) {
          throw taken(collection, name);
        }
      }
    } catch (KeeperException | InterruptedException | IOException e) {
      throw zkFailure("creating model " + name + " of collection " + collection, e);
    }
    try {
      ObjectNode descriptor = JSON.createObjectNode();
      descriptor.put("name", name);
      descriptor.put("collection", collection);
      descriptor.put("uploadId", uploadId);
      descriptor.put("uploadedAt", Instant.now().toString());
      ObjectNode infos = descriptor.putObject("files");
      for (String file : FILES) {
        String text = files.get(file);
        if (text == null) {
          continue;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] gzip = gzip(bytes);
        int chunks = Math.max(1, (gzip.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        zk.makePath(path + "/" + file, false, true);
        for (int i = 0; i < chunks; i++) {
          byte[] chunk = Arrays.copyOfRange(gzip, i * CHUNK_BYTES, Math.min(gzip.length, (i + 1) * CHUNK_BYTES));
          String chunkPath = chunkPath(collection, name, file, i);
          try {
            zk.create(chunkPath, chunk, CreateMode.PERSISTENT, true);
          } catch (KeeperException.NodeExistsException e) {
            zk.setData(chunkPath, chunk, -1, true);
          }
        }
        ObjectNode info = infos.putObject(file);
        info.put("bytes", bytes.length);
        info.put("gzipBytes", gzip.length);
        info.put("chunks", chunks);
        info.put("sha256", sha256(bytes));
      }
      for (Map.Entry<String, Object> entry : summary.entrySet()) {
        descriptor.set(entry.getKey(), JSON.valueToTree(entry.getValue()));
      }
      zk.create(path + "/" + COMPLETE, JSON.writeValueAsBytes(descriptor), CreateMode.PERSISTENT, true);
      return descriptor;
    } catch (KeeperException | InterruptedException | IOException | RuntimeException e) {
      try {
        zk.clean(path);
      } catch (KeeperException | InterruptedException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      if (e instanceof SolrException solr) {
        throw solr;
      }
      throw zkFailure("writing model " + name + " of collection " + collection, e);
    }
  }

  /**
   * Removes a model, complete or not: its {@code complete} node first (so it disappears at
   * once), then its files.
   *
   * @param collection the collection
   * @param name the model
   * @return whether it was complete (listed) before
   * @throws SolrException 404 when there is no such name at all
   */
  public boolean delete(String collection, String name) {
    checkName(name);
    String path = modelPath(collection, name);
    try {
      if (!zk.exists(path, true)) {
        throw notFound(collection, name);
      }
      boolean complete = true;
      try {
        zk.delete(path + "/" + COMPLETE, -1, true);
      } catch (KeeperException.NoNodeException e) {
        complete = false;
      }
      zk.clean(path);
      return complete;
    } catch (KeeperException | InterruptedException e) {
      throw zkFailure("removing model " + name + " of collection " + collection, e);
    }
  }

  private static String chunkPath(String collection, String name, String file, int index) {
    return modelPath(collection, name) + "/" + file + "/" + String.format(java.util.Locale.ROOT, "%06d", index);
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 3 + 64);
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  static SolrException notFound(String collection, String name) {
    return new SolrException(
        ErrorCode.NOT_FOUND,
        "model " + name + " is not deployed in collection " + collection + " (list the deployed models with action=list; deploy one with `pubmatch model deploy-solr`)");
  }

  private static SolrException taken(String collection, String name) {
    return new SolrException(
        ErrorCode.CONFLICT,
        "model " + name + " already exists in collection " + collection
            + ", or an upload of it is in progress or was interrupted; models are immutable: deploy under another name, or remove it first (action=delete)");
  }

  static SolrException zkFailure(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (e instanceof SolrException solr) {
      return solr;
    }
    return new SolrException(ErrorCode.SERVER_ERROR, "pubmatch models: ZooKeeper failed while " + what + ": " + e, e);
  }
}
