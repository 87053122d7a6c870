/**
 * `pnpm --filter @pubmatch/bench-search bench`: the system-level first-stage benchmark.
 * For each corpus (NFCorpus ×1 and ×30, synthetic 100k and 1M): build the index (cached in
 * `.cache/indexes/` unless `--rebuild`), then serve the query cells from a fresh process; the
 * same for each anchor (tantivy, PISA, Xapian) on the same documents and queries when it is
 * available. tantivy and PISA come from PyPI into the benchmark's own venv (`.venv`, made from
 * `python/requirements-anchors.txt` when missing or stale); Xapian from Debian's python3-xapian.
 * Every case runs in its own child process (its own peak RSS); the load average is recorded
 * around each. Prints Markdown and saves `.cache/results/<time>.{json,md}`.
 *
 *   node dist/run.js [--quick] [--rebuild] [--rounds N] [--log-queries N] [--corpora a,b]
 *                    [--anchors tantivy,pisa,xapian|all|none] [--no-xapian] [--refresh-anchors]
 *                    [--no-largest] [--xapian-largest] [--report FILE.json]
 *                    [--max-load L] [--max-wait-min M]
 *
 * Options: `src/args.ts`; what runs: README.md.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { lastJsonLine, machineDescription, sharedDataDir } from '@pubmatch/bench-kit'
import { json, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { evaluate, readQrels, readRun } from '@pubmatch/eval'
import { ANCHOR_NAMES, ANCHORS, findXapianPython, probeAnchor, type AnchorName } from './anchors.ts'
import { parseBenchArgs } from './args.ts'
import { corpusSize, corpusSpec } from './corpora.ts'
import type { CaseRequest } from './case-request.ts'
import { anchorBuild, anchorServe, type AnchorCellSpec } from './drivers.ts'
import { runProcess } from './measure.ts'
import { benchPlan, type AnchorPlan, type CorpusPlan } from './plan.ts'
import { anchorStopwords, loadQuerySet, type QuerySetName } from './query-sets.ts'
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
  type Engine,
  type ServeResult,
} from './results.ts'
import { ensureAnchorVenv } from './venv.ts'

const args = parseBenchArgs(process.argv.slice(2))
if (args.report !== undefined) {
  process.stdout.write(renderResults(readJsonFileSync(args.report, BENCH_RESULTS)))
  process.exit(0)
}
const { rounds, log, rebuild } = args

const benchDir = fileURLToPath(new URL('..', import.meta.url))
const cache = join(benchDir, '.cache')
const caseScript = fileURLToPath(new URL('./case.js', import.meta.url))
const shared = sharedDataDir()
for (const sub of ['indexes', 'docs', 'queries', 'runs', 'results', ...ANCHOR_NAMES]) {
  mkdirSync(join(cache, sub), { recursive: true })
}

const progress = (text: string): void => {
  process.stderr.write(`bench-search: ${text} (load ${loadavg()[0]!.toFixed(1)})\n`)
}

/** An available anchor: its interpreter, version and configuration. */
interface AnchorRuntime {
  readonly python: string
  readonly version: string
  readonly config: Readonly<Record<string, string>>
}

/** Finds (and for tantivy and PISA installs) the anchors asked for; the others get a reason. */
async function findAnchors(): Promise<{
  available: Map<AnchorName, AnchorRuntime>
  skipped: Partial<Record<AnchorName, string>>
}> {
  const available = new Map<AnchorName, AnchorRuntime>()
  const skipped: Partial<Record<AnchorName, string>> = {}
  const wanted = new Set(args.anchors)
  let venvPython: string | { reason: string } | undefined
  for (const anchor of ANCHOR_NAMES) {
    if (!wanted.has(anchor)) {
      skipped[anchor] =
        `left out by ${anchor === 'xapian' ? '--anchors or --no-xapian' : '--anchors'}`
      continue
    }
    let python: string
    if (ANCHORS[anchor].python === 'debian') {
      const found = findXapianPython()
      if (found === null) {
        skipped[anchor] =
          'no Python with the xapian module (apt-get install python3-xapian; PUBMATCH_PYTHON names the interpreter)'
        continue
      }
      python = found
    } else {
      if (venvPython === undefined) {
        const venv = await ensureAnchorVenv({ refresh: args.refreshAnchors, onProgress: progress })
        venvPython = venv.ok ? venv.python : { reason: venv.reason }
      }
      if (typeof venvPython !== 'string') {
        skipped[anchor] = venvPython.reason
        continue
      }
      python = venvPython
    }
    const probe = probeAnchor(python, anchor)
    if (probe.ok) {
      available.set(anchor, { python, version: probe.version, config: probe.config })
    } else {
      skipped[anchor] = probe.reason
    }
  }
  for (const [anchor, reason] of Object.entries(skipped)) {
    process.stderr.write(
      `bench-search: ${ANCHORS[anchor as AnchorName].label} skipped: ${reason}\n`,
    )
  }
  return { available, skipped }
}

