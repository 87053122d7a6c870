/**
 * `node dist/open-cost.js --setup FILE [--rounds N] [--engine MODULE …] [--generation]`: what opening the
 * served engine and swapping its model cost, each trial in a fresh process: `openSearch` of the
 * index with model A (wall and CPU time, the longest stall of the event loop while it runs, RSS
 * after it), then the admin reload of model B as the server does it (`reopenSearch`: the model
 * alone while the index has not moved on), with the same measures, and RSS once the first engine
 * is dropped (after a forced GC), beside the process's peak RSS (`maxRSS`) after each. Each `--engine` is the `dist/index.js` of a `@pubmatch/engine` build (default: this
 * checkout's); with several, the trials alternate between them round by round, so two builds are
 * compared in one run on the same machine state. A build without `reopenSearch` reloads as the
 * server did before it: `openSearch` with the first stage and the new model.
 * With `--generation`, each trial then reloads a new index generation as the swap run makes one
 * (`reopenSearch(engine, {})` once the index directory holds generation 2: NLM's
 * `medsamp2006.xml` ingested and applied with `updateIndex`), with the same measures. The two
 * generations are prepared once in `.cache/open-generation/` (copies of the corpus and index,
 * the second updated by `add-generation.js`); a trial serves them through a symbolic link that
 * points at the first, then is repointed at the second.
 * Prints a Markdown table and writes the raw trials as JSON (`--out`).
 */
import { execFile } from 'node:child_process'
import { existsSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { readJsonFileSync } from '@pubmatch/core/node'
import { addRealArticles, copyCorpusAndIndex } from './prepare.ts'
import { sharedDataDir } from './queries.ts'
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
  /** The reload of a new index generation (`--generation`). */
  readonly generation?: { readonly ms: number; readonly cpuMs: number; readonly stallMs: number; readonly rssMiB: number }
}

type Engine = { readonly generation: number; readonly model?: { readonly id: string; readonly dir: string }; readonly firstStage: { ranker: string; params: unknown; match: string; syntax: string } }
interface EngineModule {
  openSearch(options: Record<string, unknown>): Promise<Engine>
  reopenSearch?: (engine: Engine, request: { readonly index?: string; readonly model?: string | null }) => Promise<Engine>
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
async function trial(engineModule: string, index: string, modelA: string, modelB: string, match: string, generations?: Generations): Promise<Trial> {
  const mod = (await import(pathToFileURL(engineModule).href)) as EngineModule
  if (generations !== undefined) {
    pointAt(generations.link, generations.first)
  }
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
  let generation: Trial['generation']
  if (generations !== undefined) {
    pointAt(generations.link, generations.second)
    const served = reload.value
    const next = await measured(() => {
      if (mod.reopenSearch !== undefined) {
        return mod.reopenSearch(served, {})
      }
      const { ranker, params, match: m, syntax } = served.firstStage
      return mod.openSearch({ index, ranking: { ranker, params, match: m, syntax }, model: modelB })
    })
    if (next.value.generation === served.generation) {
      throw new Error(`the generation reload serves generation ${next.value.generation} still`)
    }
    generation = { ms: next.ms, cpuMs: next.cpuMs, stallMs: next.stallMs, rssMiB: gcAndRss() }
  }
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
    ...(generation === undefined ? {} : { generation }),
  }
}

/** The two index generations of `--generation`, and the link a trial serves them through. */
interface Generations {
  /** The index directory the engine opens: a symbolic link to `first`'s or `second`'s index. */
  readonly link: string
  readonly first: string
  readonly second: string
}

/** Points `link` at `target` (atomically: a new link renamed over the old). */
function pointAt(link: string, target: string): void {
  const fresh = `${link}.${process.pid}`
  rmSync(fresh, { force: true })
  symlinkSync(target, fresh)
  renameSync(fresh, link)
}

