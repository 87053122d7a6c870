/**
 * From raw responses to figures and Markdown: latency by class of search (reranked, left in
 * first-stage order, matching nothing), the server's own `tookMs` against the client's latency,
 * the swap windows, and the tables of RESULTS.md.
 */
import type { EventRecord, LoadMode, LoadResult, ResponseRecord } from './load.ts'
import type { PhasesResult } from './phases.ts'
import type { SetupResult } from './setup.ts'
import { summarize, type ProcUsage, type Summary } from './stats.ts'

/** One measured run. */
export interface RunRecord {
  readonly name: string
  readonly description: string
  readonly startedAt: string
  readonly loadBefore: readonly number[]
  readonly loadAfter: readonly number[]
  readonly server: { readonly script: string; readonly startMs: number; readonly model: string }
  readonly load: LoadResult
  readonly usage: ProcUsage
  /** Selected `/metrics` lines scraped after the run. */
  readonly metrics?: Readonly<Record<string, number>>
}

/** The whole benchmark. */
export interface BenchResults {
  readonly command: string
  readonly startedAt: string
  readonly finishedAt: string
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly memGiB: number; readonly node: string; readonly os: string }
  readonly quiet: { readonly threshold?: number; readonly waits: ReadonlyArray<{ readonly before: string; readonly waitedS: number; readonly load: number }> }
  readonly setup: Omit<SetupResult, 'accepted'> & { readonly acceptedCount: number }
  /** Model id (as `/search` answers name it) → A or B. */
  readonly modelNames: Readonly<Record<string, string>>
  readonly runs: readonly RunRecord[]
  readonly phases?: PhasesResult
  /** A short run through the unmodified bin (rate limit on), if made. */
  readonly binCheck?: { readonly seconds: number; readonly statusCounts: Readonly<Record<string, number>>; readonly first429AtS?: number }
  /** Worker threads that ran the searches (0: the server's own thread). Absent in reports made before the option existed. */
  readonly searchWorkers?: number
}

/** Figures of one run. */
export interface RunFigures {
  readonly responses: number
  readonly ok: number
  /** Completed responses per second of the run's duration. */
  readonly throughput: number
  readonly failed: number
  readonly all: Summary
  readonly reranked: Summary
  readonly fallback: Summary
  readonly noMatch: Summary
  /** The server's `tookMs` of reranked searches. */
  readonly rerankedTook: Summary
  /** Client latency − `tookMs` of reranked searches: HTTP, routing, validation, highlights, JSON, queueing. */
  readonly rerankedOutside: Summary
}

function latencies(responses: readonly ResponseRecord[], keep: (r: ResponseRecord) => boolean): number[] {
  return responses.filter(keep).map((r) => r.latencyMs)
}

/**
 * The figures of a run.
 * @param load - the run
 */
export function runFigures(load: LoadResult): RunFigures {
  const ok = load.responses.filter((r) => r.status >= 200 && r.status < 300)
  const reranked = ok.filter((r) => r.summary?.reranked === true)
  return {
    responses: load.responses.length,
    ok: ok.length,
    throughput: load.responses.length / load.seconds,
    failed: load.responses.length - ok.length + load.errors,
    all: summarize(ok.map((r) => r.latencyMs)),
    reranked: summarize(reranked.map((r) => r.latencyMs)),
    fallback: summarize(latencies(ok, (r) => r.summary !== undefined && !r.summary.reranked && r.summary.total > 0)),
    noMatch: summarize(latencies(ok, (r) => r.summary?.total === 0)),
    rerankedTook: summarize(reranked.map((r) => r.summary!.tookMs)),
    rerankedOutside: summarize(reranked.map((r) => r.latencyMs - r.summary!.tookMs)),
  }
}

/**
 * Latency of the responses completed while an event ran (and `afterMs` after it), against the rest.
 * @param load - the run
 * @param event - the event
 * @param afterMs - how long after the event's end still counts. Defaults to 1000.
 */
