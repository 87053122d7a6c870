/**
 * `pnpm --filter @pubmatch/bench-search bench`: the system-level first-stage benchmark.
 * For each corpus (NFCorpus ×1 and ×30, synthetic 100k and 1M): build the index (cached in
 * `.cache/indexes/` unless `--rebuild`), then serve the query cells from a fresh process; the
 * same for Xapian on the same documents and queries when the Python module is available.
 * Every case runs in its own child process (its own peak RSS); the load average is recorded
 * around each. Prints Markdown and saves `.cache/results/<time>.{json,md}`.
 *
 *   node dist/run.js [--quick] [--rebuild] [--rounds N] [--log-queries N] [--corpora a,b]
 *                    [--no-xapian] [--no-largest] [--xapian-largest] [--report FILE.json]
 *                    [--max-load L] [--max-wait-min M]
 *
 * --quick: NFCorpus ×1/×3, synthetic 10k/50k, one round, 100 log queries (a smoke run).
 * --corpora: only these corpora of the plan. --report: re-render a saved result file.
 * --max-load: before each case, wait (up to M minutes, default 10) until the 1-minute load
 *   average is at most L; the load seen is recorded either way.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { lastJsonLine, machineDescription, sharedDataDir } from '@pubmatch/bench-kit'
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { evaluate, readQrels, readRun } from '@pubmatch/eval'
import { corpusSize, corpusSpec } from './corpora.ts'
import type { CaseRequest } from './case-request.ts'
import { runProcess } from './measure.ts'
import { benchPlan, type CorpusPlan } from './plan.ts'
import {
  loadQuerySet,
  xapianStopwords,
  type LogSampleSize,
  type QuerySetName,
} from './query-sets.ts'
import { renderResults } from './render.ts'
import {
  BENCH_RESULTS,
  BUILD_RESULT,
  caseRecord,
  SERVE_RESULT,
  type BenchResults,
  type BuildResult,
  type CaseRecord,
  type CorpusResults,
  type ServeResult,
} from './results.ts'
import { findXapianPython, xapianBuild, xapianServe, type XapianCellSpec } from './xapian.ts'

const args = process.argv.slice(2)
const flag = (name: string): boolean => args.includes(name)
const option = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

const reportFile = option('--report')
if (reportFile !== undefined) {
  process.stdout.write(renderResults(readJsonFileSync(reportFile, BENCH_RESULTS)))
  process.exit(0)
}

const quick = flag('--quick')
const rebuild = flag('--rebuild')
const rounds = Number(option('--rounds') ?? (quick ? 1 : 3))
const measuredLog = Number(option('--log-queries') ?? (quick ? 100 : 500))
const log: LogSampleSize = { measured: measuredLog, warmup: quick ? 20 : 100 }
const only = option('--corpora')?.split(',')
const maxLoad = option('--max-load') === undefined ? undefined : Number(option('--max-load'))
const maxWaitMs = Number(option('--max-wait-min') ?? 10) * 60_000
if (!(rounds >= 1 && measuredLog >= 1)) {
  throw new PubmatchError(
    'INVALID_ARGUMENT',
    '@pubmatch/bench-search: --rounds and --log-queries must be ≥ 1',
  )
}

const benchDir = fileURLToPath(new URL('..', import.meta.url))
const cache = join(benchDir, '.cache')
const caseScript = fileURLToPath(new URL('./case.js', import.meta.url))
const shared = sharedDataDir()
for (const sub of ['indexes', 'xapian', 'docs', 'queries', 'runs', 'results']) {
  mkdirSync(join(cache, sub), { recursive: true })
}

const python = flag('--no-xapian') ? null : findXapianPython()
const xapianSkipped = flag('--no-xapian')
  ? '--no-xapian'
  : python === null
    ? 'no Python with the xapian module (apt-get install python3-xapian; PUBMATCH_PYTHON names the interpreter)'
    : undefined
if (xapianSkipped !== undefined) {
  process.stderr.write(`bench-search: Xapian cases skipped: ${xapianSkipped}\n`)
}

const plans = benchPlan({
  quick,
  xapian: python !== null,
  largest: !flag('--no-largest'),
  xapianLargest: flag('--xapian-largest'),
}).filter((plan) => only === undefined || only.includes(plan.corpus))

const progress = (text: string): void => {
  process.stderr.write(`bench-search: ${text} (load ${loadavg()[0]!.toFixed(1)})\n`)
}

/** With `--max-load`, waits until the 1-minute load average is at most that (or the wait is over). */
async function waitForQuiet(): Promise<void> {
  if (maxLoad === undefined) {
    return
  }
  const until = Date.now() + maxWaitMs
  while (loadavg()[0]! > maxLoad && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 15_000))
  }
}

