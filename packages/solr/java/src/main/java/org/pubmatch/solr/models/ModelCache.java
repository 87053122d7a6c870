package org.pubmatch.solr.models;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrException.ErrorCode;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.SolrCore;
import org.apache.zookeeper.Watcher;

/**
 * The models a Solr node has loaded from ZooKeeper: one cache per node ({@link
 * #of(CoreContainer)}), shared by every core of every collection on it, holding the {@link
 * #capacity()} most recently used models.
 *
 * <p>{@link #get} loads a model on first use (concurrent first uses of one model load it once;
 * the others wait for that load), checks it again against the collection's first stage, and
 * keeps it. Models are immutable per name, so a cached model stays valid until it is removed: a
 * one-shot ZooKeeper watch on its {@code complete} node drops it from the cache when the node is
 * deleted (or the node's ZooKeeper session expires), and the next use loads the name again.
 * Deploying another name never touches cached models; a query holding a {@link DeployedModel} keeps
 * using it even if it is evicted or removed meanwhile. A failed load is not cached.
 */
public final class ModelCache {

  /** Models kept per node unless the system property {@value #CAPACITY_PROPERTY} says otherwise. */
  public static final int DEFAULT_CAPACITY = 4;

  /** The system property setting the capacity. */
  public static final String CAPACITY_PROPERTY = "pubmatch.models.cacheSize";

  private static final Map<CoreContainer, ModelCache> CACHES = new WeakHashMap<>();

  private record Key(String collection, String name) {}

  private static final class Entry {
    final CompletableFuture<DeployedModel> future = new CompletableFuture<>();
  }