export function eventWindow(load: LoadResult, event: EventRecord, afterMs = 1000): { readonly during: Summary; readonly outside: Summary } {
  const inside = (r: ResponseRecord): boolean => r.atMs >= event.startMs && r.atMs <= event.endMs + afterMs
  return {
    during: summarize(latencies(load.responses, inside)),
    outside: summarize(latencies(load.responses, (r) => !inside(r))),
  }
}

/** One window of a run's timeline. */
export interface TimelineWindow {
  readonly fromS: number
  readonly latency: Summary
  /** `generation|model id` → answers. */
  readonly servedBy: ReadonlyMap<string, number>
}

/**
 * The answers of a run in consecutive windows of `ms` (by completion time).
 * @param load - the run
 * @param ms - window length
 */
export function timeline(load: LoadResult, ms: number): TimelineWindow[] {
  const windows: Array<{ latencies: number[]; servedBy: Map<string, number> }> = []
  for (const r of load.responses) {
    const at = Math.floor(r.atMs / ms)
    const window = (windows[at] ??= { latencies: [], servedBy: new Map() })
    window.latencies.push(r.latencyMs)
    if (r.summary !== undefined) {
      const key = `${r.summary.generation}|${r.summary.model ?? 'none'}`
      window.servedBy.set(key, (window.servedBy.get(key) ?? 0) + 1)
    }
  }
  return [...windows.entries()]
    .filter(([, window]) => window !== undefined)
    .map(([at, window]) => ({ fromS: (at * ms) / 1000, latency: summarize(window.latencies), servedBy: window.servedBy }))
}

const f = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '–')
const n = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–')
const pct = (s: Summary): string => (s.count === 0 ? '–' : `${f(s.p50)} / ${f(s.p90)} / ${f(s.p99)} / ${f(s.max)}`)
const load3 = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join(' / ')

function modeText(mode: LoadMode): string {
  return mode.kind === 'paced'
    ? `${mode.rate} req/s paced (${mode.rate} × 1 connection, 1 req/s each, staggered)`
    : mode.kind === 'max'
      ? `max rate, ${mode.connections} connections`
      : `${mode.rate} req/s, one autocannon instance, ${mode.connections} connections (its burst pacing)`
}

/**
 * The report's Markdown.
 * @param results - the benchmark
 */