const { available, skipped } = await findAnchors()

const plans = benchPlan({
  quick: args.quick,
  anchors: [...available.keys()],
  largest: args.largest,
  xapianLargest: args.xapianLargest,
}).filter((plan) => args.corpora === undefined || args.corpora.includes(plan.corpus))

/** With `--max-load`, waits until the 1-minute load average is at most that (or the wait is over). */
async function waitForQuiet(): Promise<void> {
  if (args.maxLoad === undefined) {
    return
  }
  const until = Date.now() + args.maxWaitMs
  while (loadavg()[0]! > args.maxLoad && Date.now() < until) {
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

/**
 * A build from the cache (same corpus, marker file present, for an anchor the same version and
 * configuration as its driver's now) or a new one, saved next to the index.
 */
async function cachedBuild(
  engine: Engine,
  corpus: string,
  dir: string,
  marker: string,
  anchor: AnchorRuntime | undefined,
  build: () => Promise<BuildResult>,
): Promise<CaseRecord<BuildResult>> {
  const record = `${dir}.build.json`
  if (!rebuild && existsSync(record) && existsSync(join(dir, marker))) {
    const saved = readJsonFileSync(record, caseRecord(BUILD_RESULT))
    const same =
      anchor === undefined ||
      (saved.result.version === anchor.version &&
        JSON.stringify(saved.result.config) === JSON.stringify(anchor.config))
    if (saved.result.corpus === corpus && same) {
      progress(`${engine} ${corpus}: build reused from ${saved.result.date} (--rebuild to redo)`)
      return { ...saved, cached: true }
    }
  }
  progress(`${engine} ${corpus}: building`)
  const fresh = await measured(build, false)
  writeFileSync(record, JSON.stringify(fresh))
  return fresh
}

/** Query files of a set for the anchors' drivers (JSON lines) and its stop words. */
async function anchorQueryFiles(
  set: QuerySetName,
): Promise<{ queries: string; warmup: string; stopwords: string }> {
  const querySet = await loadQuerySet(set, shared, log)
  const base = join(cache, 'queries', `${set}-${log.measured}-${log.warmup}`)
  const lines = (queries: readonly { id: string; text: string }[]): string =>
    queries.map((q) => JSON.stringify({ id: q.id, text: q.text })).join('\n') + '\n'
  writeFileSync(`${base}.jsonl`, lines(querySet.measured))
  writeFileSync(`${base}.warmup.jsonl`, lines(querySet.warmup))
  writeFileSync(`${base}.stopwords.txt`, anchorStopwords(set).join('\n') + '\n')
  return {
    queries: `${base}.jsonl`,
    warmup: `${base}.warmup.jsonl`,
    stopwords: `${base}.stopwords.txt`,
  }
}

/** nDCG@10 of a TREC run of the NFCorpus dev queries (`s-3.qrel`, trec_eval -c). */
async function runNdcg10(run: string): Promise<number | undefined> {
  const qrels = await readQrels(join(shared, 'nfcorpus/dev/s-3.qrel'))
  return evaluate(await readRun(run), qrels, { measures: ['ndcg_cut.10'] }).mean['ndcg_cut_10']
}

/** Serves an anchor's cells on a corpus, with nDCG@10 from its dev run when the plan asks. */
async function serveAnchor(
  plan: CorpusPlan,
  { anchor, cells }: AnchorPlan,
  runtime: AnchorRuntime,
): Promise<CaseRecord<ServeResult>> {
  progress(`${anchor} ${plan.corpus}: serving ${cells.length} cells × ${rounds} rounds`)
  const specs: AnchorCellSpec[] = []
  let ndcgRun: string | null = null
  for (const cell of cells) {
    const run =
      plan.ndcg && cell.set === 'nfcorpus-dev' && cell.limit === 1000
        ? join(cache, 'runs', `${anchor}-${plan.corpus}-dev-1000.run`)
        : null
    ndcgRun ??= run
    specs.push({ cell, ...(await anchorQueryFiles(cell.set)), run })
  }
  const record = await measured(() =>
    anchorServe(
      runtime.python,
      anchor,
      plan.corpus,
      join(cache, anchor, plan.corpus),
      join(cache, 'queries', `spec-${anchor}-${plan.corpus}.json`),
      specs,
      rounds,
    ),
  )
  const ndcg10 = ndcgRun === null ? undefined : await runNdcg10(ndcgRun)
  return ndcg10 === undefined ? record : { ...record, result: { ...record.result, ndcg10 } }
}

async function runCorpus(plan: CorpusPlan): Promise<CorpusResults> {
  const spec = corpusSpec(plan.corpus)
  const dir = join(cache, 'indexes', plan.corpus)
  const build: Partial<Record<Engine, CaseRecord<BuildResult>>> = {}
  const serve: Partial<Record<Engine, CaseRecord<ServeResult>>> = {}
  build.pubmatch = await cachedBuild('pubmatch', plan.corpus, dir, 'INDEX.json', undefined, () =>
    nodeCase({ kind: 'build', corpus: plan.corpus, dir }, BUILD_RESULT),
  )
  if (plan.anchors.length > 0) {
    const docs = join(cache, 'docs', `${plan.corpus}.jsonl`)
    if (rebuild || !existsSync(docs)) {
      progress(`${plan.corpus}: exporting title + abstract for the anchors`)
      await nodeCase(
        { kind: 'export', corpus: plan.corpus, path: docs },
        json.object({ docs: json.count }),
      )
    }
    const stop = join(cache, 'queries', 'index.stopwords.txt')
    writeFileSync(stop, anchorStopwords('log-bag').join('\n') + '\n')
    for (const { anchor } of plan.anchors) {
      const runtime = available.get(anchor)!
      const anchorDir = join(cache, anchor, plan.corpus)
      build[anchor] = await cachedBuild(
        anchor,
        plan.corpus,
        anchorDir,
        ANCHORS[anchor].marker,
        runtime,
        () => anchorBuild(runtime.python, anchor, plan.corpus, docs, anchorDir, stop),
      )
    }
  }
  progress(`pubmatch ${plan.corpus}: serving ${plan.ours.length} cells × ${rounds} rounds`)
  serve.pubmatch = await measured(() =>
    nodeCase(
      { kind: 'serve', corpus: plan.corpus, dir, cells: plan.ours, rounds, log, ndcg: plan.ndcg },
      SERVE_RESULT,
    ),
  )
  for (const anchorPlan of plan.anchors) {
    serve[anchorPlan.anchor] = await serveAnchor(
      plan,
      anchorPlan,
      available.get(anchorPlan.anchor)!,
    )
  }
  return { corpus: plan.corpus, label: spec.label, docs: corpusSize(spec), build, serve }
}

/** `Python 3.11.7` of an interpreter, or `Python ?`. */
function pythonVersion(python: string): string {
  const out = spawnSync(python, ['--version'], { encoding: 'utf8' })
  return out.status === 0 ? out.stdout.trim() || out.stderr.trim() : 'Python ?'
}

/** The anchors' versions and where they run, for the report's machine line. */
function anchorsDescription(): string {
  if (available.size === 0) {
    return 'no anchor'
  }
  const byPython = new Map<string, string[]>()
  for (const [anchor, runtime] of available) {
    const name =
      anchor === 'pisa'
        ? `pyterrier-pisa ${runtime.version} (PISA)`
        : `${ANCHORS[anchor].label} ${runtime.version}`
    byPython.set(runtime.python, [...(byPython.get(runtime.python) ?? []), name])
  }
  return [...byPython]
    .map(([python, names]) => {
      const where = python.startsWith(benchDir) ? relative(benchDir, python) : python
      return `${names.join(', ')} via ${where} (${pythonVersion(python)})`
    })
    .join('; ')
}

const started = new Date()
const corpora: CorpusResults[] = []
for (const plan of plans) {
  corpora.push(await runCorpus(plan))
}
const results: BenchResults = {
  started: started.toISOString(),
  finished: new Date().toISOString(),
  command: `pnpm --filter @pubmatch/bench-search bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
  machine: `${machineDescription()}; anchors: ${anchorsDescription()}`,
  rounds,
  logQueries: log,
  ...(Object.keys(skipped).length === 0 ? {} : { anchorsSkipped: skipped }),
  corpora,
}
const stamp = started.toISOString().replaceAll(':', '-').slice(0, 19)
const markdown = renderResults(results)
writeFileSync(join(cache, 'results', `${stamp}.json`), JSON.stringify(results, null, 1))
writeFileSync(join(cache, 'results', `${stamp}.md`), markdown)
process.stdout.write(markdown)
process.stderr.write(`bench-search: saved .cache/results/${stamp}.{json,md}\n`)
