/**
 * The scale benchmark: in one run, on the same synthetic corpus and the same real PubMed log
 * queries, the embedded engine (one index) against SolrCloud on this machine (2 nodes, 2 shards ×
 * 2 replicas): indexing docs/s, index size, top-500 latency, memory, match-count parity, and a
 * projection to PubMed's 36M articles. Markdown on stdout and in `RESULTS-scale.md`, raw JSON in
 * `.cache/results/`; progress on stderr.
 *
 * `node tools/bench-solr/dist/scale.js [--docs 1000000] [--queries 500] [--dir tools/bench-solr/.cache] [--quick]`
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runJsonChild } from '@pubmatch/bench-kit'
import { truncateForMessage, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { createSolrClient, type LocalCluster } from '@pubmatch/solr'
import { parseScaleArgs, type ScaleOptions } from './scale-args.ts'
import type { ScaleCase, ScaleCaseResult } from './scale-cases.ts'
import { loadAverages, machineInfo, waitForIdle, withTimeLimit } from './scale-measure.ts'
import { projectCluster, projectEmbeddedShards, PUBMED_ARTICLES } from './scale-projection.ts'
import { logQueries } from './scale-queries.ts'
import { renderScaleReport } from './scale-report.ts'
import { SCALE_CASE_RESULTS, SCALE_RESULTS, type ScaleResults } from './scale-results.ts'
import {
  REPLICAS,
  SHARDS,
  clusterDirectory,
  collectionSize,
  createBenchCollection,
  indexBatches,
  listReplicas,
  loadParserClasses,
  memorySample,
  moduleJar,
  nodeClients,
  reloadCollection,
  runSingleShard,
  runSolrQueries,
  startFreshCluster,
  summarizeSolrLog,
} from './scale-solr.ts'
import { compareTotals, type TotalPair } from './scale-stats.ts'

const say = (text: string): void => {
  process.stderr.write(`bench-solr scale: ${text} (load ${loadAverages()[0]!.toFixed(2)})\n`)
}

/** The child process running now, killed on SIGINT/SIGTERM. */
let runningChild: ChildProcess | undefined

/**
 * Runs one case in a child process (`dist/scale-case.js`) and returns the JSON of its last stdout
 * line; the child is killed (SIGKILL) when it runs past `timeLimitMs` plus a minute's grace.
 */
function runCase<K extends ScaleCase['kind']>(
  request: ScaleCase & { kind: K },
  timeLimitMs: number,
): Promise<ScaleCaseResult[K]> {
  return runJsonChild(
    fileURLToPath(new URL('./scale-case.js', import.meta.url)),
    [JSON.stringify(request)],
    SCALE_CASE_RESULTS[request.kind] as JsonShape<ScaleCaseResult[K]>,
    {
      what: `case ${request.kind}`,
      timeLimitMs,
      nodeArgs: ['--expose-gc', '--max-old-space-size=16384'],
      onChild: (child) => (runningChild = child),
    },
  )
}

/**
 * Runs a phase, recording its wall time and the load averages before and after; a failure is
 * recorded in `results.errors` and gives `undefined`.
 */
async function phase<T>(
  results: ScaleResults,
  name: string,
  run: () => Promise<T>,
): Promise<T | undefined> {
  const before = loadAverages()
  const t0 = performance.now()
  say(`${name}: started`)
  try {
    return await run()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    results.errors.push({ phase: name, message: truncateForMessage(message, 400) })
    say(`${name}: FAILED: ${truncateForMessage(message, 400)}`)
    return undefined
  } finally {
    const seconds = (performance.now() - t0) / 1000
    results.phases.push({ phase: name, before, after: loadAverages(), seconds })
    say(`${name}: ${seconds.toFixed(0)} s`)
  }
}

async function runEmbedded(
  results: ScaleResults,
  options: ScaleOptions,
  dir: string,
  limitMs: number,
): Promise<void> {
  const indexDir = join(dir, `embedded-synth-${options.docs}`)
  results.embeddedBuild = await phase(results, 'pubmatch: build', () =>
    runCase(
      {
        kind: 'build',
        dir: indexDir,
        docs: options.docs,
        seed: options.seed,
        workers: options.embeddedWorkers,
        timeLimitMs: limitMs,
      },
      limitMs,
    ),
  )
  if (results.embeddedBuild !== undefined) {
    results.embeddedServe = await phase(results, 'pubmatch: queries', () =>
      runCase(
        {
          kind: 'serve',
          dir: indexDir,
          queries: options.queries,
          warmup: options.warmup,
          passes: options.passes,
          timeLimitMs: limitMs,
        },
        limitMs,
      ),
    )
  }
}