/** The two generations, prepared once beside the setup's cache. */
async function prepareGenerations(setup: { readonly corpus: string; readonly index: string }, cache: string): Promise<Generations> {
  const dir = join(cache, 'open-generation')
  const done = join(dir, 'ready')
  const first = { corpus: join(dir, 'first', 'corpus'), index: join(dir, 'first', 'index') }
  const second = { corpus: join(dir, 'second', 'corpus'), index: join(dir, 'second', 'index') }
  if (!existsSync(done)) {
    process.stderr.write(`open-cost: preparing two generations in ${dir} (a copy, and a copy with medsamp2006.xml added)\n`)
    await copyCorpusAndIndex(setup, join(dir, 'first'))
    await copyCorpusAndIndex(setup, join(dir, 'second'))
    await addRealArticles(second, join(sharedDataDir(), 'pubmed-xml/medsamp2006.xml'))
    writeFileSync(done, 'ready\n')
  }
  return { link: join(dir, 'live'), first: resolve(first.index), second: resolve(second.index) }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      setup: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      engine: { type: 'string', multiple: true },
      out: { type: 'string' },
      trial: { type: 'string' },
      generation: { type: 'boolean', default: false },
    },
  })
  const setup = readJsonFileSync(values.setup!, SETUP_RESULT)
  const [modelA, modelB] = [setup.models.find((m) => m.name === 'A')!.dir, setup.models.find((m) => m.name === 'B')!.dir]
  const generations = values.generation === true ? await prepareGenerations(setup, dirname(resolve(values.setup!))) : undefined
  const index = generations?.link ?? setup.index
  if (values.trial !== undefined) {
    process.stdout.write(`${JSON.stringify(await trial(values.trial, index, modelA, modelB, setup.match, generations))}\n`)
    return
  }
  const require = createRequire(import.meta.url)
  const engines = (values.engine ?? [require.resolve('@pubmatch/engine')]).map((e) => resolve(e))
  const trials: Trial[] = []
  const self = fileURLToPath(import.meta.url)
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const engine of engines) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', self, '--setup', values.setup!, '--trial', engine, ...(generations === undefined ? [] : ['--generation'])], { maxBuffer: 1 << 20 })
      const result = JSON.parse(stdout) as Trial
      const next = result.generation === undefined ? '' : `, generation ${result.generation.ms.toFixed(0)} ms (stall ${result.generation.stallMs.toFixed(0)} ms)`
      process.stderr.write(`round ${round + 1}, ${engine}: open ${result.openMs.toFixed(0)} ms, reload ${result.reloadMs.toFixed(0)} ms${next}\n`)
      trials.push(result)
    }
  }
  const rows = engines.map((engine) => {
    const mine = trials.filter((t) => t.engine === engine)
    const med = (key: keyof Omit<Trial, 'engine' | 'generation'>): string => summarize(mine.map((t) => t[key])).p50.toFixed(0)
    const gen = (key: keyof NonNullable<Trial['generation']>): string => summarize(mine.map((t) => t.generation?.[key] ?? Number.NaN)).p50.toFixed(0)
    const tail = generations === undefined ? '' : ` ${gen('ms')} | ${gen('cpuMs')} | ${gen('stallMs')} | ${gen('rssMiB')} |`
    return `| ${engine} | ${mine.length} | ${med('openMs')} | ${med('openCpuMs')} | ${med('openStallMs')} | ${med('rssOpenMiB')} | ${med('peakOpenMiB')} | ${med('reloadMs')} | ${med('reloadCpuMs')} | ${med('reloadStallMs')} | ${med('rssReloadMiB')} | ${med('peakReloadMiB')} |${tail}`
  })
  const genHead = generations === undefined ? '' : ' generation reload ms | generation CPU ms | generation: longest stall ms | RSS after MiB |'
  process.stdout.write(
    [
      `Index ${setup.index} (${setup.docCount.toLocaleString('en')} documents${generations === undefined ? '' : `; served from a copy through ${index}, then its next generation`}), models A → B; medians of ${values.rounds} trials per build, alternating, each in a fresh process.`,
      '',
      `| engine build | trials | open ms | open CPU ms | open: longest event-loop stall ms | RSS after open MiB | peak RSS MiB | reload ms | reload CPU ms | reload: longest stall ms | RSS after reload MiB | peak RSS MiB |${genHead}`,
      `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${generations === undefined ? '' : '---:|---:|---:|---:|'}`,
      ...rows,
      '',
    ].join('\n'),
  )
  if (values.out !== undefined) {
    writeFileSync(values.out, `${JSON.stringify(trials, null, 2)}\n`)
  }
}

await main()