  private final ModelStore store;
  private final SolrZkClient zk;
  private final int capacity;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * A cache over a ZooKeeper client (Solr code uses {@link #of(CoreContainer)}, one per node).
   *
   * @param zk the node's ZooKeeper client
   * @param capacity models kept, at least 1
   */
  public ModelCache(SolrZkClient zk, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a model cache holds at least 1 model, got " + capacity);
    }
    this.store = new ModelStore(zk);
    this.zk = zk;
    this.capacity = capacity;
  }

  /**
   * The cache of a Solr node, created on first use.
   *
   * @param container the node's core container (SolrCloud mode)
   * @return its cache
   * @throws SolrException 400 when the node does not run in SolrCloud mode
   */
  public static ModelCache of(CoreContainer container) {
    synchronized (CACHES) {
      ModelCache cache = CACHES.get(container);
      if (cache == null) {
        if (!container.isZooKeeperAware()) {
          throw new SolrException(ErrorCode.BAD_REQUEST, "pubmatch models live in ZooKeeper: this Solr node does not run in SolrCloud mode");
        }
        int capacity = Integer.getInteger(CAPACITY_PROPERTY, DEFAULT_CAPACITY);
        cache = new ModelCache(container.getZkController().getZkClient(), Math.max(1, capacity));
        CACHES.put(container, cache);
      }
      return cache;
    }
  }

  /**
   * The cache of the node a core is on.
   *
   * @param core a core
   * @return its node's cache
   */
  public static ModelCache of(SolrCore core) {
    return of(core.getCoreContainer());
  }

  /**
   * A model of the collection a core belongs to (the call a rerank query makes).
   *
   * @param core the core serving the request
   * @param name the model's name
   * @return the model
   * @throws SolrException as {@link #get(String, String)}
   */
  public DeployedModel get(SolrCore core, String name) {
    return get(core.getCoreDescriptor().getCollectionName(), name);
  }

  /**
   * A model, loaded from ZooKeeper unless cached.
   *
   * @param collection the collection
   * @param name the model's name
   * @return the model
   * @throws SolrException 404 (no such model), 400 (bad name; the model no longer matches the
   *     collection's first stage), 500 (unreadable in ZooKeeper); the message names the model
   */
  public DeployedModel get(String collection, String name) {
    ModelStore.checkName(name);
    Key key = new Key(collection, name);
    Entry entry;
    boolean mine = false;
    synchronized (this) {
      entry = entries.get(key);
      if (entry == null) {
        entry = new Entry();
        entries.put(key, entry);
        mine = true;
        evict();
      }
    }
    if (mine) {
      load(key, entry);
    }
    try {
      return entry.future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SolrException(ErrorCode.SERVICE_UNAVAILABLE, "interrupted while loading model " + name + " of collection " + collection, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SolrException solr) {
        throw solr;
      }
      throw new SolrException(ErrorCode.SERVER_ERROR, "model " + name + " of collection " + collection + " could not be loaded: " + cause, cause);
    }
  }

  /**
   * Checks a cached model against ZooKeeper now (one read), rather than waiting for the watch on
   * its {@code complete} node: drops it when it was removed or deployed again since it was loaded.
   * For debug and warm-up calls; queries use {@link #get} alone.
   *
   * @param collection the collection
   * @param name the model
   */
  public void refresh(String collection, String name) {
    ModelStore.checkName(name);
    Key key = new Key(collection, name);
    Entry entry;
    synchronized (this) {
      entry = entries.get(key);
    }
    if (entry == null || !entry.future.isDone() || entry.future.isCompletedExceptionally()) {
      return;
    }
    JsonNode descriptor = store.descriptorOrNull(collection, name, null);
    String uploadId = entry.future.join().uploadId();
    if (descriptor == null || !uploadId.equals(descriptor.path("uploadId").asText())) {
      synchronized (this) {
        entries.remove(key, entry);
      }
    }
  }

  /**
   * Whether a model is cached (loaded or being loaded) on this node.
   *
   * @param collection the collection
   * @param name the model
   * @return whether the next {@link #get} needs no ZooKeeper read
   */
  public synchronized boolean isCached(String collection, String name) {
    Entry entry = entries.get(new Key(collection, name));
    return entry != null && !entry.future.isCompletedExceptionally();
  }

  /**
   * The cached models, least recently used first, as {@code collection/name}.
   *
   * @return the keys
   */
  public synchronized List<String> cached() {
    List<String> out = new ArrayList<>();
    entries.keySet().forEach(key -> out.add(key.collection() + "/" + key.name()));
    return Collections.unmodifiableList(out);
  }

  /**
   * Drops a model from the cache (the next use reloads it).
   *
   * @param collection the collection
   * @param name the model
   */
  public synchronized void invalidate(String collection, String name) {
    entries.remove(new Key(collection, name));
  }

  /**
   * How many models the cache keeps.
   *
   * @return the capacity
   */
  public int capacity() {
    return capacity;
  }

  private void evict() {
    Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
    while (entries.size() > capacity && it.hasNext()) {
      it.next();
      it.remove();
    }
  }

  private void load(Key key, Entry entry) {
    try {
      Watcher watcher = event -> {
        boolean expired = event.getType() == Watcher.Event.EventType.None && event.getState() == Watcher.Event.KeeperState.Expired;
        if (event.getType() != Watcher.Event.EventType.None || expired) {
          synchronized (this) {
            entries.remove(key, entry);
          }
        }
      };
      JsonNode descriptor = store.descriptorOrNull(key.collection(), key.name(), watcher);
      if (descriptor == null) {
        throw ModelStore.notFound(key.collection(), key.name());
      }
      String manifest = store.readFile(key.collection(), key.name(), descriptor, "manifest.json");
      String text = store.readFile(key.collection(), key.name(), descriptor, "model.txt");
      String memory = store.readFile(key.collection(), key.name(), descriptor, "memory.jsonl");
      String memoryTerms = store.readFile(key.collection(), key.name(), descriptor, ModelValidator.MEMORY_TERMS_FILE);
      ModelValidator.Checked checked = ModelValidator.check(key.name(), manifest, text, memory, memoryTerms);
      ModelValidator.checkFirstStage(key.name(), key.collection(), checked.manifest(), ModelValidator.collectionFirstStage(zk, key.collection()));
      entry.future.complete(new DeployedModel(key.collection(), key.name(), descriptor, checked));
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        entries.remove(key, entry);
      }
      entry.future.completeExceptionally(e);
    }
  }
}
