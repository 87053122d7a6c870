/**
 * `node dist/open-cost.js --setup FILE [--rounds N] [--engine MODULE …]`: what opening the
 * served engine and swapping its model cost, each trial in a fresh process: `openSearch` of the
 * index with model A (wall and CPU time, the longest stall of the event loop while it runs, RSS
 * after it), then the admin reload of model B as the server does it (`reopenSearch`: the model
 * alone while the index has not moved on), with the same measures, and RSS once the first engine
 * is dropped (after a forced GC), beside the process's peak RSS (`maxRSS`) after each. Each `--engine` is the `dist/index.js` of a `@pubmatch/engine` build (default: this
 * checkout's); with several, the trials alternate between them round by round, so two builds are
 * compared in one run on the same machine state. A build without `reopenSearch` reloads as the
 * server did before it: `openSearch` with the first stage and the new model.
 * Prints a Markdown table and writes the raw trials as JSON (`--out`).
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { readJsonFileSync } from '@pubmatch/core/node'
import { SETUP_RESULT } from './results.ts'
import { summarize } from './stats.ts'

/** One trial's measures. */
interface Trial {
  readonly engine: string
  readonly openMs: number
  readonly openCpuMs: number
  /** The longest the event loop waited past a 5 ms timer while the engine opened. */
  readonly openStallMs: number
  readonly rssBeforeMiB: number
  readonly rssOpenMiB: number
  /** The process's peak RSS once the engine is open (`maxRSS`). */
  readonly peakOpenMiB: number
  readonly reloadMs: number
  readonly reloadCpuMs: number
  readonly reloadStallMs: number
  readonly rssReloadMiB: number
  /** The process's peak RSS once the reload is done. */
  readonly peakReloadMiB: number
}

type Engine = { readonly model?: { readonly id: string; readonly dir: string }; readonly firstStage: { ranker: string; params: unknown; match: string; syntax: string } }
interface EngineModule {
  openSearch(options: Record<string, unknown>): Promise<Engine>
  reopenSearch?: (engine: Engine, request: { readonly model?: string | null }) => Promise<Engine>
}

const mib = (bytes: number): number => bytes / 2 ** 20

function gcAndRss(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  return mib(process.memoryUsage().rss)
}

/** Runs `work` while a 5 ms timer measures how late the event loop serves it. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number; stallMs: number }> {
  let stall = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last - 5)
    last = now
  }, 5)
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = await work()
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  clearInterval(timer)
  stall = Math.max(stall, performance.now() - last - 5)
  return { value, ms, cpuMs: (used.user + used.system) / 1000, stallMs: Math.max(0, stall) }
}

/** One trial, in this process (`--trial`). */
async function trial(engineModule: string, index: string, modelA: string, modelB: string, match: string): Promise<Trial> {
  const mod = (await import(pathToFileURL(engineModule).href)) as EngineModule
  const rssBeforeMiB = gcAndRss()
  const open = await measured(() => mod.openSearch({ index, model: modelA, ranking: { match } }))
  const peakOpenMiB = process.resourceUsage().maxRSS / 1024
  const rssOpenMiB = gcAndRss()
  let first: Engine | undefined = open.value
  const reload = await measured(() => {
    const current = first!
    if (mod.reopenSearch !== undefined) {
      return mod.reopenSearch(current, { model: modelB })
    }
    // the server's reload before reopenSearch (apps/server, routes/admin.ts)
    const { ranker, params, match: m, syntax } = current.firstStage
    return mod.openSearch({ index, ranking: { ranker, params, match: m, syntax }, model: modelB })
  })
  if (reload.value.model?.dir !== modelB) {
    throw new Error(`the reload serves ${reload.value.model?.dir}, not ${modelB}`)
  }
  const peakReloadMiB = process.resourceUsage().maxRSS / 1024
  first = undefined
  const rssReloadMiB = gcAndRss()
  return {
    engine: engineModule,
    openMs: open.ms,
    openCpuMs: open.cpuMs,
    openStallMs: open.stallMs,
    rssBeforeMiB,
    rssOpenMiB,
    peakOpenMiB,
    reloadMs: reload.ms,
    reloadCpuMs: reload.cpuMs,
    reloadStallMs: reload.stallMs,
    rssReloadMiB,
    peakReloadMiB,
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      setup: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      engine: { type: 'string', multiple: true },
      out: { type: 'string' },
      trial: { type: 'string' },
    },
  })
  const setup = readJsonFileSync(values.setup!, SETUP_RESULT)
  const [modelA, modelB] = [setup.models.find((m) => m.name === 'A')!.dir, setup.models.find((m) => m.name === 'B')!.dir]
  if (values.trial !== undefined) {
    process.stdout.write(`${JSON.stringify(await trial(values.trial, setup.index, modelA, modelB, setup.match))}\n`)
    return
  }
  const require = createRequire(import.meta.url)
  const engines = (values.engine ?? [require.resolve('@pubmatch/engine')]).map((e) => resolve(e))
  const trials: Trial[] = []
  const self = fileURLToPath(import.meta.url)
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const engine of engines) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', self, '--setup', values.setup!, '--trial', engine], { maxBuffer: 1 << 20 })
      const result = JSON.parse(stdout) as Trial
      process.stderr.write(`round ${round + 1}, ${engine}: open ${result.openMs.toFixed(0)} ms, reload ${result.reloadMs.toFixed(0)} ms\n`)
      trials.push(result)
    }
  }
  const rows = engines.map((engine) => {
    const mine = trials.filter((t) => t.engine === engine)
    const med = (key: keyof Omit<Trial, 'engine'>): string => summarize(mine.map((t) => t[key])).p50.toFixed(0)
    return `| ${engine} | ${mine.length} | ${med('openMs')} | ${med('openCpuMs')} | ${med('openStallMs')} | ${med('rssOpenMiB')} | ${med('peakOpenMiB')} | ${med('reloadMs')} | ${med('reloadCpuMs')} | ${med('reloadStallMs')} | ${med('rssReloadMiB')} | ${med('peakReloadMiB')} |`
  })
  process.stdout.write(
    [
      `Index ${setup.index} (${setup.docCount.toLocaleString('en')} documents), models A → B; medians of ${values.rounds} trials per build, alternating, each in a fresh process.`,
      '',
      '| engine build | trials | open ms | open CPU ms | open: longest event-loop stall ms | RSS after open MiB | peak RSS MiB | reload ms | reload CPU ms | reload: longest stall ms | RSS after reload MiB | peak RSS MiB |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  )
  if (values.out !== undefined) {
    writeFileSync(values.out, `${JSON.stringify(trials, null, 2)}\n`)
  }
}

await main()
