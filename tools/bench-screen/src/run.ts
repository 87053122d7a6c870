/**
 * `pnpm --filter @pubmatch/bench-screen bench [-- --reviews ADHD,Donners_2021 --seeds 0,1,2]`:
 * pubmatch's screening simulation against ASReview LAB's on the labelled reviews of
 * `shared/data/screening` (Cohen 2006 and SYNERGY). For each review and seed, the priors (one
 * included, one excluded record) are drawn once with `drawPriors(labels, seed)` and given to both
 * tools; ASReview runs its default model (ELAS u4) through `asreview_sim.py` in this tool's
 * virtual environment (`setup-venv.sh`, versions pinned in `requirements.txt`) with
 * `np.random.seed(seed)`, exactly as `asreview simulate --prior-idx … --seed …`. Both tools' orders
 * are scored by the same `screeningMetrics` (asreview-insights' definitions). Writes the `screen`
 * section of RESULTS.md and every run's order to `results/runs/<review>.json` (gitignored).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { machineDescription, sharedDataDir } from '@pubmatch/bench-kit'
import { abstractText, PubmatchError } from '@pubmatch/core'
import { drawPriors, listScreeningReviews, readScreeningReview, screeningMetrics, simulateScreening, type RankerName, type ScreeningDataset } from '@pubmatch/screen'
import { mean, parseConfig, table, type ReviewResult, type ToolRun } from './table.ts'

const ROOT = join(import.meta.dirname, '..')

/** ASReview's runs of one review, through the Python driver. */
async function runAsreview(dataset: ScreeningDataset, runs: ReadonlyArray<{ seed: number; priors: number[] }>, python: string): Promise<Map<number, { order: number[]; seconds: number; version: string }>> {
  const job = {
    ai: 'elas_u4',
    reviews: [
      {
        name: dataset.name,
        titles: dataset.records.map((r) => r.article.title),
        abstracts: dataset.records.map((r) => abstractText(r.article)),
        labels: dataset.records.map((r) => r.label),
        runs,
      },
    ],
  }
  const child = spawn(python, [join(ROOT, 'asreview_sim.py')], { stdio: ['pipe', 'pipe', 'inherit'] })
  child.stdin.end(JSON.stringify(job))
  const out = new Map<number, { order: number[]; seconds: number; version: string }>()
  for await (const line of createInterface({ input: child.stdout })) {
    const parsed = JSON.parse(line) as { seed: number; order: number[]; seconds: number; asreview: string }
    out.set(parsed.seed, { order: parsed.order, seconds: parsed.seconds, version: parsed.asreview })
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0 || out.size !== runs.length) {
    throw new PubmatchError('UPSTREAM_ERROR', `asreview_sim.py exited with ${code} after ${out.size} of ${runs.length} runs of ${dataset.name}`)
  }
  return out
}

interface AsreviewRun {
  order: number[]
  seconds: number
  version: string
}

/**
 * ASReview's runs of one review, reusing saved ones: a run is deterministic given the records,
 * the priors and the seed (its orders were the same in separate processes), so a run saved under
 * `<cache>/<review>-<seed>.json` with the same priors is read instead of run again; its time is
 * the saved run's.
 */