async function runSolr(
  results: ScaleResults,
  options: ScaleOptions,
  dir: string,
  limitMs: number,
  onCluster: (cluster: LocalCluster) => void,
): Promise<void> {
  const file = await phase(results, 'Solr: prepare batches (not timed)', () =>
    runCase(
      {
        kind: 'batches',
        dir,
        docs: options.docs,
        seed: options.seed,
        batchSize: options.batchSize,
      },
      limitMs,
    ),
  )
  if (file === undefined) {
    return
  }
  const clusterDir = clusterDirectory(dir)
  const queries = logQueries(options.queries, options.warmup)
  const cluster = await phase(
    results,
    'Solr: start cluster, load parser classes, create collection',
    async () => {
      const started = await startFreshCluster(clusterDir, options.heap)
      onCluster(started)
      results.solrModule = { atStart: moduleJar(started.state.pid) }
      const client = nodeClients(started, 300_000)[0]!
      await loadParserClasses(client, file, queries.warmup.slice(0, 5))
      await createBenchCollection(client)
      return started
    },
  )
  if (cluster === undefined) {
    return
  }
  const pid = cluster.state.pid
  const clients = nodeClients(cluster, 300_000)
  const indexing = await phase(results, 'Solr: indexing', () =>
    withTimeLimit('Solr indexing', limitMs, (signal) =>
      indexBatches({
        clients,
        commitClient: clients[0]!,
        file,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        jvmPid: pid,
        signal,
      }),
    ),
  )
  if (indexing === undefined) {
    return
  }
  results.solrIndexing = { ...indexing, prepSeconds: file.seconds, prepReused: file.reused }
  const afterIndexing = memorySample(pid)
  results.solrMemory = { afterIndexing }
  results.solrSettleSeconds = await phase(
    results,
    'Solr: wait for the JVM to go idle (merges)',
    () => waitForIdle(pid),
  )
  const replicas = await listReplicas(clients[0]!)
  results.solrSize = await phase(results, 'Solr: sizes', () => collectionSize(replicas, clusterDir))
  // no retries: a retried query's time would not be one request's, and failures should show
  const queryClient = createSolrClient({ urls: cluster.urls(), retries: 1, timeoutMs: 120_000 })
  const solrQueries = await phase(results, 'Solr: queries (distributed)', () =>
    withTimeLimit('Solr queries', limitMs, (signal) =>
      runSolrQueries(queryClient, queries, options.passes, signal),
    ),
  )
  results.solrMemory = { afterIndexing, afterQueries: memorySample(pid) }
  if (solrQueries === undefined) {
    return
  }
  results.solrQueries = solrQueries
  const singleShard = await phase(results, 'Solr: reload, queries on one shard', () =>
    withTimeLimit('single-shard queries', limitMs, async (signal) => {
      await reloadCollection(clients[0]!)
      return runSingleShard(replicas, queries, signal)
    }),
  )
  if (singleShard !== undefined) {
    results.solrQueries = { ...solrQueries, singleShard }
  }
}

function heapGiB(heap: string): number {
  const value = Number(heap.slice(0, -1))
  return heap.toLowerCase().endsWith('g') ? value : value / 1024
}

