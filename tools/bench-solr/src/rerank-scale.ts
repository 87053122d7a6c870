/**
 * The two-stage search in SolrCloud, measured in one run against the embedded reranked engine on
 * the same synthetic corpus, with the same 500-tree model and the same queries: latency at one
 * client and at paced rates (both requests end to end from the client, and the share of each),
 * the serving process's and the cluster JVM's memory, a node stopped and restarted under load, a
 * second model deployed and switched to under load, and the 36M projection with the second stage.
 * Markdown on stdout and in `RESULTS-rerank.md`, raw JSON in `.cache/results/`; progress on stderr.
 *
 * `node tools/bench-solr/dist/rerank-scale.js [--docs 100000] [--quick] [--dir DIR] …` (see `rerank-args.ts`)
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runJsonChild } from '@pubmatch/bench-kit'
import { json, PubmatchError, truncateForMessage, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import {
  createSolrClient,
  deployModel,
  indexCorpus,
  loadModelOnReplicas,
  type LocalCluster,
} from '@pubmatch/solr'
import { parseRerankArgs, type RerankOptions } from './rerank-args.ts'
import type { RerankCase } from './rerank-case.ts'
import { RERANK_EMBEDDED, type RerankEmbedded } from './rerank-embedded.ts'
import { renderRerankReport } from './rerank-report.ts'
import { damonPageout, jvmHeap } from './rerank-jvm.ts'
import { deriveRerank, type JvmSample, type RerankResults } from './rerank-results.ts'
import { RERANK_SETUP, type RerankSetup } from './rerank-setup.ts'
import { RERANK_SOLR } from './rerank-solr.ts'
import { loadAverages, machineInfo, waitForIdle, withTimeLimit } from './scale-measure.ts'
import {
  COLLECTION,
  REPLICAS,
  SHARDS,
  collectionSize,
  listReplicas,
  memorySample,
  moduleJar,
  startFreshCluster,
} from './scale-solr.ts'

const say = (text: string): void => {
  process.stderr.write(`bench-solr rerank: ${text} (load ${loadAverages()[0]!.toFixed(2)})\n`)
}

let runningChild: ChildProcess | undefined

/**
 * Runs one case in a child process (`dist/rerank-case.js`) and returns the JSON of its last
 * stdout line, checked against `shape`; killed past `timeLimitMs` plus a minute.
 */
function runCase<T>(request: RerankCase, shape: JsonShape<T>, timeLimitMs: number): Promise<T> {
  return runJsonChild(
    fileURLToPath(new URL('./rerank-case.js', import.meta.url)),
    [JSON.stringify(request)],
    shape,
    {
      what: `case ${request.kind}`,
      timeLimitMs,
      nodeArgs: ['--expose-gc', '--max-old-space-size=16384'],
      nullAsNaN: true,
      onChild: (child) => (runningChild = child),
    },
  )
}

