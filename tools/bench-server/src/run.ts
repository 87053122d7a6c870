/**
 * `pnpm --filter @pubmatch/bench-server bench`: the pubmatch server under load on loopback.
 *
 *   node dist/run.js [--match any|all] [--seconds 60] [--rate 50] [--max-connections 4]
 *                    [--burst-connections 10] [--quiet 1.0] [--max-wait-min 60]
 *                    [--runs paced,burst,max,swap] [--no-bin-check] [--no-phases] [--out FILE]
 *   node dist/run.js --report .cache/results/<time>.json [--out FILE]   (re-render a saved run)
 *
 * 1. `setup.js` (own process): the synthetic 100k corpus, index and forward store, the accepted
 *    real queries, latency models A and B (cached in `.cache/`).
 * 2. The server (`serve.js`: `startServer` as `pubmatch-server` calls it, without the per-client
 *    rate limit) in its own process with model A; 10 s of warm-up at the maximum rate; then each
 *    run for `--seconds`: `paced` (`--rate` req/s evenly spaced), `burst` (the same rate from one
 *    autocannon instance of `--burst-connections` connections: autocannon's own pacing, bursts at
 *    each second), `max` (`--max-connections` requests in flight). CPU and RSS of the server
 *    process are sampled every 500 ms; `/metrics` is scraped at the end.
 * 3. `swap`: a fresh server on a private copy of the corpus and index, the paced load, at 20 s
 *    `POST /admin/reload {model: B}`, at 40 s a new index generation (real PubMed XML ingested
 *    and indexed by `add-generation.js` in its own process) then `POST /admin/reload {}`; after
 *    each POST, `/health` is polled until the swap is in effect. The load goes on until 15 s
 *    after both swaps are in effect (at least `--seconds`, at most 300 s).
 * 4. `phases.js` (own process): where a search's time goes, in process.
 * 5. Prints the report and writes RESULTS.md (`--out`) and `.cache/results/<time>.{json,md}`.
 *
 * `--quiet L`: before each run, wait until the 1-minute load average is ≤ L (first wait up to
 * `--max-wait-min`, later ones up to 5 min); the load seen is recorded either way.
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { checkJson, json } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { runLoad, type LoadEvent, type LoadMode } from './load.ts'
import { copyCorpusAndIndex } from './prepare.ts'
import { clockTicksPerSecond, spawnServer, startSampler, type ServerProcess } from './process.ts'
import { sharedDataDir } from './queries.ts'
import { renderReport, runFigures, type BenchResults, type RunRecord } from './report.ts'
import type { PhasesResult } from './phases.ts'
import { BENCH_RESULTS, HEALTH, PHASES_RESULT, SETUP_RESULT, type Health } from './results.ts'
import { procUsage } from './stats.ts'

const { values } = parseArgs({
  options: {
    match: { type: 'string', default: 'any' },
    'search-workers': { type: 'string', default: '0' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '50' },
    size: { type: 'string', default: '20' },
    'max-connections': { type: 'string', default: '4' },
    'burst-connections': { type: 'string', default: '10' },
    quiet: { type: 'string' },
    'max-wait-min': { type: 'string', default: '60' },
    runs: { type: 'string', default: 'paced,burst,max,swap' },
    'no-bin-check': { type: 'boolean', default: false },
    'no-phases': { type: 'boolean', default: false },
    out: { type: 'string' },
    report: { type: 'string' },
  },
})

const here = fileURLToPath(new URL('.', import.meta.url))
const benchDir = fileURLToPath(new URL('..', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
const cache = join(benchDir, '.cache')
const seconds = Number(values.seconds)
/** The swap run goes on this long after both swaps are in effect, and stops by this time at the latest. */
const SWAP_TAIL_S = 15
const SWAP_MAX_S = 300
const rate = Number(values.rate)
const size = Number(values.size)
const runsWanted = new Set(values.runs.split(','))
const quietThreshold = values.quiet === undefined ? undefined : Number(values.quiet)
const startedAt = new Date()
const token = randomBytes(24).toString('hex')
const serveScript = join(here, 'serve.js')
const binScript = join(repoRoot, 'apps/server/dist/bin.js')
const ticks = clockTicksPerSecond()

function say(text: string): void {
  process.stderr.write(`bench-server ${new Date().toISOString().slice(11, 19)}: ${text} (load ${loadavg()[0]!.toFixed(2)})\n`)
}