/** Parity and projection from what was measured. */
function derive(results: ScaleResults): void {
  const embedded = results.embeddedServe?.queries.totals
  const solr = results.solrQueries
  if (embedded !== undefined && solr !== undefined) {
    const measured = logQueries(results.options.queries, results.options.warmup).measured
    const pairs: TotalPair[] = measured.flatMap((query) => {
      const e = embedded[query.id]
      const s = solr.totals[query.id]
      return e === undefined || s === undefined
        ? []
        : [{ id: query.id, text: query.text, embedded: e, solr: s }]
    })
    results.parity = compareTotals(pairs)
  }
  const size = results.solrSize
  const indexing = results.solrIndexing
  if (solr?.singleShard === undefined || size === undefined || indexing === undefined) {
    return
  }
  const cluster = projectCluster({
    targetDocs: PUBMED_ARTICLES,
    measuredDocs: indexing.docs,
    measuredShards: SHARDS,
    replicas: REPLICAS,
    shardFactor: results.options.shardFactor,
    replicaBytes: size.replicaBytes,
    heapGiB: heapGiB(results.solrHeap),
    shardQtimeP50: solr.singleShard.qtime.p50,
    shardQtimeP99: solr.singleShard.qtime.p99,
    distributedP50: solr.latency.firstPass.p50,
    distributedP99: solr.latency.firstPass.p99,
    docsPerSecond: indexing.docsPerSecond,
  })
  const build = results.embeddedBuild
  const serve = results.embeddedServe
  results.projection = {
    solr: cluster,
    ...(build === undefined || serve === undefined
      ? {}
      : {
          embedded: projectEmbeddedShards({
            measuredDocs: build.docs,
            docsPerShard: cluster.docsPerShard,
            shards: cluster.shards,
            replicas: cluster.replicas,
            indexBytes: build.indexBytes,
            rssAfterOpenBytes: serve.rssAfterOpenMiB * 2 ** 20,
            p50: serve.queries.latency.firstPass.p50,
            p99: serve.queries.latency.firstPass.p99,
            coordinatorMs: 1,
          }),
        }),
  }
}

const RESULTS_MD = fileURLToPath(new URL('../RESULTS-scale.md', import.meta.url))

function writeOutputs(results: ScaleResults, dir: string): string {
  const report = renderScaleReport(results)
  const stamp = results.startedAt.replace(/[:.]/g, '-')
  const resultsDir = join(dir, 'results')
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(join(resultsDir, `scale-${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(join(resultsDir, `scale-${stamp}.md`), report)
  writeFileSync(RESULTS_MD, report)
  return report
}

/** `--report FILE.json`: renders a saved run again (to stdout and `RESULTS-scale.md`). */
function rerender(file: string): number {
  const results = readJsonFileSync(file, SCALE_RESULTS)
  const report = renderScaleReport(results)
  writeFileSync(RESULTS_MD, report)
  process.stdout.write(report)
  return 0
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  const options = parseScaleArgs(argv)
  const dir = resolve(options.dir)
  mkdirSync(dir, { recursive: true })
  const results: ScaleResults = {
    command: ['node', relative(process.cwd(), process.argv[1] ?? 'scale.js'), ...argv].join(' '),
    options: { ...options, dir },
    machine: machineInfo(),
    startedAt: new Date().toISOString(),
    phases: [],
    solrHeap: options.heap,
    errors: [],
  }
  const limitMs = options.timeoutMin * 60_000
  let cluster: LocalCluster | undefined
  const clusterDir = clusterDirectory(dir)
  const stopCluster = async (): Promise<void> => {
    const running = cluster
    cluster = undefined
    if (running !== undefined) {
      if (results.solrModule !== undefined) {
        results.solrModule.atEnd = moduleJar(running.state.pid)
      }
      say('stopping the cluster')
      await running.shutdown()
      const log = join(clusterDir, 'solr.log')
      results.solrLog = existsSync(log) ? summarizeSolrLog(readFileSync(log, 'utf8')) : undefined
    }
  }
  const finish = (): number => {
    results.endedAt = new Date().toISOString()
    derive(results)
    process.stdout.write(writeOutputs(results, dir))
    return results.errors.length === 0 ? 0 : 1
  }
  const interrupt = (): void => {
    runningChild?.kill('SIGKILL')
    results.errors.push({ phase: 'run', message: 'interrupted (SIGINT/SIGTERM)' })
    void stopCluster().finally(() => {
      finish()
      process.exit(130)
    })
  }
  process.once('SIGINT', interrupt)
  process.once('SIGTERM', interrupt)
  try {
    if (!options.skipEmbedded) {
      await runEmbedded(results, options, dir, limitMs)
    }
    await runSolr(results, options, dir, limitMs, (started) => {
      cluster = started
    })
  } catch (error) {
    results.errors.push({
      phase: 'run',
      message: error instanceof Error ? error.message : String(error),
    })
  } finally {
    await phase(results, 'Solr: shutdown', stopCluster)
  }
  return finish()
}

const [first, second] = process.argv.slice(2)
process.exit(first === '--report' && second !== undefined ? rerender(second) : await main())
