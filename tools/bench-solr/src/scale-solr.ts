/**
 * The SolrCloud side of the scale benchmark: a local 2-node cluster (@pubmatch/solr's
 * `startLocalCluster`), a 2-shard × 2-replica collection, indexing of the prepared batches with
 * a fixed number of update requests in flight, sizes and memory, and the queries through
 * `createSolrFirstStage` (distributed) and on one shard at a time (`distrib=false`).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { MIB, cpuSecondsSince, peakRssMiB, summarizeLatencies } from '@pubmatch/bench-kit'
import { getAnalyzer } from '@pubmatch/analysis'
import type { Query } from '@pubmatch/core'
import { PubmatchError, toPubmatchError } from '@pubmatch/core'
import {
  createSolrClient,
  createSolrFirstStage,
  solrFields,
  startLocalCluster,
  stopLocalCluster,
  type LocalCluster,
  type SolrClient,
  type SolrParams,
} from '@pubmatch/solr'
import { createCollection, translateQuery } from '@pubmatch/solr/internal'
import { readLines, type BatchesFile } from './scale-batches.ts'
import { checkSignal, diskUsage, processCpuSeconds, processMemory } from './scale-measure.ts'
import { runPasses, type LogQueries } from './scale-queries.ts'
import type {
  MemorySample,
  ModuleJar,
  SolrLogSummary,
  SolrCore,
  SolrIndexing,
  SolrQueries,
  SolrSize,
} from './scale-results.ts'
import { summarizePasses } from './scale-stats.ts'

/** The collection's name. */
export const COLLECTION = 'synth'
/**
 * The cluster's directory inside the working directory.
 * @param dir - the working directory
 */
export function clusterDirectory(dir: string): string {
  return join(dir, 'solr-cluster')
}

/** Shards and replicas of the measured collection. */
export const SHARDS = 2
export const REPLICAS = 2

const progress = (text: string): void => {
  process.stderr.write(`bench-solr scale: solr ${text}\n`)
}

/**
 * Starts a fresh 2-node cluster in `dir`: one left running there by an earlier run is stopped and
 * its directory deleted first.
 * @param dir - the cluster directory
 * @param heap - the JVM heap (`-Xmx`)
 */
export async function startFreshCluster(dir: string, heap: string): Promise<LocalCluster> {
  await stopLocalCluster(dir)
  if (existsSync(dir)) {
    rmSync(dir, { recursive: true, force: true })
  }
  return startLocalCluster({ dir, nodes: 2, heap, timeoutMs: 300_000, ownerPid: process.pid })
}

/**
 * A client per node (updates go round-robin over the nodes, as a load balancer would send them).
 * @param cluster - the cluster
 * @param timeoutMs - per-request timeout
 */
export function nodeClients(cluster: LocalCluster, timeoutMs: number): SolrClient[] {
  return cluster
    .urls()
    .map((url, i, urls) =>
      createSolrClient({ urls: [url, ...urls.filter((_, j) => j !== i)], timeoutMs }),
    )
}

/**
 * Creates the benchmark collection: field set `pubmed`, 2 shards × 2 replicas.
 * @param client - a client
 */
export async function createBenchCollection(client: SolrClient): Promise<void> {
  await createCollection(client, {
    collection: COLLECTION,
    fieldSet: 'pubmed',
    shards: SHARDS,
    replicas: REPLICAS,
  })
}

/** Options of {@link indexBatches}. */
export interface IndexBatchesOptions {
  readonly clients: readonly SolrClient[]
  /** A client for the final commit (a long timeout). */
  readonly commitClient: SolrClient
  readonly file: BatchesFile
  readonly batchSize: number
  readonly concurrency: number
  readonly jvmPid: number
  readonly signal: AbortSignal
}

/**
 * Sends every batch of the file to `COLLECTION/update` with `concurrency` requests in flight,
 * then one `commit=true`; wall time from the first request to the end of the commit.
 * @param options - see {@link IndexBatchesOptions}
 * @throws PubmatchError from Solr, `TIMEOUT` when the signal aborts, `INTERNAL` when the
 *   collection then holds another number of documents
 */
