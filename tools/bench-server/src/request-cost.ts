/**
 * `node dist/request-cost.js --setup FILE [--rounds N] [--engine MODULE …]`: the CPU time of one
 * `GET /search` page in process, the work the server's thread does for it: `engine.search` (page
 * of 20 from the top 500 reranked by model A), the highlights of its hits, and the JSON of the
 * answer. Each `--engine` is the `dist/index.js` of a `@pubmatch/engine` build (default: this
 * checkout's); all are opened in this one process and every query runs through each in turn, so
 * two builds are compared interleaved, query by query, on the same machine state; their answers
 * must be the same JSON (ids, ranks, scores, records and highlights; `tookMs` aside), or the run stops. The first round
 * warms up. `--record-cache N` opens every engine with `recordCache: N` (a build without the option
 * ignores it). Prints a Markdown table of per-request CPU (`process.cpuUsage`) and wall time.
 */
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonFileSync } from '@pubmatch/core/node'
import { SETUP_RESULT } from './results.ts'
import { summarize } from './stats.ts'

interface Page {
  readonly total: number
  readonly reranked: boolean
  readonly hits: ReadonlyArray<{ readonly id: string; readonly rank: number; readonly score: number; readonly document: unknown }>
}
interface Engine {
  search(query: string, options: Record<string, unknown>): Page
  highlights(document: never, query: string): unknown
}
interface EngineModule {
  openSearch(options: Record<string, unknown>): Promise<Engine>
}

/** One request's work: the page, its highlights, its JSON. */
function request(engine: Engine, query: string): { page: Page; hits: unknown[]; json: string } {
  const page = engine.search(query, { limit: 20 })
  const hits = page.hits.map((hit) => ({ ...hit, ...(engine.highlights(hit.document as never, query) as object) }))
  const json = JSON.stringify({ ...page, hits })
  return { page, hits, json }
}

/** The whole answer as JSON (records, highlights, both stages' scores, warnings), `tookMs` aside. */
const fingerprint = (page: Page, hits: unknown[]): string => JSON.stringify({ ...page, tookMs: undefined, hits })

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { setup: { type: 'string' }, rounds: { type: 'string', default: '3' }, engine: { type: 'string', multiple: true }, 'record-cache': { type: 'string' } },
  })
  const setup = readJsonFileSync(values.setup!, SETUP_RESULT)
  const modelA = setup.models.find((m) => m.name === 'A')!.dir
  const require = createRequire(import.meta.url)
  const modules = (values.engine ?? [require.resolve('@pubmatch/engine')]).map((e) => resolve(e))
  const engines: Engine[] = []
  for (const module of modules) {
    const mod = (await import(pathToFileURL(module).href)) as EngineModule
    const recordCache = values['record-cache'] === undefined ? {} : { recordCache: Number(values['record-cache']) }
    engines.push(await mod.openSearch({ index: setup.index, model: modelA, ranking: { match: setup.match }, ...recordCache }))
  }
  const cpu = modules.map(() => [] as number[])
  const wall = modules.map(() => [] as number[])
  let reranked = 0
  const rounds = Number(values.rounds)
  for (let round = 0; round < rounds; round++) {
    for (const query of setup.accepted) {
      let reference: string | undefined
      engines.forEach((engine, e) => {
        const before = process.cpuUsage()
        const started = performance.now()
        const { page, hits } = request(engine, query)
        const ms = performance.now() - started
        const used = process.cpuUsage(before)
        if (round > 0) {
          cpu[e]!.push((used.user + used.system) / 1000)
          wall[e]!.push(ms)
        }
        const seen = fingerprint(page, hits)
        if (reference === undefined) {
          reference = seen
          if (round === 1 && page.reranked) {
            reranked++
          }
        } else if (seen !== reference) {
          throw new Error(`${modules[e]} answers ${JSON.stringify(query)} differently from ${modules[0]}`)
        }
      })
    }
  }
  const rows = modules.map((module, e) => {
    const c = summarize(cpu[e]!)
    const w = summarize(wall[e]!)
    return `| ${module} | ${c.count} | ${c.mean.toFixed(2)} | ${c.p50.toFixed(2)} | ${c.p99.toFixed(2)} | ${w.mean.toFixed(2)} | ${w.p50.toFixed(2)} | ${w.p99.toFixed(2)} |`
  })
  process.stdout.write(
    [
      `${setup.accepted.length} queries × ${rounds - 1} measured rounds (after one warm-up round), ${reranked} of the queries reranked; every build gave the same pages.`,
      '',
      '| engine build | requests | CPU mean ms | CPU p50 ms | CPU p99 ms | wall mean ms | wall p50 ms | wall p99 ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  )
}

await main()
