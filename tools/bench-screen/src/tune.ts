/**
 * `node dist/tune.js --reviews A,B --seeds 0,1 --config '{"lambdaPerDecision": 9}' --label x`:
 * pubmatch's simulation alone with ranker options given as JSON, on the tuning reviews, to
 * choose the ranker's settings. Prints each review's WSS@95 (mean over the seeds), the mean,
 * and ASReview's WSS@95 from the saved runs (`results/asreview-cache`) where there are any.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { sharedDataDir } from '@pubmatch/bench-kit'
import { drawPriors, listScreeningReviews, readScreeningReview, screeningMetrics, simulateScreening } from '@pubmatch/screen'
import { mean, parseConfig } from './table.ts'

const ROOT = join(import.meta.dirname, '..')

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reviews: { type: 'string', default: 'Antihistamines,Estrogens,NSAIDS,OralHypoglycemics,Triptans,UrinaryIncontinence' },
      seeds: { type: 'string', default: '0,1' },
      config: { type: 'string', default: '{}' },
      label: { type: 'string', default: 'default' },
    },
  })
  const config = parseConfig(values.config)
  const seeds = values.seeds.split(',').map(Number)
  const wanted = values.reviews.split(',')
  const entries = (await listScreeningReviews(join(sharedDataDir(), 'screening'))).filter((e) => values.reviews === 'all' || wanted.includes(e.name))
  const ours: number[] = []
  const theirs: number[] = []
  let wins = 0
  for (const entry of entries) {
    const dataset = await readScreeningReview(entry)
    const truth = dataset.records.map((r) => r.label)
    const w: number[] = []
    const a: number[] = []
    let ms = 0
    for (const seed of seeds) {
      const priors = drawPriors(truth, seed)
      const result = simulateScreening(dataset, { ...config, seed, priors })
      w.push(result.metrics.wss95)
      ms += mean(result.retrainMs) / seeds.length
      const file = join(ROOT, 'results', 'asreview-cache', `${dataset.name}-${seed}.json`)
      if (existsSync(file)) {
        const saved = JSON.parse(await readFile(file, 'utf8')) as { order: number[] }
        a.push(screeningMetrics(saved.order.map((i) => truth[i]!), truth.length - 2).wss95)
      }
    }
    ours.push(mean(w))
    const asr = a.length === seeds.length ? mean(a) : Number.NaN
    theirs.push(asr)
    wins += mean(w) >= asr ? 1 : 0
    console.log(`${values.label}\t${dataset.name}\t${mean(w).toFixed(3)}\t${asr.toFixed(3)}\t${ms.toFixed(1)}ms`)
  }
  console.log(`${values.label}\tMEAN\t${mean(ours).toFixed(3)}\t${mean(theirs).toFixed(3)}\twins ${wins}/${entries.length}\t${values.config}`)
}

await main()
