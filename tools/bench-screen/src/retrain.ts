/**
 * `pnpm --filter @pubmatch/bench-screen bench:retrain [-- --candidates 5000]`: the time of one
 * retrain-and-rank (what the reviewer waits for after a decision) on real candidates: the largest
 * Cohen 2006 reviews together (BetaBlockers, Opiods, SkeletalMuscleRelaxants, …) cut to
 * `--candidates` records, with 10 … 2,000 decisions taken in a seeded random order. For each size:
 * (wall-clock and CPU time: on a loaded machine the CPU time is the figure to read)
 * a cold fit (a new ranker, as after a restart) and then warm retrains (one more decision each, as
 * in a session), median and max over `--repeats`. Noisy on a shared machine: the load is printed.
 * `--config '<JSON>'` gives the ranker options (`features`, `lambda`, …) as `tune.js` takes them.
 * The features are built once (as a project keeps them in `features.bin`) and given to each ranker.
 */
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { machineDescription, markdownTable, sharedDataDir } from '@pubmatch/bench-kit'
import type { FeedbackGradeLike } from './grade.ts'
import { parseConfig } from './table.ts'
import { buildFeatures, createRanker, listScreeningReviews, readScreeningReview, type RankerName, type ScreeningRecord } from '@pubmatch/screen'

/** CPU milliseconds (user + system) of this process since `since`: less sensitive to other processes than the wall clock. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      candidates: { type: 'string', default: '5000' },
      repeats: { type: 'string', default: '5' },
      ranker: { type: 'string', default: 'logistic' },
      config: { type: 'string', default: '{}' },
    },
  })
  const config = parseConfig(values.config)
  const n = Number(values.candidates)
  const repeats = Number(values.repeats)
  const entries = (await listScreeningReviews(join(sharedDataDir(), 'screening'))).filter((e) => e.source === 'cohen2006')
  const datasets = await Promise.all(entries.map((e) => readScreeningReview(e)))
  datasets.sort((a, b) => b.records.length - a.records.length)
  const records: ScreeningRecord[] = datasets.flatMap((d) => d.records).slice(0, n)
  // a seeded shuffle (LCG) of the decision order
  let state = 42
  const order = records.map((_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    const j = state % (i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  const rows: string[][] = []
  const t0 = performance.now()
  // the features are built once, as a project keeps them (features.bin); each ranker gets them
  const matrix = buildFeatures(
    records.map((r) => r.article),
    { bigrams: true, ...config.features },
  )
  const featureMs = performance.now() - t0
  const options = { ...config, ranker: values.ranker as RankerName, matrix }
  for (const size of [10, 100, 500, 1000, 2000].filter((s) => s < n)) {
    const decisions = new Map<number, FeedbackGradeLike>()
    for (const i of order.slice(0, size)) {
      decisions.set(i, records[i]!.label === 1 ? 'relevant' : 'non-relevant')
    }
    const labels = [...decisions.values()]
    if (!labels.includes('relevant')) {
      decisions.set(records.findIndex((r) => r.label === 1), 'relevant')
    }
    const cold: number[] = []
    const warm: number[] = []
    const coldCpu: number[] = []
    const warmCpu: number[] = []
    for (let r = 0; r < repeats; r++) {
      const ranker = createRanker(records.map((x) => x.article), options)
      let t = performance.now()
      let cpu = process.cpuUsage()
      ranker.score(decisions)
      cold.push(performance.now() - t)
      coldCpu.push(cpuMs(cpu))
      const next = order[size + r]!
      decisions.set(next, records[next]!.label === 1 ? 'relevant' : 'non-relevant')
      t = performance.now()
      cpu = process.cpuUsage()
      ranker.score(decisions)
      warm.push(performance.now() - t)
      warmCpu.push(cpuMs(cpu))
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    rows.push([String(size), median(cold).toFixed(0), median(coldCpu).toFixed(0), median(warm).toFixed(0), Math.max(...warm).toFixed(0), median(warmCpu).toFixed(0)])
  }
  const table = markdownTable(['decisions', 'cold fit median ms', 'cold fit CPU ms', 'warm retrain median ms', 'warm max ms', 'warm retrain CPU ms'], rows)
  console.log(`${records.length} candidates (Cohen 2006, largest reviews first), ranker ${values.ranker}, options ${values.config}; building the features took ${featureMs.toFixed(0)} ms (${matrix.names.length} features); ${machineDescription()}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  console.log(table)
}

await main()