export async function indexBatches(
  options: IndexBatchesOptions,
): Promise<Omit<SolrIndexing, 'prepSeconds' | 'prepReused'>> {
  const { clients, concurrency, signal } = options
  const inflight = new Set<Promise<void>>()
  let failure: unknown
  let sent = 0
  let done = 0
  let lastReport = performance.now()
  const jvmCpu0 = processCpuSeconds(options.jvmPid)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for await (const body of readLines(options.file.path)) {
    checkSignal(signal, 'Solr indexing')
    if (failure !== undefined) {
      throw toPubmatchError(failure)
    }
    const client = clients[sent % clients.length]!
    sent++
    const request: Promise<void> = client
      .request({ path: `${COLLECTION}/update`, body, contentType: 'application/json' })
      .then(() => {
        done += options.batchSize
      })
      .catch((error: unknown) => {
        failure ??= error
      })
      .finally(() => inflight.delete(request))
    inflight.add(request)
    if (inflight.size >= concurrency) {
      await Promise.race(inflight)
    }
    const now = performance.now()
    if (now - lastReport > 30_000) {
      lastReport = now
      const docs = Math.min(done, options.file.docs)
      progress(
        `indexing: ${docs.toLocaleString('en-US')} of ${options.file.docs.toLocaleString('en-US')} docs, ${Math.round(docs / ((now - t0) / 1000))} docs/s, JVM RSS ${Math.round(processMemory(options.jvmPid).rss)} MiB, ${((now - t0) / 1000).toFixed(0)} s`,
      )
    }
  }
  await Promise.all(inflight)
  if (failure !== undefined) {
    throw toPubmatchError(failure)
  }
  checkSignal(signal, 'Solr indexing')
  progress('indexing: all batches sent, committing')
  const tc = performance.now()
  await options.commitClient.request({
    path: `${COLLECTION}/update`,
    params: { commit: 'true', waitSearcher: 'true' },
    retry: false,
  })
  const end = performance.now()
  const jvmCpuSeconds = processCpuSeconds(options.jvmPid) - jvmCpu0
  const clientCpuSeconds = cpuSecondsSince(cpu0)
  const numFound = await countDocuments(options.commitClient)
  if (numFound !== options.file.docs) {
    throw new PubmatchError(
      'INTERNAL',
      `@pubmatch/bench-solr: the collection holds ${numFound} documents after the commit, expected ${options.file.docs}`,
    )
  }
  const seconds = (end - t0) / 1000
  return {
    docs: options.file.docs,
    batchSize: options.batchSize,
    concurrency,
    seconds,
    commitSeconds: (end - tc) / 1000,
    docsPerSecond: options.file.docs / seconds,
    jvmCpuSeconds,
    clientCpuSeconds,
    docsPerJvmCpuSecond: options.file.docs / jvmCpuSeconds,
    numFound,
  }
}

async function countDocuments(client: SolrClient): Promise<number> {
  const answer = await client.request({
    path: `${COLLECTION}/select`,
    params: { q: '*:*', rows: 0 },
  })
  return (answer.response as { numFound: number }).numFound
}

/** One replica as CLUSTERSTATUS lists it. */
export interface ReplicaInfo {
  readonly core: string
  readonly shard: string
  readonly baseUrl: string
  readonly nodeName: string
  readonly leader: boolean
}

/**
 * The collection's replicas (Collections API `CLUSTERSTATUS`).
 * @param client - a client
 */
export async function listReplicas(client: SolrClient): Promise<ReplicaInfo[]> {
  const answer = await client.request({
    path: 'admin/collections',
    params: { action: 'CLUSTERSTATUS', collection: COLLECTION },
  })
  type Replica = { core: string; base_url: string; node_name: string; leader?: string }
  const collections = (
    answer.cluster as {
      collections: Record<string, { shards: Record<string, { replicas: Record<string, Replica> }> }>
    }
  ).collections
  const shards = collections[COLLECTION]?.shards ?? {}
  return Object.entries(shards).flatMap(([shard, { replicas }]) =>
    Object.values(replicas).map((replica) => ({
      core: replica.core,
      shard,
      baseUrl: replica.base_url,
      nodeName: replica.node_name,
      leader: replica.leader === 'true',
    })),
  )
}

/**
 * Index sizes per core (CoreAdmin `STATUS` on every node) and the disk use of the cluster
 * directory.
 * @param replicas - the collection's replicas
 * @param clusterDir - the cluster directory
 */
