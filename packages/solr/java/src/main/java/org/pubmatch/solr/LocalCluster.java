package org.pubmatch.solr;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.cloud.ZkTestServer;
import org.apache.solr.common.cloud.ClusterState;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a local SolrCloud (embedded ZooKeeper plus N Solr nodes, all in this JVM) for tests and a
 * first try, using {@link MiniSolrCloudCluster} from solr-test-framework outside JUnit.
 *
 * <p>Arguments: {@code --dir DIR} (required; ZooKeeper data, node homes, solr.log and the port
 * layout live here), {@code --state FILE} (required; JSON written when ready and after every node
 * start/stop, deleted on a clean shutdown), {@code --nodes N} (default 2), {@code --control-port P}
 * (default 0 = any free port), {@code --host 127.0.0.1} (loopback only), {@code --owner-pid P}
 * (optional; the JVM shuts the cluster down and exits when process P exits, so a test run killed
 * midway does not leave the cluster running; it refuses to start when P is not running).
 *
 * <p>Control API on {@code http://127.0.0.1:P}: {@code GET /status}, {@code POST /nodes/{i}/stop},
 * {@code POST /nodes/{i}/start} (optionally {@code ?wait=active}), {@code POST /shutdown}. Prints exactly one line, {@code
 * pubmatch-solr: ready <state file>}, to stdout once the cluster is up.
 */
public final class LocalCluster {

  private static final String HOST = "127.0.0.1";
  private static final String CONTEXT = "/solr";
  private static final String LAYOUT_FILE = "pubmatch-cluster.properties";
  private static final String LOCK_FILE = "pubmatch-cluster.lock";
  private static final String LOG_CONFIG = "log4j2-pubmatch.xml";
  private static final int NODE_WAIT_SECONDS = 90;
  private static final Pattern NODE_PATH = Pattern.compile("^/nodes/(\\d+)/(start|stop)/?$");

  private final Options options;
  private final Node[] nodes;
  private final Object lock = new Object();
  private final AtomicBoolean shutdownStarted = new AtomicBoolean();
  private final CountDownLatch shutdownDone = new CountDownLatch(1);

  private Logger log;
  private volatile ZkTestServer zk;
  private volatile MiniSolrCloudCluster cluster;
  private volatile HttpServer control;
  private volatile ExecutorService controlExecutor;
  private volatile String zkHost;
  private volatile int controlPort;
  private FileChannel dirLockChannel;
  private volatile boolean ownsStateFile;

  /** One Solr node: a fixed home directory and, once started, a fixed port. */
  private static final class Node {
    final int index;
    final Path home;
    volatile int port;
    volatile String nodeName;
    volatile boolean running;
    JettySolrRunner jetty;

    Node(int index, Path home, int port) {
      this.index = index;
      this.home = home;
      this.port = port;
    }
  }

  /** Parsed command line. */
  static final class Options {
    int nodes = 2;
    Path dir;
    Path state;
    int controlPort = 0;
    String host = HOST;
    long ownerPid = 0;

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String value;
        int eq = a.indexOf('=');
        String name = a;
        if (a.startsWith("--") && eq > 0) {
          name = a.substring(0, eq);
          value = a.substring(eq + 1);
        } else {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing value for " + a);
          }
          value = args[++i];
        }
        switch (name) {
          case "--nodes":
            o.nodes = parseInt(name, value);
            if (o.nodes < 1 || o.nodes > 16) {
              throw new IllegalArgumentException("--nodes must be between 1 and 16");
            }
            break;
          case "--dir":
            o.dir = Path.of(value).toAbsolutePath().normalize();
            break;
          case "--state":
            o.state = Path.of(value).toAbsolutePath().normalize();
            break;
          case "--control-port":
            o.controlPort = parseInt(name, value);
            if (o.controlPort < 0 || o.controlPort > 65535) {
              throw new IllegalArgumentException("--control-port must be 0..65535");
            }
            break;
          case "--owner-pid":
            try {
              o.ownerPid = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("--owner-pid: not a number: " + value);
            }
            if (o.ownerPid < 1) {
              throw new IllegalArgumentException("--owner-pid must be a process id (>= 1)");
            }
            break;
          case "--host":
            if (!HOST.equals(value)) {
              throw new IllegalArgumentException("--host: only 127.0.0.1 (loopback) is supported");
            }
            o.host = value;
            break;
          default:
            throw new IllegalArgumentException("unknown argument " + a);
        }
      }
      if (o.dir == null) {
        throw new IllegalArgumentException("--dir is required");
      }
      if (o.state == null) {
        throw new IllegalArgumentException("--state is required");
      }
      return o;
    }

    private static int parseInt(String name, String value) {
      try {
        return Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ": not a number: " + value);
      }
    }
  }

  private LocalCluster(Options options) {
    this.options = options;
    this.nodes = new Node[options.nodes];
  }

  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("pubmatch-solr: " + e.getMessage());
      System.err.println(
          "usage: LocalCluster --dir DIR --state FILE [--nodes N] [--control-port P]"
              + " [--host 127.0.0.1] [--owner-pid P]");
      System.exit(2);
      return;
    }
    if (options.ownerPid > 0) {
      watchOwner(options.ownerPid);
    }
    try {
      Files.createDirectories(options.dir);
    } catch (IOException e) {
      System.err.println("pubmatch-solr: cannot create " + options.dir + ": " + e);
      System.exit(1);
      return;
    }
    // Must happen before anything touches log4j / slf4j.
    prepareSystemProperties(options.dir);
    routeJulToSlf4j();

    LocalCluster lc = new LocalCluster(options);
    lc.log = LoggerFactory.getLogger(LocalCluster.class);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(lc::shutdownQuietly, "pubmatch-solr-shutdown-hook"));
    long t0 = System.nanoTime();
    try {
      lc.start();
    } catch (Throwable t) {
      lc.log.error("LocalCluster failed to start", t);
      System.err.println("pubmatch-solr: failed to start: " + t);
      lc.shutdownQuietly();
      System.exit(1);
      return;
    }
    lc.log.info(
        "pubmatch-solr ready in {} ms: {} node(s), zkHost={}, control port {}",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
        lc.nodes.length,
        lc.zkHost,
        lc.controlPort);
    PrintStream out = System.out;
    out.println("pubmatch-solr: ready " + options.state);
    out.flush();
    // The JVM exits through POST /shutdown (exit 0) or a signal (shutdown hook).
    try {
      lc.shutdownDone.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Exits (running the shutdown hook, which stops the nodes and ZooKeeper) once process {@code
   * pid} has exited; exits at once with status 3 when it is not running.
   */
  static void watchOwner(long pid) {
    java.util.Optional<ProcessHandle> owner = ProcessHandle.of(pid);
    if (owner.isEmpty() || !owner.get().isAlive()) {
      System.err.println("pubmatch-solr: the owner process " + pid + " is not running");
      System.exit(3);
      return;
    }
    owner
        .get()
        .onExit()
        .thenRun(
            () -> {
              System.err.println("pubmatch-solr: the owner process " + pid + " exited; shutting down");
              System.exit(0);
            });
  }

  // ---------------------------------------------------------------- environment

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  /** System properties for running solr-test-framework's cluster outside a test run. */
  static void prepareSystemProperties(Path dir) {
    System.setProperty("pubmatch.log.dir", dir.toString());
    setIfAbsent("solr.log.dir", dir.toString());
    if (System.getProperty("log4j2.configurationFile") == null
        && System.getProperty("log4j.configurationFile") == null) {
      URL cfg = LocalCluster.class.getClassLoader().getResource(LOG_CONFIG);
      if (cfg != null) {
        System.setProperty("log4j2.configurationFile", cfg.toExternalForm());
      }
    }
    // Overseer-based collection API and cluster state updates (the Solr 9 defaults); the test
    // framework's builder would otherwise pick these.
    setIfAbsent("solr.distributedClusterStateUpdates", "false");
    setIfAbsent("solr.distributedCollectionConfigSetExecution", "false");
    // Paths outside the node homes (e.g. backups) must be under DIR.
    setIfAbsent("solr.allowPaths", dir.toString());
    // ZooKeeper: no admin HTTP server; the test server needs the 'stat' four-letter word.
    setIfAbsent("zookeeper.admin.enableServer", "false");
    setIfAbsent("zookeeper.4lw.commands.whitelist", "ruok,stat,srvr,mntr,conf");
    // Test-only watch-limit bookkeeping of ZkTestServer: off.
    setIfAbsent("tests.zk.violationReportAction", "IGNORE");
    setIfAbsent("tests.zk.limiterAction", "IGNORE");
    // No JMX reporters / metrics collection (the default cloud solr.xml reads this).
    setIfAbsent("metricsEnabled", "false");
  }

  /** Jersey and a few other libraries log through java.util.logging; send WARN+ to slf4j. */
  private static void routeJulToSlf4j() {
    java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    root.setLevel(Level.WARNING);
    root.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r == null || r.getLevel().intValue() < Level.WARNING.intValue()) {
              return;
            }
            String name = r.getLoggerName() == null ? "jul" : r.getLoggerName();
            Logger l = LoggerFactory.getLogger(name);
            String msg = new java.util.logging.SimpleFormatter().formatMessage(r);
            if (r.getLevel().intValue() >= Level.SEVERE.intValue()) {
              l.error(msg, r.getThrown());
            } else {
              l.warn(msg, r.getThrown());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }

  // ---------------------------------------------------------------- start

  private void start() throws Exception {
    Path dir = options.dir;
    lockDir(dir);
    ownsStateFile = true;
    Files.deleteIfExists(options.state);
    Files.deleteIfExists(tmpOf(options.state));

    Properties layout = loadLayout(dir.resolve(LAYOUT_FILE));
    for (int i = 0; i < nodes.length; i++) {
      int port = Integer.parseInt(layout.getProperty("node." + i + ".port", "0"));
      nodes[i] = new Node(i, dir.resolve("node" + i), port);
    }

    startControlServer();

    Path zkDir = dir.resolve("zookeeper").resolve("server1").resolve("data");
    boolean freshZk = !Files.isDirectory(zkDir.resolve("version-2"));
    int zkPort = Integer.parseInt(layout.getProperty("zk.port", "0"));
    zk = startZk(zkDir, zkPort, freshZk);
    zkHost = zk.getZkAddress();

    // The cluster object owns the Solr client and the list of running nodes; nodes are started
    // below with fixed homes (DIR/node<i>) and, when known, their previous ports so that cores
    // and replica registrations survive a restart with the same DIR.
    JettyConfig base = JettyConfig.builder().setContext(CONTEXT).stopAtShutdown(false).build();
    cluster =
        new MiniSolrCloudCluster(0, dir, MiniSolrCloudCluster.DEFAULT_CLOUD_SOLR_XML, base, zk, false);

    ExecutorService starter = Executors.newFixedThreadPool(nodes.length, daemonThreads("start"));
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (Node n : nodes) {
        futures.add(
            starter.submit(
                () -> {
                  startNewNode(n);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      starter.shutdownNow();
    }

    saveLayout(dir.resolve(LAYOUT_FILE));
    // With an existing --dir, collections come back: report ready once their replicas are active.
    for (Node n : nodes) {
      if (!waitForActiveReplicas(n.nodeName, NODE_WAIT_SECONDS)) {
        log.warn("not all replicas on node {} became active within {} s", n.index, NODE_WAIT_SECONDS);
      }
    }
    synchronized (lock) {
      writeState();
    }
  }

  /** One LocalCluster per DIR: ZooKeeper data and node homes must not be shared. */
  private void lockDir(Path dir) throws IOException {
    FileChannel ch =
        FileChannel.open(
            dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    java.nio.channels.FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      ch.close();
      throw new IllegalStateException("another LocalCluster is running with --dir " + dir);
    }
    dirLockChannel = ch; // held until the JVM exits
  }

  private ZkTestServer startZk(Path zkDir, int port, boolean format) throws Exception {
    Files.createDirectories(zkDir);
    ZkTestServer server = new ZkTestServer(zkDir, port);
    try {
      server.run(format);
      return server;
    } catch (RuntimeException e) {
      if (port == 0) {
        throw e;
      }
      log.warn("ZooKeeper could not start on its previous port {}; using a free port", port, e);
      try {
        server.shutdown();
      } catch (Exception ignored) {
        // best effort
      }
      ZkTestServer other = new ZkTestServer(zkDir, 0);
      other.run(format);
      return other;
    }
  }

  private void startNewNode(Node n) throws Exception {
    Files.createDirectories(n.home);
    Properties nodeProps = new Properties();
    nodeProps.setProperty("zkHost", zkHost);
    JettyConfig cfg =
        JettyConfig.builder()
            .setContext(CONTEXT)
            .setPort(n.port)
            .stopAtShutdown(false)
            .withPortRetryTime(n.port == 0 ? 0 : 15)
            .build();
    JettySolrRunner jetty = new JettySolrRunner(n.home.toString(), nodeProps, cfg);
    try {
      cluster.startJettySolrRunner(jetty, true);
    } catch (Exception e) {
      if (n.port != 0) {
        throw new IllegalStateException(
            "node "
                + n.index
                + " could not start on its previous port "
                + n.port
                + " (recorded in "
                + options.dir.resolve(LAYOUT_FILE)
                + "); free the port or use a new --dir",
            e);
      }
      throw e;
    }
    n.jetty = jetty;
    n.port = jetty.getLocalPort();
    n.nodeName = jetty.getNodeName();
    cluster.waitForNode(jetty, NODE_WAIT_SECONDS);
    n.running = true;
  }

  // ---------------------------------------------------------------- node control

  private void stopNode(int i) throws Exception {
    synchronized (lock) {
      ensureNotShuttingDown();
      Node n = node(i);
      if (!n.running) {
        return;
      }
      String nodeName = n.nodeName;
      cluster.stopJettySolrRunner(n.jetty);
      n.running = false;
      if (nodeName != null) {
        cluster
            .getZkStateReader()
            .waitForLiveNodes(
                NODE_WAIT_SECONDS, TimeUnit.SECONDS, (o, live) -> !live.contains(nodeName));
      }
      writeState();
    }
  }

  private void startNode(int i, boolean waitActive) throws Exception {
    synchronized (lock) {
      ensureNotShuttingDown();
      Node n = node(i);
      if (n.running) {
        return;
      }
      int previousPort = n.port;
      cluster.startJettySolrRunner(n.jetty, true); // true: bind the port it had before
      int port = n.jetty.getLocalPort();
      if (port != previousPort) {
        log.warn("node {} came back on port {} instead of {}", i, port, previousPort);
        n.port = port;
      }
      n.nodeName = n.jetty.getNodeName();
      cluster.waitForNode(n.jetty, NODE_WAIT_SECONDS);
      n.running = true;
      writeState();
      if (waitActive && !waitForActiveReplicas(n.nodeName, NODE_WAIT_SECONDS)) {
        throw new IllegalStateException(
            "node " + i + " is live but not all of its replicas became active within "
                + NODE_WAIT_SECONDS + " s");
      }
    }
  }

  /**
   * Waits until every replica hosted on {@code nodeName} (in every collection) is active.
   *
   * @return false on timeout
   */
  private boolean waitForActiveReplicas(String nodeName, int timeoutSeconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (true) {
      ClusterState cs = cluster.getZkStateReader().getClusterState();
      Set<String> live = cs.getLiveNodes();
      boolean allActive =
          cs.collectionStream()
              .allMatch(
                  c -> {
                    List<Replica> replicas = c.getReplicasOnNode(nodeName);
                    return replicas == null || replicas.stream().allMatch(r -> r.isActive(live));
                  });
      if (allActive) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(100);
    }
  }

  private Node node(int i) {
    if (i < 0 || i >= nodes.length) {
      throw new IllegalArgumentException(
          "no node " + i + " (nodes are 0.." + (nodes.length - 1) + ")");
    }
    return nodes[i];
  }

  private void ensureNotShuttingDown() {
    if (shutdownStarted.get()) {
      throw new IllegalStateException("the cluster is shutting down");
    }
  }

  // ---------------------------------------------------------------- shutdown

  /** Idempotent; safe to call from the shutdown hook, the control server and main. */
  private void shutdownQuietly() {
    if (!shutdownStarted.compareAndSet(false, true)) {
      try {
        shutdownDone.await(120, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    try {
      synchronized (lock) {
        HttpServer c = control;
        if (c != null) {
          c.stop(0);
        }
        ExecutorService ce = controlExecutor;
        if (ce != null) {
          ce.shutdownNow();
        }
        MiniSolrCloudCluster mc = cluster;
        if (mc != null) {
          try {
            mc.shutdown();
          } catch (Throwable t) {
            logWarn("error shutting down Solr nodes", t);
          }
        }
        ZkTestServer z = zk;
        if (z != null) {
          try {
            z.shutdown();
          } catch (Throwable t) {
            logWarn("error shutting down ZooKeeper", t);
          }
        }
        if (ownsStateFile) {
          try {
            Files.deleteIfExists(options.state);
            Files.deleteIfExists(tmpOf(options.state));
          } catch (IOException e) {
            logWarn("could not delete the state file", e);
          }
        }
      }
    } finally {
      shutdownDone.countDown();
      try {
        // log4j-api is a runtime-only dependency: flush and stop the file appender reflectively.
        Class.forName("org.apache.logging.log4j.LogManager").getMethod("shutdown").invoke(null);
      } catch (Throwable ignored) {
        // logging is best effort at this point
      }
    }
  }

  private void logWarn(String msg, Throwable t) {
    if (log != null) {
      log.warn(msg, t);
    } else {
      System.err.println("pubmatch-solr: " + msg + ": " + t);
    }
  }

  // ---------------------------------------------------------------- control server

  private void startControlServer() throws IOException {
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getByName(HOST), options.controlPort), 32);
    controlExecutor = Executors.newFixedThreadPool(4, daemonThreads("control"));
    server.setExecutor(controlExecutor);
    server.createContext("/", this::handle);
    server.start();
    control = server;
    controlPort = server.getAddress().getPort();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      drain(ex.getRequestBody());
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getPath();
      try {
        if (path.equals("/status") || path.equals("/status/")) {
          requireMethod(method, "GET");
          respond(ex, 200, stateJson());
          return;
        }
        if (path.equals("/shutdown") || path.equals("/shutdown/")) {
          requireMethod(method, "POST");
          ensureNotShuttingDown();
          respond(ex, 200, stateJson());
          Thread t =
              new Thread(
                  () -> {
                    shutdownQuietly();
                    System.exit(0);
                  },
                  "pubmatch-solr-shutdown");
          t.start();
          return;
        }
        Matcher m = NODE_PATH.matcher(path);
        if (m.matches()) {
          requireMethod(method, "POST");
          int i;
          try {
            i = Integer.parseInt(m.group(1));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad node index " + m.group(1));
          }
          if (m.group(2).equals("stop")) {
            stopNode(i);
          } else {
            startNode(i, "active".equals(queryParam(ex, "wait")));
          }
          respond(ex, 200, stateJson());
          return;
        }
        respond(ex, 404, errorJson("not found: " + method + " " + path));
      } catch (MethodNotAllowed e) {
        respond(ex, 405, errorJson(e.getMessage()));
      } catch (IllegalArgumentException e) {
        respond(ex, 400, errorJson(e.getMessage()));
      } catch (IllegalStateException e) {
        respond(ex, shutdownStarted.get() ? 503 : 500, errorJson(e.getMessage()));
      } catch (Exception e) {
        if (log != null) {
          log.error("control request {} {} failed", method, path, e);
        }
        respond(ex, 500, errorJson(String.valueOf(e)));
      }
    }
  }

  private static final class MethodNotAllowed extends Exception {
    private static final long serialVersionUID = 1L;

    MethodNotAllowed(String msg) {
      super(msg);
    }
  }

  private static void requireMethod(String actual, String expected) throws MethodNotAllowed {
    if (!expected.equalsIgnoreCase(actual)) {
      throw new MethodNotAllowed("use " + expected + " (got " + actual + ")");
    }
  }

  private static String queryParam(HttpExchange ex, String name) {
    String q = ex.getRequestURI().getRawQuery();
    if (q == null) {
      return null;
    }
    for (String kv : q.split("&")) {
      int eq = kv.indexOf('=');
      String k = eq < 0 ? kv : kv.substring(0, eq);
      if (k.equals(name)) {
        return eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  private static void drain(InputStream in) throws IOException {
    byte[] buf = new byte[4096];
    while (in.read(buf) >= 0) {
      // discard
    }
  }

  private static void respond(HttpExchange ex, int status, String json) throws IOException {
    byte[] body = (json + "\n").getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(body);
    }
  }

  // ---------------------------------------------------------------- state

  private String stateJson() {
    StringBuilder sb = new StringBuilder(256);
    sb.append("{\"pid\":").append(ProcessHandle.current().pid());
    sb.append(",\"zkHost\":").append(quote(zkHost));
    sb.append(",\"control\":").append(quote("http://" + HOST + ":" + controlPort));
    sb.append(",\"nodes\":[");
    for (int i = 0; i < nodes.length; i++) {
      Node n = nodes[i];
      if (i > 0) {
        sb.append(',');
      }
      sb.append("{\"node\":").append(n.index);
      sb.append(",\"url\":").append(quote("http://" + HOST + ":" + n.port + CONTEXT));
      sb.append(",\"nodeName\":").append(quote(n.nodeName));
      sb.append(",\"running\":").append(n.running);
      sb.append('}');
    }
    sb.append("]}");
    return sb.toString();
  }

  private static String errorJson(String message) {
    return "{\"error\":" + quote(message == null ? "error" : message) + "}";
  }

  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }

  /** Writes FILE.tmp, forces it to disk, then renames it over FILE. Caller holds {@link #lock}. */
  private void writeState() throws IOException {
    writeAtomically(options.state, stateJson() + "\n");
  }

  private static void writeAtomically(Path target, String content) throws IOException {
    Path parent = target.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Path tmp = tmpOf(target);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(java.nio.ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
    }
    try {
      Files.move(
          tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static Path tmpOf(Path file) {
    return file.resolveSibling(file.getFileName().toString() + ".tmp");
  }

  // ---------------------------------------------------------------- port layout

  private static Properties loadLayout(Path file) throws IOException {
    Properties p = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      }
    }
    return p;
  }

  private void saveLayout(Path file) throws IOException {
    Properties p = loadLayout(file);
    p.setProperty("zk.port", Integer.toString(zk.getPort()));
    for (Node n : nodes) {
      p.setProperty("node." + n.index + ".port", Integer.toString(n.port));
    }
    StringBuilder sb = new StringBuilder();
    try (Writer w = new java.io.StringWriter()) {
      p.store(w, "pubmatch-solr LocalCluster: ports reused when restarting with this --dir");
      sb.append(w);
    }
    writeAtomically(file, sb.toString());
  }

  private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
    AtomicInteger seq = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "pubmatch-solr-" + prefix + "-" + seq.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