/** Runs `work` and records the load average around it. */
async function measured<T>(work: () => Promise<T>, cached?: boolean): Promise<CaseRecord<T>> {
  if (cached !== true) {
    await waitForQuiet()
  }
  const loadBefore = loadavg()
  const t0 = performance.now()
  const result = await work()
  return {
    result,
    loadBefore,
    loadAfter: loadavg(),
    processSeconds: (performance.now() - t0) / 1000,
    ...(cached === undefined ? {} : { cached }),
  }
}

/** Runs one case of `case.js` in a fresh Node process; its result has `shape`. */
async function nodeCase<T>(request: CaseRequest, shape: JsonShape<T>): Promise<T> {
  const stdout = await runProcess(process.execPath, [
    '--expose-gc',
    '--max-old-space-size=16384',
    caseScript,
    JSON.stringify(request),
  ])
  return lastJsonLine(stdout, shape, `case ${request.kind} ${request.corpus}`)
}

/** A build from the cache (same corpus, files present) or a new one, saved next to the index. */
async function cachedBuild(
  engine: 'pubmatch' | 'xapian',
  corpus: string,
  dir: string,
  build: () => Promise<BuildResult>,
): Promise<CaseRecord<BuildResult>> {
  const record = `${dir}.build.json`
  const marker = engine === 'pubmatch' ? 'INDEX.json' : 'iamglass'
  if (!rebuild && existsSync(record) && existsSync(join(dir, marker))) {
    const saved = readJsonFileSync(record, caseRecord(BUILD_RESULT))
    if (saved.result.corpus === corpus) {
      progress(`${engine} ${corpus}: build reused from ${saved.result.date} (--rebuild to redo)`)
      return { ...saved, cached: true }
    }
  }
  progress(`${engine} ${corpus}: building`)
  const fresh = await measured(build, false)
  writeFileSync(record, JSON.stringify(fresh))
  return fresh
}

/** Query files of a set for the Xapian driver (JSON lines) and its stop words. */
async function xapianQueryFiles(
  set: QuerySetName,
): Promise<{ queries: string; warmup: string; stopwords: string }> {
  const querySet = await loadQuerySet(set, shared, log)
  const base = join(cache, 'queries', `${set}-${log.measured}-${log.warmup}`)
  const lines = (queries: readonly { id: string; text: string }[]): string =>
    queries.map((q) => JSON.stringify({ id: q.id, text: q.text })).join('\n') + '\n'
  writeFileSync(`${base}.jsonl`, lines(querySet.measured))
  writeFileSync(`${base}.warmup.jsonl`, lines(querySet.warmup))
  writeFileSync(`${base}.stopwords.txt`, xapianStopwords(set).join('\n') + '\n')
  return {
    queries: `${base}.jsonl`,
    warmup: `${base}.warmup.jsonl`,
    stopwords: `${base}.stopwords.txt`,
  }
}