export async function collectionSize(
  replicas: readonly ReplicaInfo[],
  clusterDir: string,
): Promise<SolrSize> {
  const cores: SolrCore[] = []
  for (const replica of replicas) {
    const client = createSolrClient({ urls: [replica.baseUrl] })
    const answer = await client.request({
      path: 'admin/cores',
      params: { action: 'STATUS', core: replica.core },
    })
    const index = (
      answer.status as Record<
        string,
        { index?: { numDocs?: number; sizeInBytes?: number; segmentCount?: number } }
      >
    )[replica.core]?.index
    cores.push({
      core: replica.core,
      shard: replica.shard,
      node: replica.nodeName,
      leader: replica.leader,
      numDocs: index?.numDocs ?? Number.NaN,
      sizeInBytes: index?.sizeInBytes ?? Number.NaN,
      segmentCount: index?.segmentCount ?? Number.NaN,
    })
  }
  const indexBytes = cores.reduce((sum, core) => sum + core.sizeInBytes, 0)
  const disk = diskUsage(clusterDir)
  return {
    cores,
    indexBytes,
    replicaBytes: indexBytes / Math.max(1, cores.length),
    copyBytes: indexBytes / REPLICAS,
    diskBytes: disk.total,
    tlogBytes: disk.tlog,
    indexDirBytes: disk.index,
  }
}

/**
 * The cluster JVM's and this process's memory now.
 * @param jvmPid - the JVM
 */
export function memorySample(jvmPid: number): MemorySample {
  const jvm = processMemory(jvmPid)
  return {
    jvmRssMiB: jvm.rss,
    jvmPeakRssMiB: jvm.peak,
    jvmRssAnonMiB: jvm.anon,
    jvmRssFileMiB: jvm.file,
    nodeRssMiB: process.memoryUsage().rss / MIB,
    nodePeakRssMiB: peakRssMiB(),
  }
}

const fields = solrFields('pubmed')
const analyzer = getAnalyzer('biomedical')

/** Whether the translation leaves anything to send (else the first stage answers without a request). */
function isSent(query: Query): boolean {
  try {
    return !translateQuery(query.text, { fields, analyzer, match: 'all', parse: { recover: true } })
      .empty
  } catch {
    return false
  }
}

/**
 * The measured queries through `createSolrFirstStage` (match all, top 500, no MeSH lookup),
 * one at a time: the warm-up once, then `passes` passes.
 * @param client - a client
 * @param queries - warm-up and measured queries
 * @param passes - measured passes
 * @param signal - the phase's signal
 */
