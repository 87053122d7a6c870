/**
 * A local SolrCloud for tests, benchmarks and a first try: several Solr nodes with an embedded
 * ZooKeeper on loopback, in one JVM of their own (`LocalCluster` of this package's Maven module,
 * built on `MiniSolrCloudCluster`). The JVM writes a state file (nodes, ZooKeeper, a control URL)
 * into its directory; the control URL stops and restarts single nodes (fault tests) and shuts the
 * cluster down.
 */
import { spawn } from 'node:child_process'
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isPubmatchError, json, parseJson, PubmatchError, type JsonShape } from '@pubmatch/core'
import { readJsonFile } from '@pubmatch/core/node'

/** The state file the cluster JVM keeps. */
export interface LocalClusterState {
  readonly pid: number
  /** ZooKeeper's address with the cluster's chroot. */
  readonly zkHost: string
  /** The control URL (`POST /nodes/{i}/stop`, `/nodes/{i}/start`, `/shutdown`; `GET /status`). */
  readonly control: string
  readonly nodes: ReadonlyArray<{ readonly node: number; readonly url: string; readonly running: boolean }>
}

const STATE: JsonShape<LocalClusterState> = json.object({
  pid: json.count,
  zkHost: json.string,
  control: json.string,
  nodes: json.array(json.object({ node: json.count, url: json.string, running: json.boolean })),
})

/** Options of {@link startLocalCluster}. */
export interface LocalClusterOptions {
  /** The cluster's directory (data, logs, state file). Created when missing. */
  readonly dir: string
  /** Solr nodes. Defaults to `2`. */
  readonly nodes?: number
  /** The JVM's heap. Defaults to `2g`. */
  readonly heap?: string
  /** Give up waiting for the cluster after this long (ms). Defaults to `180000`. */
  readonly timeoutMs?: number
  /**
   * A process whose exit shuts the cluster down (its JVM watches it): tests pass `process.pid`, so
   * a run killed midway leaves no cluster behind. Unset, the cluster runs until
   * {@link LocalCluster.shutdown} or {@link stopLocalCluster}. Has no effect when a cluster is
   * already running in `dir` (it is attached as it is).
   */
  readonly ownerPid?: number
}

/** A running local cluster. */
export interface LocalCluster {
  readonly dir: string
  readonly state: LocalClusterState
  /** The running nodes' base URLs. */
  urls(): string[]
  /** Stops node `i` (its replicas go down; the others answer). */
  stopNode(node: number): Promise<LocalClusterState>
  /** Starts node `i` again on its port and waits until its replicas have recovered from the others. */
  startNode(node: number): Promise<LocalClusterState>
  /** Shuts the whole cluster down and waits for the JVM to exit. */
  shutdown(): Promise<void>
}

/** The state file's name in the cluster directory. */
export const STATE_FILE = 'cluster.json'

const here = fileURLToPath(new URL('.', import.meta.url))
/** The Maven module's build output (the same relative path from `src/` and `dist/`). */
const JAVA_TARGET = resolve(here, '../java/target')
const JAR = join(JAVA_TARGET, 'pubmatch-solr-0.1.0.jar')
const CLASSPATH = join(JAVA_TARGET, 'classpath.txt')

/**
 * Whether the Java side is built (`pnpm build` runs Maven when it is on the PATH).
 */
export function javaBuilt(): boolean {
  return existsSync(JAR) && existsSync(CLASSPATH)
}