/** Runs `node <script> <args>`, progress to our stderr, and returns its stdout. */
async function node(script: string, args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [join(here, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => {
    out += chunk
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) {
    throw new Error(`bench-server: ${script} exited with ${code}`)
  }
  return out
}

const waits: Array<{ before: string; waitedS: number; load: number }> = []
let firstWait = true
async function waitForQuiet(before: string): Promise<void> {
  if (quietThreshold === undefined) {
    return
  }
  const limitMs = (firstWait ? Number(values['max-wait-min']) : 5) * 60_000
  firstWait = false
  const t0 = Date.now()
  let lastSaid = 0
  while (loadavg()[0]! > quietThreshold && Date.now() - t0 < limitMs) {
    if (Date.now() - lastSaid > 120_000) {
      say(`waiting for a 1-minute load average ≤ ${quietThreshold} before ${before}`)
      lastSaid = Date.now()
    }
    await new Promise((resolve) => setTimeout(resolve, 15_000))
  }
  waits.push({ before, waitedS: (Date.now() - t0) / 1000, load: loadavg()[0]! })
}

/** The server's `/health`, checked. */
async function health(url: string): Promise<Health> {
  return checkJson(await (await fetch(`${url}/health`)).json(), HEALTH, { file: `${url}/health` })
}

/**
 * `POST /admin/reload`, then `/health` every 250 ms until `done` says the swap is in effect (the
 * server finishes a reload even when the admin's connection was closed on it). Never throws.
 */
async function adminReload(
  url: string,
  body: Readonly<Record<string, unknown>>,
  done: (health: Health) => boolean,
): Promise<Record<string, string | number>> {
  const t0 = performance.now()
  let post: string
  try {
    const response = await fetch(`${url}/admin/reload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    await response.text()
    post = `HTTP ${response.status}`
  } catch (error) {
    post = `failed (${(error as Error).message}${(error as { cause?: Error }).cause === undefined ? '' : `: ${(error as { cause: Error }).cause.message}`})`
  }
  const postMs = performance.now() - t0
  let now = await health(url)
  while (!done(now) && performance.now() - t0 < 180_000) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    now = await health(url)
  }
  return {
    'POST answer': post,
    'POST ms': postMs,
    'in effect after ms': done(now) ? performance.now() - t0 : Number.NaN,
    generation: now.generation,
    documents: now.documents,
  }
}

/** Selected figures of `/metrics`. */
async function scrapeMetrics(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const out: Record<string, number> = {}
  const wanted = [
    /^pubmatch_http_requests_total\{[^}]*route="\/search"[^}]*\}/,
    /^pubmatch_http_request_duration_seconds_(sum|count)\{[^}]*route="\/search"[^}]*\}/,
    /^pubmatch_nodejs_eventloop_lag_(p50|p99|max)_seconds\b/,
    /^pubmatch_nodejs_gc_duration_seconds_(sum|count)\{kind="(major|minor)"\}/,
    /^pubmatch_nodejs_heap_size_used_bytes\b/,
    /^pubmatch_process_resident_memory_bytes\b/,
    /^pubmatch_index_generation\b/,
    /^pubmatch_swaps_total\b/,
  ]
  for (const line of text.split('\n')) {
    if (wanted.some((re) => re.test(line))) {
      const at = line.lastIndexOf(' ')
      out[line.slice(0, at)] = Number(line.slice(at + 1))
    }
  }
  return out
}

async function measure(
  name: string,
  description: string,
  server: ServerProcess,
  model: string,
  mode: LoadMode,
  queries: readonly string[],
  events?: readonly LoadEvent[],
  extend?: { readonly tailSeconds: number; readonly maxSeconds: number },
): Promise<RunRecord> {
  await waitForQuiet(name)
  // the quiet wait leaves the server idle for minutes, and its first seconds after that are slower
  // (cold code and heaps; most in worker threads): measured from warm, as a server under steady use
  say(`re-warm: 5 s at the maximum rate, 2 connections (not recorded)`)
  await runLoad({ url: server.url, queries, size, seconds: 5, mode: { kind: 'max', connections: 2 } })
  const loadBefore = loadavg()
  const started = new Date().toISOString()
  say(`run ${name}: ${description}`)
  const sampler = startSampler(server.pid, 500)
  const load = await runLoad({ url: server.url, queries, size, seconds, mode, ...(events === undefined ? {} : { events }), ...(extend === undefined ? {} : { extend }), onProgress: (text) => say(`  ${name}: ${text}`) })
  const usage = procUsage(sampler.stop(), ticks)
  const loadAfter = loadavg()
  const fig = runFigures(load)
  say(
    `  ${name}: ${fig.responses} responses (${fig.throughput.toFixed(1)}/s), non-2xx ${load.non2xx}, errors ${load.errors}; ` +
      `reranked p50 ${fig.reranked.p50.toFixed(1)} p99 ${fig.reranked.p99.toFixed(1)} ms; CPU ${usage.cpuPercent.toFixed(0)} %, RSS peak ${usage.rssPeakMiB.toFixed(0)} MiB`,
  )
  return {
    name,
    description,
    startedAt: started,
    loadBefore,
    loadAfter,
    server: { script: serveScript, startMs: server.startMs, model },
    load,
    usage,
  }
}

async function warmUp(server: ServerProcess, queries: readonly string[]): Promise<void> {
  say('warm-up: 10 s at the maximum rate, 2 connections (not recorded)')
  await runLoad({ url: server.url, queries, size, seconds: 10, mode: { kind: 'max', connections: 2 } })
}

function serverArgs(index: string, model: string, match: string): string[] {
  return ['--index', index, '--model', model, '--match', match, '--port', '0', '--search-workers', values['search-workers']]
}

/** Writes the report file (RESULTS.md unless `--out`). */
function writeResultsFile(report: string): string {
  const out = values.out ?? join(benchDir, 'RESULTS.md')
  writeFileSync(
    out,
    `# Server under load: results\n\nWritten by \`node dist/run.js\` (tools/bench-server); README.md says what is measured and how, the repository's BENCHMARKS.md has the summary. Raw numbers of this run: \`.cache/results/\` (not committed).\n\n${report}`,
  )
  return out
}

async function main(): Promise<void> {
  if (values.report !== undefined) {
    const report = renderReport(readJsonFileSync(values.report, BENCH_RESULTS, { nullAsNaN: true }))
    process.stdout.write(report)
    say(`wrote ${writeResultsFile(report)}`)
    return
  }
  say('setup (corpus, index, forward store, queries, models; cached in .cache/)')
  const setupFile = (await node('setup.js', ['--cache', cache, '--match', values.match])).trim()
  const setup = readJsonFileSync(setupFile, SETUP_RESULT)
  const queries = setup.accepted
  const [modelA, modelB] = [setup.models.find((m) => m.name === 'A')!.dir, setup.models.find((m) => m.name === 'B')!.dir]
  const runs: RunRecord[] = []
  let binCheck: BenchResults['binCheck']

  if (!values['no-bin-check']) {
    // the shipped bin: PubMed's match all needs no model of ours, the rate limit is the point
    say('bin check: 20 s at 50 req/s through apps/server/dist/bin.js (first stage only)')
    const bin = await spawnServer(binScript, ['--index', setup.index, '--port', '0'], {})
    try {
      const load = await runLoad({ url: bin.url, queries, size, seconds: 20, mode: { kind: 'paced', rate } })
      const first429 = load.responses.filter((r) => r.status === 429).map((r) => r.atMs)
      binCheck = { seconds: 20, statusCounts: load.statusCounts, ...(first429.length === 0 ? {} : { first429AtS: Math.min(...first429) / 1000 }) }
      say(`  bin check: ${JSON.stringify(load.statusCounts)}`)
    } finally {
      await bin.stop()
    }
  }

  const plain = [...runsWanted].filter((r) => r !== 'swap')
  if (plain.length > 0) {
    say(`starting the server with model A (${modelA})`)
    const server = await spawnServer(serveScript, serverArgs(setup.index, modelA, setup.match), { PUBMATCH_ADMIN_TOKEN: token })
    say(`  listening at ${server.url} after ${(server.startMs / 1000).toFixed(1)} s`)
    try {
      await warmUp(server, queries)
      if (runsWanted.has('paced')) {
        runs.push(await measure(`paced ${rate}/s`, `${rate} req/s evenly spaced`, server, 'A', { kind: 'paced', rate }, queries))
      }
      if (runsWanted.has('burst')) {
        const connections = Number(values['burst-connections'])
        runs.push(await measure(`burst ${rate}/s`, `${rate} req/s as autocannon paces one instance of ${connections} connections`, server, 'A', { kind: 'burst', rate, connections }, queries))
      }
      if (runsWanted.has('max')) {
        const connections = Number(values['max-connections'])
        runs.push(await measure('max rate', `${connections} connections, no rate`, server, 'A', { kind: 'max', connections }, queries))
      }
      const last = runs[runs.length - 1]
      if (last !== undefined) {
        runs[runs.length - 1] = { ...last, metrics: await scrapeMetrics(server.url) }
      }
    } finally {
      await server.stop()
    }
  }

  if (runsWanted.has('swap')) {
    say('swap run: copying the corpus and index to .cache/swap-run/')
    const copy = await copyCorpusAndIndex({ corpus: setup.corpus, index: setup.index }, join(cache, 'swap-run'))
    const xml = join(sharedDataDir(), 'pubmed-xml/medsamp2006.xml')
    const server = await spawnServer(serveScript, serverArgs(copy.index, modelA, setup.match), { PUBMATCH_ADMIN_TOKEN: token })
    try {
      await warmUp(server, queries)
      const before = await health(server.url)
      const events: LoadEvent[] = [
        {
          name: 'reload model B',
          atSeconds: 20,
          run: () => adminReload(server.url, { model: modelB }, (now) => now.modelDir === modelB),
        },
        {
          name: 'new index generation, then reload {}',
          atSeconds: 40,
          run: async () => {
            const t0 = performance.now()
            const added = lastJsonLine(await node('add-generation.js', ['--corpus', copy.corpus, '--index', copy.index, '--xml', xml]), json.record(json.number), 'add-generation.js')
            const ingestMs = performance.now() - t0
            const reload = await adminReload(server.url, {}, (now) => now.generation > before.generation)
            return { 'articles added': added['articles']!, 'ingest + updateIndex ms': ingestMs, ...reload }
          },
        },
      ]
      const run = await measure(
        'swap',
        `${rate} req/s evenly spaced; model A → B at 20 s, new index generation at 40 s; until ${SWAP_TAIL_S} s after both are in effect (at least ${seconds} s, at most ${SWAP_MAX_S} s)`,
        server,
        'A → B',
        { kind: 'paced', rate },
        queries,
        events,
        { tailSeconds: SWAP_TAIL_S, maxSeconds: SWAP_MAX_S },
      )
      runs.push({ ...run, metrics: await scrapeMetrics(server.url) })
    } finally {
      await server.stop()
    }
  }

  let phases: PhasesResult | undefined
  if (!values['no-phases']) {
    say('phases: where the time goes, in process')
    const out = join(cache, `phases-${setup.match}.json`)
    await node('phases.js', ['--setup', setupFile, '--model', modelA, '--out', out, '--rounds', '3'])
    phases = readJsonFileSync(out, PHASES_RESULT, { nullAsNaN: true })
  }

  const { accepted: _accepted, ...setupRest } = setup
  const results: BenchResults = {
    command: `pnpm --filter @pubmatch/bench-server bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    searchWorkers: Number(values['search-workers']),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memGiB: totalmem() / 2 ** 30,
      node: process.version,
      os: execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim(),
    },
    quiet: { ...(quietThreshold === undefined ? {} : { threshold: quietThreshold }), waits },
    setup: { ...setupRest, acceptedCount: queries.length },
    modelNames: Object.fromEntries(
      setup.models.map((m) => {
        const manifest = readJsonFileSync(join(m.dir, 'manifest.json'), json.object({ createdAt: json.string }), { code: 'UNSUPPORTED_FORMAT' })
        return [`${manifest.createdAt}/${readFileSync(join(m.dir, 'model.txt'), 'utf8').length}`, m.name]
      }),
    ),
    runs,
    ...(phases === undefined ? {} : { phases }),
    ...(binCheck === undefined ? {} : { binCheck }),
  }
  const report = renderReport(results)
  process.stdout.write(report)
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-').slice(0, 19)
  mkdirSync(join(cache, 'results'), { recursive: true })
  writeFileSync(join(cache, 'results', `${stamp}.json`), `${JSON.stringify(results)}\n`)
  writeFileSync(join(cache, 'results', `${stamp}.md`), report)
  say(`wrote ${writeResultsFile(report)} and .cache/results/${stamp}.{json,md}`)
}

await main()