export async function runSolrQueries(
  client: SolrClient,
  queries: LogQueries,
  passes: number,
  signal: AbortSignal,
): Promise<SolrQueries> {
  const stage = createSolrFirstStage({
    client,
    collection: COLLECTION,
    fields,
    analyzer,
    match: 'all',
    recover: true,
  })
  const sent = new Set(queries.measured.filter(isSent).map((query) => query.id))
  const samples = await runPasses(
    queries,
    passes,
    async (text) => {
      const result = await stage.search(text, { limit: 500 })
      return { total: result.total, qtimeMs: result.qtimeMs }
    },
    {
      sent: (query) => sent.has(query.id),
      onPass: (pass) => progress(`queries: pass ${pass} of ${passes} done`),
      check: () => checkSignal(signal, 'Solr queries'),
      onFailure: (error, failed) => {
        const http = (failed['UPSTREAM_HTTP'] ?? 0) + (failed['NETWORK'] ?? 0)
        if (http > Math.max(5, queries.measured.length * 0.05)) {
          throw new PubmatchError(
            'INTERNAL',
            `@pubmatch/bench-solr: ${http} queries failed in Solr; the last: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          )
        }
      },
    },
  )
  const totals = Object.values(samples.totals)
  return {
    queries: queries.measured.length,
    warmup: queries.warmup.length,
    latency: summarizePasses(samples.latencies),
    qtime: summarizePasses(samples.qtimes),
    failed: samples.failed,
    totals: samples.totals,
    emptyQueries: totals.filter((total) => total === 0).length,
    notSent: queries.measured.length - sent.size,
  }
}

/**
 * Reloads the collection (every core opens a new searcher with empty caches), so that a later
 * pass over queries already run is not answered from Solr's query-result or filter caches.
 * @param client - a client
 */
export async function reloadCollection(client: SolrClient): Promise<void> {
  await client.request({
    path: 'admin/collections',
    params: { action: 'RELOAD', name: COLLECTION },
    retry: false,
  })
}

/**
 * The measured queries on each shard's leader alone (`distrib=false`: the shard's own statistics,
 * no fan-out), after a warm-up on each; QTime and wall ms, both shards pooled.
 * @param replicas - the collection's replicas
 * @param queries - warm-up and measured queries
 * @param signal - the phase's signal
 */
export async function runSingleShard(
  replicas: readonly ReplicaInfo[],
  queries: LogQueries,
  signal: AbortSignal,
): Promise<NonNullable<SolrQueries['singleShard']>> {
  const qtimes: number[] = []
  const walls: number[] = []
  for (const leader of replicas.filter((replica) => replica.leader)) {
    const client = createSolrClient({ urls: [leader.baseUrl] })
    const one = async (text: string): Promise<{ qtime: number; wall: number } | undefined> => {
      let params: SolrParams
      try {
        const translated = translateQuery(text, {
          fields,
          analyzer,
          match: 'all',
          parse: { recover: true },
        })
        if (translated.empty) {
          return undefined
        }
        params = {
          ...translated.params,
          fl: 'id,score',
          rows: 500,
          sort: 'score desc,id asc',
          distrib: 'false',
        }
      } catch {
        return undefined
      }
      const t = performance.now()
      const answer = await client.request({ path: `${leader.core}/select`, params })
      return { qtime: answer.responseHeader?.QTime ?? 0, wall: performance.now() - t }
    }
    for (const query of queries.warmup) {
      checkSignal(signal, 'single-shard queries')
      await one(query.text).catch(() => undefined)
    }
    for (const query of queries.measured) {
      checkSignal(signal, 'single-shard queries')
      const timing = await one(query.text).catch(() => undefined)
      if (timing !== undefined) {
        qtimes.push(timing.qtime)
        walls.push(timing.wall)
      }
    }
    progress(`single-shard queries on ${leader.core} done`)
  }
  return { qtime: summarizeLatencies(qtimes), wall: summarizeLatencies(walls) }
}

/**
 * The jar of the Solr module the cluster JVM was started with (the first `-cp` entry of its
 * command line), fingerprinted: a rebuild while the JVM runs makes classes it has not loaded yet
 * unloadable (`ClassNotFoundException`), so the run records the jar at start and at the end.
 * @param pid - the cluster JVM
 */
export function moduleJar(pid: number): ModuleJar {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  const path = (args[args.indexOf('-cp') + 1] ?? '').split(':')[0] ?? ''
  const bytes = readFileSync(path)
  return {
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    modified: statSync(path).mtime.toISOString(),
    bytes: bytes.length,
  }
}

/**
 * Loads the query parser's classes into the JVM right after it starts (before a rebuild of the
 * module can make them unloadable): a throw-away 1-shard collection with the first batch of
 * the file, committed, a few queries, deleted again. Not part of any measurement.
 * @param client - a client
 * @param file - the batches file
 * @param queries - a few queries to run
 */
export async function loadParserClasses(
  client: SolrClient,
  file: BatchesFile,
  queries: readonly Query[],
): Promise<void> {
  const name = 'classload'
  await createCollection(client, { collection: name, fieldSet: 'pubmed', shards: 1, replicas: 1 })
  for await (const body of readLines(file.path)) {
    await client.request({
      path: `${name}/update`,
      params: { commit: 'true' },
      body,
      contentType: 'application/json',
    })
    break
  }
  const stage = createSolrFirstStage({
    client,
    collection: name,
    fields,
    analyzer,
    match: 'all',
    recover: true,
  })
  for (const query of queries) {
    await stage.search(query.text, { limit: 500 }).catch(() => undefined)
  }
  await client.request({
    path: 'admin/collections',
    params: { action: 'DELETE', name },
    retry: false,
  })
  await client.request({
    path: 'admin/configs',
    params: { action: 'DELETE', name: `pubmatch-${name}` },
    retry: false,
  })
}

/**
 * Counts the WARN and ERROR entries of a `solr.log` text by kind.
 * @param text - the log
 * @param keep - kinds listed. Defaults to `6`.
 */
export function summarizeSolrLog(text: string, keep = 6): SolrLogSummary {
  const counts = new Map<string, number>()
  let errors = 0
  let warnings = 0
  for (const line of text.split('\n')) {
    const match =
      /^\d{4}-\d\d-\d\d [\d:.]+ (ERROR|WARN) +\([^)]*\) (?:\[[^\]]*\] )?(\S+) (.*)$/.exec(line)
    if (match === null) {
      continue
    }
    if (match[1] === 'ERROR') {
      errors++
    } else {
      warnings++
    }
    const kind = `${match[1]} ${match[2]} ${match[3]!.slice(0, 70)}`
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  const top = [...counts.entries()]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind))
    .slice(0, keep)
  return { errors, warnings, top }
}