export function renderReport(results: BenchResults): string {
  const lines: string[] = []
  const push = (...more: string[]): void => {
    lines.push(...more)
  }
  const { setup, machine } = results
  push(
    `- Command: \`${results.command}\``,
    `- Run: ${results.startedAt} → ${results.finishedAt}`,
    `- Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB.toFixed(0)} GiB RAM, Node ${machine.node}, ${machine.os}; the load generator (autocannon) runs on the same 2 cores as the server`,
    `- Index: synthetic ${n(setup.docCount)} documents (tools/synth seed 1), PubMed fields, generation ${setup.generation}; first stage BM25F, PubMed syntax, match **${setup.match}**, top 500 reranked; searches run on ${results.searchWorkers === undefined || results.searchWorkers === 0 ? "the server's own thread" : `**${results.searchWorkers} worker threads** (\`--search-workers\`)`}`,
    `- Queries: ${setup.logQueries} real PubMed log queries (${setup.queryFile.replace(/.*\/shared\/data\//, 'shared/data/')}); ${setup.acceptedCount} sent, ${setup.logQueries - setup.acceptedCount} left out because the engine rejects them (400: ${Object.entries(setup.rejected).map(([code, count]) => `${count} ${code}`).join(', ')}); of those sent, ${setup.matches.atLeast500} match ≥ 500 documents, ${setup.matches.under500} match 1–499, ${setup.matches.none} match nothing`,
    `- Models (latency only, not effectiveness): ${setup.models.map((m) => `${m.name} = ${m.trees} trees on ${m.trainQueries} training queries (${m.slice}-numbered, seed ${m.seed}, ${n(m.trainRows)} rows)`).join('; ')}; labels: title-term coverage of the first-stage top 500`,
  )
  if (results.quiet.threshold !== undefined) {
    push(
      `- Quiet machine: each run waited for a 1-minute load average ≤ ${results.quiet.threshold}: ${results.quiet.waits.map((w) => `${w.before} ${w.waitedS.toFixed(0)} s → ${w.load.toFixed(2)}`).join(', ')}`,
    )
  }
  push('')

  push(
    '### Runs',
    '',
    'Latency is the client’s (request written → response complete), in ms: p50 / p90 / p99 / max, over 2xx answers. "Reranked" are the answers with `reranked: true` (the model reordered the top ≤ 500 candidates). CPU is the server process alone (`/proc/<pid>/stat`, % of one core), RSS its VmRSS, sampled every 500 ms.',
    '',
    '| run | load | requests | req/s | non-2xx | socket errors / timeouts | all: p50 / p90 / p99 / max | reranked (n): p50 / p90 / p99 / max | server CPU % mean (peak 0.5 s) | RSS MiB mean / peak | load avg before → after |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  )
  for (const run of results.runs) {
    const fig = runFigures(run.load)
    push(
      `| ${run.name} | ${modeText(run.load.mode)}, ${f(run.load.seconds, 0)} s | ${n(fig.responses)} | ${f(fig.throughput)} | ${run.load.non2xx} | ${run.load.errors} / ${run.load.timeouts} | ${pct(fig.all)} | (${n(fig.reranked.count)}) ${pct(fig.reranked)} | ${f(run.usage.cpuPercent, 0)} (${f(run.usage.cpuPercentPeak, 0)}) | ${f(run.usage.rssMeanMiB, 0)} / ${f(run.usage.rssPeakMiB, 0)} | ${load3(run.loadBefore)} → ${load3(run.loadAfter)} |`,
    )
  }
  push('')

  push(
    '### Latency by kind of search',
    '',
    '| run | reranked: client p50 / p99 | reranked: server `tookMs` p50 / p99 | reranked: client − `tookMs` p50 / p99 | left in first-stage order (n): p50 / p99 | no match (n): p50 / p99 |',
    '|---|---:|---:|---:|---:|---:|',
  )
  for (const run of results.runs) {
    const fig = runFigures(run.load)
    push(
      `| ${run.name} | ${f(fig.reranked.p50)} / ${f(fig.reranked.p99)} | ${f(fig.rerankedTook.p50)} / ${f(fig.rerankedTook.p99)} | ${f(fig.rerankedOutside.p50)} / ${f(fig.rerankedOutside.p99)} | (${n(fig.fallback.count)}) ${f(fig.fallback.p50)} / ${f(fig.fallback.p99)} | (${n(fig.noMatch.count)}) ${f(fig.noMatch.p50)} / ${f(fig.noMatch.p99)} |`,
    )
  }
  push('')

  const swapRuns = results.runs.filter((run) => run.load.events.length > 0)
  for (const run of swapRuns) {
    push(
      `### Swaps during "${run.name}"`,
      '',
      '| event | at s | took ms | ok | what | responses during (+1 s): n, p50 / p99 / max | all other responses: p99 / max |',
      '|---|---:|---:|---|---|---:|---:|',
    )
    for (const event of run.load.events) {
      const window = eventWindow(run.load, event)
      push(
        `| ${event.name} | ${f(event.startMs / 1000)} | ${n(event.endMs - event.startMs)} | ${event.ok ? 'yes' : 'NO'} | ${describe(event.detail)} | ${n(window.during.count)}, ${f(window.during.p50)} / ${f(window.during.p99)} / ${f(window.during.max)} | ${f(window.outside.p99)} / ${f(window.outside.max)} |`,
      )
    }
    const served = new Map<string, number>()
    for (const r of run.load.responses) {
      if (r.summary !== undefined) {
        const model = r.summary.model === undefined ? 'none' : (results.modelNames[r.summary.model] ?? r.summary.model)
        const key = `generation ${r.summary.generation}, model ${model}`
        served.set(key, (served.get(key) ?? 0) + 1)
      }
    }
    push('', `Answers by what served them: ${[...served].map(([key, count]) => `${key}: ${n(count)}`).join('; ')}.`, '')
    push(
      'Over time (answers completed in each 10 s; the events above start at 20 and 40 s):',
      '',
      '| s | answers | p50 | p99 | max | served by |',
      '|---|---:|---:|---:|---:|---|',
    )
    for (const window of timeline(run.load, 10_000)) {
      const by = [...window.servedBy].map(([key, count]) => `${results.modelNames[key.split('|')[1]!] ?? key.split('|')[1]} gen ${key.split('|')[0]} (${count})`).join(', ')
      push(`| ${window.fromS}–${window.fromS + 10} | ${n(window.latency.count)} | ${f(window.latency.p50)} | ${f(window.latency.p99)} | ${f(window.latency.max)} | ${by} |`)
    }
    push('')
  }

  const phases = results.phases
  if (phases !== undefined) {
    push(
      '### Where the time goes (in process, no HTTP, no load)',
      '',
      `The same accepted queries through the engine in one process (\`phases.js\`), ${phases.rounds} measured round(s) after a warm-up; ${phases.reranked.queries} queries reranked (candidates per query: p50 ${f(phases.reranked.candidates.p50, 0)}, mean ${f(phases.reranked.candidates.mean, 0)}), ${phases.fallback.queries} left in first-stage order by the model's range check, ${phases.noMatch.queries} matching nothing. Milliseconds:`,
      '',
      '| phase (reranked queries) | p50 | p90 | p99 | max | mean |',
      '|---|---:|---:|---:|---:|---:|',
    )
    const row = (name: string, s: Summary): void => {
      push(`| ${name} | ${f(s.p50, 2)} | ${f(s.p90, 2)} | ${f(s.p99, 2)} | ${f(s.max, 2)} | ${f(s.mean, 2)} |`)
    }
    row('first stage: BM25F top 500 (`engine.firstStageSearch`)', phases.reranked.firstStage)
    row('features: 179 per candidate (`extract`)', phases.reranked.features)
    row('scoring + sort: 500 trees (rerank − features)', phases.reranked.scoring)
    row('rerank total (`reranker.rerank`)', phases.reranked.rerank)
    row('page of 20 (`engine.search`: first stage + rerank + records)', phases.reranked.engineSearch)
    row('page of 20, process CPU time', phases.reranked.engineSearchCpu)
    row('of which the 20 stored records (`reader.stored`)', phases.reranked.records)
    row('highlights of the 20 hits', phases.reranked.highlights)
    row('no-match queries: `engine.search`', phases.noMatch.engineSearch)
    push('')
  }

  const withMetrics = results.runs.filter((run) => run.metrics !== undefined)
  if (withMetrics.length > 0) {
    push('### Server metrics after each server’s last run (`/metrics`)', '', '| after run | metric | value |', '|---|---|---:|')
    for (const run of withMetrics) {
      for (const [key, value] of Object.entries(run.metrics!)) {
        push(`| ${run.name} | \`${key}\` | ${Number.isInteger(value) ? n(value) : value.toPrecision(4)} |`)
      }
    }
    push('')
  }
  if (results.binCheck !== undefined) {
    const check = results.binCheck
    push(
      '### The unmodified `apps/server/dist/bin.js`',
      '',
      `${check.seconds} s at 50 req/s through the bin as shipped (rate limit 600 requests/minute per client address): status counts ${JSON.stringify(check.statusCounts)}` +
        (check.first429AtS === undefined ? '.' : `; the first 429 came ${f(check.first429AtS)} s into the run.`) +
        ' The measured runs therefore use `dist/serve.js`, which is `startServer` as the bin calls it with `rateLimit: false`.',
      '',
    )
  }
  return `${lines.join('\n')}\n`
}

function describe(detail: Readonly<Record<string, unknown>>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key} ${typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(0)) : String(value)}`)
    .join(', ')
}