/**
 * Starts a local cluster, or returns the one already running in `dir`.
 * @param options - see {@link LocalClusterOptions}
 * @throws PubmatchError `NOT_FOUND` (the Java side is not built, or no `java`), `TIMEOUT`, `INTERNAL`
 *   (the JVM exited; its log is named)
 */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  if (options.ownerPid !== undefined && !(Number.isSafeInteger(options.ownerPid) && options.ownerPid >= 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `ownerPid must be a process id (an integer ≥ 1), got ${String(options.ownerPid)}`)
  }
  const dir = resolve(options.dir)
  const running = await readLocalCluster(dir)
  if (running !== undefined && (await alive(running))) {
    return attach(dir, running)
  }
  if (!javaBuilt()) {
    throw new PubmatchError(
      'NOT_FOUND',
      `the Solr module is not built (${JAR}); install a JDK 17 and Maven, then run \`pnpm build\` (packages/solr/java)`,
      { details: { file: JAR } },
    )
  }
  await mkdir(dir, { recursive: true })
  const stateFile = join(dir, STATE_FILE)
  const classpath = `${JAR}:${readFileSync(CLASSPATH, 'utf8').trim()}`
  const log = openSync(join(dir, 'jvm.log'), 'a')
  const child = spawn(
    process.env.JAVA_HOME === undefined ? 'java' : join(process.env.JAVA_HOME, 'bin', 'java'),
    [
      `-Xmx${options.heap ?? '2g'}`,
      '-XX:+UseG1GC',
      '-Djava.net.preferIPv4Stack=true',
      '-cp',
      classpath,
      'org.pubmatch.solr.LocalCluster',
      '--nodes',
      String(options.nodes ?? 2),
      '--dir',
      dir,
      '--state',
      stateFile,
      ...(options.ownerPid === undefined ? [] : ['--owner-pid', String(options.ownerPid)]),
    ],
    { detached: true, stdio: ['ignore', log, log] },
  )
  closeSync(log)
  let exited: number | null | undefined
  let failed: Error | undefined
  child.on('exit', (code) => {
    exited = code
  })
  child.on('error', (error) => {
    failed = error
  })
  child.unref()
  const deadline = Date.now() + (options.timeoutMs ?? 180_000)
  for (;;) {
    const state = await readLocalCluster(dir)
    if (state !== undefined && state.pid === child.pid && state.nodes.every((node) => node.running)) {
      return attach(dir, state)
    }
    if (failed !== undefined) {
      throw new PubmatchError('NOT_FOUND', `could not start java (${failed.message}); install a JDK 17 (\`bash scripts/dev-deps.sh java\`) or set JAVA_HOME`, {
        cause: failed,
      })
    }
    if (exited !== undefined) {
      throw new PubmatchError('INTERNAL', `the cluster JVM exited (${exited}) before it was ready; see ${join(dir, 'jvm.log')} and ${join(dir, 'solr.log')}`, {
        details: { file: join(dir, 'jvm.log') },
      })
    }
    if (Date.now() > deadline) {
      try {
        process.kill(child.pid!, 'SIGTERM')
      } catch {
        // already gone
      }
      throw new PubmatchError('TIMEOUT', `the cluster in ${dir} was not ready within ${options.timeoutMs ?? 180_000} ms; see ${join(dir, 'jvm.log')}`)
    }
    await sleep(250)
  }
}

/**
 * The state of the cluster in `dir`, if it wrote one (it may have stopped since).
 * @param dir - the cluster directory
 * @throws PubmatchError `MALFORMED_JSON` naming the file when the state file is not JSON or not of its shape
 */
export async function readLocalCluster(dir: string): Promise<LocalClusterState | undefined> {
  try {
    return await readJsonFile(join(resolve(dir), STATE_FILE), STATE)
  } catch (error) {
    if (isPubmatchError(error, 'NOT_FOUND') || isPubmatchError(error, 'IO')) {
      return undefined
    }
    throw error
  }
}

/**
 * Stops the cluster running in `dir`.
 * @param dir - the cluster directory
 * @returns whether a cluster was running
 */
export async function stopLocalCluster(dir: string): Promise<boolean> {
  const state = await readLocalCluster(dir)
  if (state === undefined || !(await alive(state))) {
    return false
  }
  await attach(resolve(dir), state).shutdown()
  return true
}

/** Whether the cluster's JVM answers on its control URL. */
async function alive(state: LocalClusterState): Promise<boolean> {
  try {
    const response = await fetch(`${state.control}/status`, { signal: AbortSignal.timeout(2000) })
    return response.ok
  } catch {
    return false
  }
}

function attach(dir: string, initial: LocalClusterState): LocalCluster {
  let state = initial
  const control = async (path: string): Promise<LocalClusterState> => {
    const response = await fetch(`${state.control}${path}`, { method: 'POST', signal: AbortSignal.timeout(180_000) })
    const text = await response.text()
    if (!response.ok) {
      throw new PubmatchError('INTERNAL', `the cluster's control ${path} answered ${response.status}: ${text}`)
    }
    state = parseJson(text, STATE, { file: `${state.control}${path}` })
    return state
  }
  return {
    dir,
    get state() {
      return state
    },
    urls: () => state.nodes.filter((node) => node.running).map((node) => node.url),
    stopNode: (node) => control(`/nodes/${node}/stop`),
    startNode: (node) => control(`/nodes/${node}/start?wait=active`),
    async shutdown() {
      try {
        await control('/shutdown')
      } catch {
        // the JVM may close the connection as it exits
      }
      const deadline = Date.now() + 60_000
      while (Date.now() < deadline) {
        try {
          process.kill(state.pid, 0)
        } catch {
          return
        }
        await sleep(200)
      }
      process.kill(state.pid, 'SIGKILL')
    },
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms))
}