async function cachedAsreview(dataset: ScreeningDataset, runs: ReadonlyArray<{ seed: number; priors: number[] }>, python: string, cache: string): Promise<Map<number, AsreviewRun & { cachedAt?: string }>> {
  await mkdir(cache, { recursive: true })
  const out = new Map<number, AsreviewRun & { cachedAt?: string }>()
  const missing: Array<{ seed: number; priors: number[] }> = []
  for (const run of runs) {
    const file = join(cache, `${dataset.name}-${run.seed}.json`)
    const saved = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as AsreviewRun & { priors: number[]; records: number; at: string }) : undefined
    if (saved && saved.records === dataset.records.length && saved.priors.join(',') === run.priors.join(',')) {
      out.set(run.seed, { order: saved.order, seconds: saved.seconds, version: saved.version, cachedAt: saved.at })
    } else {
      missing.push(run)
    }
  }
  if (missing.length > 0) {
    const fresh = await runAsreview(dataset, missing, python)
    for (const run of missing) {
      const r = fresh.get(run.seed)!
      out.set(run.seed, r)
      const file = join(cache, `${dataset.name}-${run.seed}.json`)
      await writeFile(`${file}.tmp`, JSON.stringify({ ...r, priors: run.priors, records: dataset.records.length, at: new Date().toISOString() }))
      await rename(`${file}.tmp`, file)
    }
  }
  return out
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reviews: { type: 'string', default: 'all' },
      seeds: { type: 'string', default: '0,1,2' },
      ranker: { type: 'string', default: 'logistic' },
      'skip-asreview': { type: 'boolean', default: false },
      'no-bigrams': { type: 'boolean', default: false },
      python: { type: 'string', default: join(ROOT, '.venv', 'bin', 'python') },
      'skip-pubmatch': { type: 'boolean', default: false },
      'asreview-cache': { type: 'string', default: join(ROOT, 'results', 'asreview-cache') },
      'pubmatch-cache': { type: 'string' },
      'cached-only': { type: 'boolean', default: false },
      config: { type: 'string' },
      out: { type: 'string', default: join(ROOT, 'results') },
    },
  })
  if (!values['skip-asreview'] && !existsSync(values.python)) {
    throw new PubmatchError('NOT_FOUND', `no ASReview environment at ${values.python}: run tools/bench-screen/setup-venv.sh first (or --skip-asreview)`)
  }
  const config = values.config === undefined ? undefined : parseConfig(values.config)
  const seeds = values.seeds.split(',').map(Number)
  const wanted = values.reviews.split(',')
  const entries = (await listScreeningReviews(join(sharedDataDir(), 'screening'))).filter((e) => values.reviews === 'all' || wanted.includes(e.name))
  await mkdir(join(values.out, 'runs'), { recursive: true })
  const results: ReviewResult[] = []
  const started = new Date()
  let version = ''
  const incomplete: string[] = []
  for (const entry of entries) {
    const dataset = await readScreeningReview(entry)
    const truth = dataset.records.map((r) => r.label)
    const runs = seeds.map((seed) => ({ seed, priors: drawPriors(truth, seed) }))
    // --cached-only: a table of the reviews whose every run is saved (both tools), the rest listed
    if (values['cached-only']) {
      const saved = (dir: string | undefined): boolean => dir !== undefined && seeds.every((seed) => existsSync(join(dir, `${dataset.name}-${seed}.json`)))
      if (!saved(values['pubmatch-cache']) || !saved(values['asreview-cache'])) {
        incomplete.push(dataset.name)
        continue
      }
    }
    const pubmatch: ToolRun[] = []
    for (const { seed, priors } of values['skip-pubmatch'] ? [] : runs) {
      // with --pubmatch-cache, a run saved there by another process (same records, priors, ranker) is read back
      const file = values['pubmatch-cache'] === undefined ? undefined : join(values['pubmatch-cache'], `${dataset.name}-${seed}.json`)
      const what = { ranker: values.ranker, bigrams: !values['no-bigrams'], ...(config === undefined ? {} : { config }), priors, records: truth.length }
      const saved = file !== undefined && existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as typeof what & { order: number[]; msPerDecision: number }) : undefined
      if (saved && JSON.stringify({ ranker: saved.ranker, bigrams: saved.bigrams, ...(saved.config === undefined ? {} : { config: saved.config }), priors: saved.priors, records: saved.records }) === JSON.stringify(what)) {
        pubmatch.push({ metrics: screeningMetrics(saved.order.map((i) => truth[i]!), truth.length - priors.length), msPerDecision: saved.msPerDecision, order: saved.order })
        continue
      }
      const options = config ?? {}
      const result = simulateScreening(dataset, { ...options, seed, priors, ranker: values.ranker as RankerName, features: { bigrams: !values['no-bigrams'], ...options.features } })
      const run = { metrics: result.metrics, msPerDecision: mean(result.retrainMs), order: result.order }
      pubmatch.push(run)
      if (file !== undefined) {
        await mkdir(values['pubmatch-cache']!, { recursive: true })
        await writeFile(`${file}.tmp`, JSON.stringify({ ...what, order: run.order, msPerDecision: run.msPerDecision, at: new Date().toISOString() }))
        await rename(`${file}.tmp`, file)
      }
    }
    let asreview: ToolRun[] = []
    if (!values['skip-asreview']) {
      const byseed = await cachedAsreview(dataset, runs, values.python, values['asreview-cache'])
      asreview = runs.map(({ seed }) => {
        const { order, seconds, version: v } = byseed.get(seed)!
        version = v
        return { metrics: screeningMetrics(order.map((i) => truth[i]!), truth.length - 2), msPerDecision: (seconds * 1000) / Math.max(1, order.length), order }
      })
    }
    const result: ReviewResult = { review: dataset.name, source: dataset.source, records: truth.length, included: truth.filter((l) => l === 1).length, seeds, pubmatch, asreview }
    results.push(result)
    await writeFile(join(values.out, 'runs', `${dataset.name}.json`), JSON.stringify({ ...result, priors: runs }))
    const last = table([result]).split('\n')[2]
    console.log(last)
  }
  const summary = [
    `Command: \`pnpm --filter @pubmatch/bench-screen bench -- --reviews ${values.reviews} --seeds ${values.seeds} --ranker ${values.ranker}${values['pubmatch-cache'] === undefined ? '' : ` --pubmatch-cache ${values['pubmatch-cache']}`}${values['cached-only'] ? ' --cached-only' : ''}${values.config === undefined ? '' : ` --config '${values.config}'`}\``,
    `Started ${started.toISOString()}, ${machineDescription()}; ASReview LAB ${version || '(skipped)'} (ELAS u4), pubmatch ranker \`${values.ranker}\`; seeds ${values.seeds}, each review's priors drawn once per seed and given to both tools; metrics: asreview-insights' definitions, priors excluded; per-review figures are the means over the seeds.`,
    '',
    values['skip-asreview'] ? 'ASReview skipped.' : table(results),
    ...(incomplete.length > 0 ? ['', `Not in the table (--cached-only, some runs not saved): ${incomplete.join(', ')}.`] : []),
  ].join('\n')
  console.log(summary)
  if (values['skip-asreview']) {
    // no table to record: the runs are in --pubmatch-cache and results/runs
    return
  }
  const file = join(ROOT, 'RESULTS.md')
  const previous = await readFile(file, 'utf8').catch(() => '# Screening benchmark results\n')
  await writeFile(file, `${previous.trimEnd()}\n\n## ${values.reviews === 'all' ? 'all reviews' : values.reviews} (${started.toISOString().slice(0, 16)}Z)\n\n${summary}\n`)
}

await main()