async function phase<T>(
  results: RerankResults,
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

function jvmSample(pid: number): JvmSample {
  const heap = jvmHeap(pid)
  return { memory: memorySample(pid), ...(heap === undefined ? {} : { heap }) }
}

async function runSolr(
  results: RerankResults,
  options: RerankOptions,
  setup: RerankSetup,
  embedded: RerankEmbedded | undefined,
  dir: string,
  limitMs: number,
  onCluster: (cluster: LocalCluster) => void,
): Promise<void> {
  const clusterDir = join(dir, 'rerank-cluster')
  const cluster = await phase(results, 'Solr: start cluster', async () => {
    const started = await startFreshCluster(clusterDir, options.heap)
    onCluster(started)
    results.module = { atStart: moduleJar(started.state.pid) }
    return started
  })
  if (cluster === undefined) {
    return
  }
  const pid = cluster.state.pid
  const admin = createSolrClient({ urls: cluster.urls(), timeoutMs: 300_000 })
  const indexed = await phase(results, 'Solr: indexCorpus (2 shards × 2 replicas)', () =>
    withTimeLimit('Solr indexing', limitMs, async (signal) => {
      const t0 = performance.now()
      let last = t0
      const result = await indexCorpus({
        client: admin,
        corpus: setup.corpus,
        collection: COLLECTION,
        shards: SHARDS,
        replicas: REPLICAS,
        signal,
        onProgress: ({ done, total }) => {
          if (performance.now() - last > 30_000) {
            last = performance.now()
            say(
              `  indexed ${done.toLocaleString('en-US')} of ${(total ?? setup.docCount).toLocaleString('en-US')}, ${Math.round(done / ((last - t0) / 1000))} docs/s`,
            )
          }
        },
      })
      return {
        docs: result.added,
        seconds: result.seconds,
        docsPerSecond: result.added / result.seconds,
        errors: result.errorList.length,
      }
    }),
  )
  if (indexed === undefined) {
    return
  }
  results.indexing = indexed
  const [modelA, modelB] = setup.models
  if (modelA === undefined || modelB === undefined) {
    throw new PubmatchError('INTERNAL', '@pubmatch/bench-solr: setup trained fewer than two models')
  }
  results.deployed = await phase(
    results,
    'Solr: deploy model A, load it on every replica',
    async () => {
      const t0 = performance.now()
      await deployModel({ client: admin, collection: COLLECTION, dir: modelA.dir, name: 'A' })
      const t1 = performance.now()
      await loadModelOnReplicas({ client: admin, collection: COLLECTION, name: 'A' })
      return {
        name: 'A',
        deployMs: t1 - t0,
        loadMs: performance.now() - t1,
        trees: modelA.trees,
        modelBytes: modelA.modelBytes,
      }
    },
  )
  if (results.deployed === undefined) {
    return
  }
  await phase(results, 'Solr: wait for the JVM to go idle (merges)', () => waitForIdle(pid))
  const replicas = await listReplicas(admin)
  results.size = await phase(results, 'Solr: sizes', () => collectionSize(replicas, clusterDir))
  results.jvm = { before: jvmSample(pid) }
  const solr = await phase(results, 'Solr: serving process (latency, one shard, fault, swap)', () =>
    runCase(
      {
        kind: 'solr',
        clusterDir,
        collection: COLLECTION,
        queries: options.queries,
        warmup: options.warmup,
        accepted: embedded?.accepted ?? [],
        rows: options.rows,
        depth: options.depth,
        rates: options.rates,
        pacedRequests: options.pacedRequests,
        checkQueries: options.checkQueries,
        modelA: 'A',
        modelB: 'B',
        modelBDir: modelB.dir,
        faultRate: options.faultRate,
        faultRequests: options.faultRequests,
        stopNode: options.stopNode,
        swapRate: options.swapRate,
        swapRequests: options.swapRequests,
        shardQueries: options.shardQueries,
      },
      RERANK_SOLR,
      limitMs,
    ),
  )
  results.jvm = { ...results.jvm, after: jvmSample(pid) }
  if (solr !== undefined) {
    results.solr = solr
  }
}

const RESULTS_MD = fileURLToPath(new URL('../RESULTS-rerank.md', import.meta.url))

function writeOutputs(results: RerankResults, dir: string): string {
  const report = renderRerankReport(results)
  const stamp = results.startedAt.replace(/[:.]/g, '-')
  const resultsDir = join(dir, 'results')
  mkdirSync(resultsDir, { recursive: true })
  writeFileSync(join(resultsDir, `rerank-${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(join(resultsDir, `rerank-${stamp}.md`), report)
  if (!results.options.quick) {
    writeFileSync(RESULTS_MD, report)
  }
  return report
}

/** `--report FILE.json`: renders a saved run again (to stdout and `RESULTS-rerank.md`). */
function rerender(file: string): number {
  // the raw file this program wrote; its shape is checked loosely (an object)
  const results = readJsonFileSync(file, json.record(json.unknown), {
    nullAsNaN: true,
  }) as unknown as RerankResults
  const report = renderRerankReport(results)
  if (!results.options.quick) {
    writeFileSync(RESULTS_MD, report)
  }
  process.stdout.write(report)
  return 0
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  const options = parseRerankArgs(argv)
  const dir = resolve(options.dir)
  mkdirSync(dir, { recursive: true })
  const results: RerankResults = {
    command: ['node', relative(process.cwd(), process.argv[1] ?? 'rerank-scale.js'), ...argv].join(
      ' ',
    ),
    options: { ...options, dir },
    machine: machineInfo(),
    startedAt: new Date().toISOString(),
    phases: [],
    errors: [],
    solrHeap: options.heap,
    damonPageout: damonPageout(),
  }
  const limitMs = options.timeoutMin * 60_000
  let cluster: LocalCluster | undefined
  const stopCluster = async (): Promise<void> => {
    const running = cluster
    cluster = undefined
    if (running !== undefined) {
      if (results.module !== undefined) {
        try {
          results.module.atEnd = moduleJar(running.state.pid)
        } catch {
          // the JVM is gone
        }
      }
      say('stopping the cluster')
      await running.shutdown()
    }
  }
  const finish = (): number => {
    results.endedAt = new Date().toISOString()
    deriveRerank(results)
    process.stdout.write(writeOutputs(results, dir))
    return results.errors.length === 0 && (results.solr?.errors.length ?? 0) === 0 ? 0 : 1
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
    const setup = await phase(
      results,
      'setup: corpus store, index, forward store, models A and B (cached)',
      () =>
        runCase(
          {
            kind: 'setup',
            dir,
            docs: options.docs,
            seed: options.seed,
            queries: options.queries,
            warmup: options.warmup,
            trainQueries: options.trainQueries,
            trees: options.trees,
            depth: options.depth,
          },
          RERANK_SETUP,
          limitMs,
        ),
    )
    if (setup !== undefined) {
      results.setup = setup
      if (!options.skipEmbedded) {
        results.embedded = await phase(results, 'embedded: reranked engine (latency, memory)', () =>
          runCase(
            {
              kind: 'embedded',
              index: setup.index,
              model: setup.models[0]!.dir,
              queries: options.queries,
              warmup: options.warmup,
              rows: options.rows,
              depth: options.depth,
              rates: options.rates,
              pacedRequests: options.pacedRequests,
              checkQueries: options.checkQueries,
            },
            RERANK_EMBEDDED,
            limitMs,
          ),
        )
      }
      await runSolr(results, options, setup, results.embedded, dir, limitMs, (started) => {
        cluster = started
      })
    }
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
if (
  first === '--report' &&
  second !== undefined &&
  existsSync(second) &&
  statSync(second).isFile()
) {
  process.exit(rerender(second))
}
process.exit(await main())