async function runCorpus(plan: CorpusPlan): Promise<CorpusResults> {
  const spec = corpusSpec(plan.corpus)
  const dir = join(cache, 'indexes', plan.corpus)
  const ours = await cachedBuild('pubmatch', plan.corpus, dir, () =>
    nodeCase({ kind: 'build', corpus: plan.corpus, dir }, BUILD_RESULT),
  )
  let xapianBuildRecord: CaseRecord<BuildResult> | undefined
  const xapianDir = join(cache, 'xapian', plan.corpus)
  if (python !== null && plan.xapian.length > 0) {
    const docs = join(cache, 'docs', `${plan.corpus}.jsonl`)
    if (rebuild || !existsSync(docs)) {
      progress(`${plan.corpus}: exporting title + abstract for Xapian`)
      await nodeCase({ kind: 'export', corpus: plan.corpus, path: docs }, json.object({ docs: json.count }))
    }
    const stop = join(cache, 'queries', 'index.stopwords.txt')
    writeFileSync(stop, xapianStopwords('log-bag').join('\n') + '\n')
    xapianBuildRecord = await cachedBuild('xapian', plan.corpus, xapianDir, () =>
      xapianBuild(python, plan.corpus, docs, xapianDir, stop),
    )
  }
  progress(`pubmatch ${plan.corpus}: serving ${plan.ours.length} cells × ${rounds} rounds`)
  const serve = await measured(() =>
    nodeCase(
      {
        kind: 'serve',
        corpus: plan.corpus,
        dir,
        cells: plan.ours,
        rounds,
        log,
        ndcg: plan.ndcg,
      },
      SERVE_RESULT,
    ),
  )
  let xapianServeRecord: CaseRecord<ServeResult> | undefined
  let xapianNdcg10: number | undefined
  if (python !== null && plan.xapian.length > 0) {
    progress(`xapian ${plan.corpus}: serving ${plan.xapian.length} cells × ${rounds} rounds`)
    const cells: XapianCellSpec[] = []
    let ndcgRun: string | null = null
    for (const cell of plan.xapian) {
      const files = await xapianQueryFiles(cell.set)
      const run =
        plan.ndcg && cell.set === 'nfcorpus-dev' && cell.limit === 1000
          ? join(cache, 'runs', `xapian-${plan.corpus}-dev-1000.run`)
          : null
      ndcgRun ??= run
      cells.push({ cell, ...files, run })
    }
    xapianServeRecord = await measured(() =>
      xapianServe(
        python,
        plan.corpus,
        xapianDir,
        join(cache, 'queries', `spec-${plan.corpus}.json`),
        cells,
        rounds,
      ),
    )
    if (ndcgRun !== null) {
      const qrels = await readQrels(join(shared, 'nfcorpus/dev/s-3.qrel'))
      xapianNdcg10 = evaluate(await readRun(ndcgRun), qrels, { measures: ['ndcg_cut.10'] }).mean[
        'ndcg_cut_10'
      ]
    }
  }
  return {
    corpus: plan.corpus,
    label: spec.label,
    docs: corpusSize(spec),
    build: {
      pubmatch: ours,
      ...(xapianBuildRecord === undefined ? {} : { xapian: xapianBuildRecord }),
    },
    serve: {
      pubmatch: serve,
      ...(xapianServeRecord === undefined ? {} : { xapian: xapianServeRecord }),
    },
    ...(xapianNdcg10 === undefined ? {} : { xapianNdcg10 }),
  }
}

function machine(): string {
  return `${machineDescription()}; ${python === null ? 'Xapian not available' : `Xapian via ${python}`}`
}

const started = new Date()
const corpora: CorpusResults[] = []
for (const plan of plans) {
  corpora.push(await runCorpus(plan))
}
const xapianVersion = corpora
  .map((c) => (c.build.xapian?.result as { version?: string } | undefined)?.version)
  .find((v) => v !== undefined)
const results: BenchResults = {
  started: started.toISOString(),
  finished: new Date().toISOString(),
  command: `pnpm --filter @pubmatch/bench-search bench${args.length > 0 ? ` ${args.join(' ')}` : ''}`,
  machine: `${machine()}${xapianVersion === undefined ? '' : ` ${xapianVersion}`}`,
  rounds,
  logQueries: log,
  ...(xapianSkipped === undefined ? {} : { xapianSkipped }),
  corpora,
}
const stamp = started.toISOString().replaceAll(':', '-').slice(0, 19)
const markdown = renderResults(results)
writeFileSync(join(cache, 'results', `${stamp}.json`), JSON.stringify(results, null, 1))
writeFileSync(join(cache, 'results', `${stamp}.md`), markdown)
process.stdout.write(markdown)
process.stderr.write(`bench-search: saved .cache/results/${stamp}.{json,md}\n`)
