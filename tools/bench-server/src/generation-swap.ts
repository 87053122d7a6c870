/**
 * `node dist/generation-swap.js --setup FILE [--rounds N] [--serve SCRIPT …] [--seconds S] [--at S]`:
 * the swap of a new index generation under the paced load, several times, two server builds
 * alternating. Each trial starts a fresh server (`--serve`: a `dist/serve.js` of this tool, of
 * this checkout or another) on generation 1 of a copy of the benchmark's index, served through a
 * symbolic link (the generations `open-cost.js --generation` prepares in
 * `.cache/open-generation/`), warms it up for 5 s at the maximum rate, then drives 50 req/s
 * evenly paced for `--seconds` (default 25); at `--at` seconds (default 10) the link is repointed
 * to generation 2 (`medsamp2006.xml` ingested and applied with `updateIndex`) and
 * `POST /admin/reload {}` swaps it in. The ingest and the index update are not part of a trial
 * (the swap run of `run.js` has them): what is measured is the server reopening the new
 * generation while it answers. Reported per trial: the reload's duration (POST answered) and
 * the client latencies of the answers completed in the 10 s from 1 s before the POST (n, p50,
 * p99, max), beside those of the rest of the run; then per build the medians over its trials.
 */
import { randomBytes } from 'node:crypto'
import { renameSync, rmSync, symlinkSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonFileSync } from '@pubmatch/core/node'
import { runLoad, type LoadEvent } from './load.ts'
import { spawnServer } from './process.ts'
import { SETUP_RESULT } from './results.ts'
import { summarize } from './stats.ts'

const { values } = parseArgs({
  options: {
    setup: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    serve: { type: 'string', multiple: true },
    seconds: { type: 'string', default: '25' },
    at: { type: 'string', default: '10' },
  },
})
const setup = readJsonFileSync(values.setup!, SETUP_RESULT)
const here = dirname(fileURLToPath(import.meta.url))
const scripts = (values.serve ?? [join(here, 'serve.js')]).map((s) => resolve(s))
const base = join(dirname(resolve(values.setup!)), 'open-generation')
const link = join(base, 'live')
const [first, second] = [join(base, 'first', 'index'), join(base, 'second', 'index')]
const modelA = setup.models.find((m) => m.name === 'A')!.dir
const token = randomBytes(24).toString('hex')
const seconds = Number(values.seconds)
const at = Number(values.at)

function pointAt(target: string): void {
  const fresh = `${link}.${process.pid}`
  rmSync(fresh, { force: true })
  symlinkSync(target, fresh)
  renameSync(fresh, link)
}

interface Trial {
  readonly script: string
  readonly reloadMs: number
  readonly generation: number
  readonly window: ReturnType<typeof summarize>
  readonly rest: ReturnType<typeof summarize>
  readonly failed: number
}

async function trial(script: string): Promise<Trial> {
  pointAt(first)
  const server = await spawnServer(script, ['--index', link, '--model', modelA, '--match', setup.match, '--port', '0'], { PUBMATCH_ADMIN_TOKEN: token })
  try {
    await runLoad({ url: server.url, queries: setup.accepted, size: 20, seconds: 5, mode: { kind: 'max', connections: 2 } })
    let generation = 0
    const events: LoadEvent[] = [
      {
        name: 'new index generation, reload {}',
        atSeconds: at,
        run: async () => {
          pointAt(second)
          const t0 = performance.now()
          const response = await fetch(`${server.url}/admin/reload`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          })
          const body = (await response.json()) as { generation?: number }
          generation = body.generation ?? 0
          return { status: response.status, ms: performance.now() - t0 }
        },
      },
    ]
    const result = await runLoad({ url: server.url, queries: setup.accepted, size: 20, seconds, mode: { kind: 'paced', rate: 50 }, events })
    const event = result.events[0]!
    const from = event.startMs - 1000
    const to = from + 10_000
    const ok = result.responses.filter((r) => r.status === 200)
    const inWindow = ok.filter((r) => r.atMs >= from && r.atMs < to).map((r) => r.latencyMs)
    const rest = ok.filter((r) => r.atMs < from || r.atMs >= to).map((r) => r.latencyMs)
    return {
      script,
      reloadMs: event.endMs - event.startMs,
      generation,
      window: summarize(inWindow),
      rest: summarize(rest),
      failed: result.responses.length - ok.length + result.errors,
    }
  } finally {
    await server.stop()
  }
}

const trials: Trial[] = []
for (let round = 0; round < Number(values.rounds); round++) {
  for (const script of scripts) {
    const t = await trial(script)
    trials.push(t)
    process.stderr.write(
      `round ${round + 1}, ${script}: reload ${t.reloadMs.toFixed(0)} ms → generation ${t.generation}; 10 s around it: n ${t.window.count}, p50 ${t.window.p50.toFixed(1)}, p99 ${t.window.p99.toFixed(1)}, max ${t.window.max.toFixed(1)} ms; rest p99 ${t.rest.p99.toFixed(1)} ms; failed ${t.failed}\n`,
    )
  }
}
const f = (x: number): string => x.toFixed(1)
const rows = scripts.map((script) => {
  const mine = trials.filter((t) => t.script === script)
  const med = (pick: (t: Trial) => number): string => f(summarize(mine.map(pick)).p50)
  return `| ${script} | ${mine.length} | ${med((t) => t.reloadMs)} | ${med((t) => t.window.p50)} | ${med((t) => t.window.p99)} | ${med((t) => t.window.max)} | ${mine.map((t) => f(t.window.p99)).join(', ')} | ${med((t) => t.rest.p99)} | ${mine.reduce((n, t) => n + t.failed, 0)} |`
})
process.stdout.write(
  [
    `New index generation swapped in under 50 req/s paced (${seconds} s, reload at ${at} s), ${values.rounds} trial(s) per server build, alternating, each a fresh server; medians over the trials.`,
    '',
    '| server | trials | reload ms | 10 s around it: p50 ms | p99 ms | max ms | p99 of each trial | rest of the run: p99 ms | failed |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows,
    '',
  ].join('\n'),
)
