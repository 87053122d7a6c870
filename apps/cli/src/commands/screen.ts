import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Option, type Command } from 'commander'
import { PubmatchError } from '@pubmatch/core'
import { RANKERS, readScreeningReviewAt, recallCurveSvg, simulateScreening, simulationHtml, type RankerName, type SimulationResult } from '@pubmatch/screen'
import { EXIT } from '../exit.ts'

interface SimulateFlags {
  ranker: RankerName
  seeds: string
  out?: string
  bigrams: boolean
  json: boolean
}

function parseSeeds(text: string): number[] {
  const seeds = text.split(',').map((s) => Number(s.trim()))
  if (seeds.length === 0 || seeds.some((s) => !Number.isInteger(s) || s < 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `--seeds must be comma-separated non-negative integers, got "${text}"`)
  }
  return seeds
}

/** Adds `pubmatch screen …` (systematic-review screening). */
export function registerScreenCommands(program: Command): void {
  const screen = program.command('screen').description('screening for systematic reviews: rank a review\'s candidates, learning from include/exclude decisions')
  screen
    .command('simulate')
    .description('replay a labelled review (a SYNERGY folder or a Cohen 2006 CSV): priors of one included and one excluded record per seed, then one decision at a time; prints WSS@95, recall at 10 %/25 %, records to 95 %/100 % recall and the average time to discovery')
    .argument('<review>', 'the review: a SYNERGY review folder (labels.csv, works_*.zip) or a Cohen 2006 CSV file')
    .addOption(new Option('--ranker <name>', 'the model that learns from the decisions').choices(RANKERS).default('logistic'))
    .option('--seeds <list>', 'comma-separated seeds of the prior draw (one simulation each)', '0')
    .option('--no-bigrams', 'logistic model: words and MeSH only, no word bigrams')
    .option('--out <dir>', 'write recall-curve.svg, report.html and the screening orders (simulations.json) here')
    .option('--json', 'print the results as JSON', false)
    .action(async (reviewPath: string, flags: SimulateFlags) => {
      const seeds = parseSeeds(flags.seeds)
      const dataset = await readScreeningReviewAt(reviewPath)
      for (const error of dataset.errors) {
        process.stderr.write(`skipped: ${error.message}\n`)
      }
      const results: SimulationResult[] = seeds.map((seed) => simulateScreening(dataset, { seed, ranker: flags.ranker, features: { bigrams: flags.bigrams } }))
      if (flags.out !== undefined) {
        await mkdir(flags.out, { recursive: true })
        const title = `${dataset.name}: ${flags.ranker}`
        await writeFile(join(flags.out, 'recall-curve.svg'), recallCurveSvg(results.map((r) => ({ name: `seed ${r.seed}`, labels: r.labels, total: r.metrics.records })), title))
        await writeFile(join(flags.out, 'report.html'), simulationHtml(results, title))
        await writeFile(join(flags.out, 'simulations.json'), `${JSON.stringify(results.map(({ retrainMs: _, ...r }) => r))}\n`)
      }
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(results.map(({ retrainMs, order: _, labels: __, ...r }) => ({ ...r, msPerDecision: retrainMs.reduce((a, b) => a + b, 0) / Math.max(1, retrainMs.length) })))}\n`)
      } else {
        process.stdout.write(`${dataset.name}: ${dataset.records.length} records, ${dataset.records.filter((r) => r.label === 1).length} included; ranker ${flags.ranker}\n`)
        process.stdout.write('seed  priors        WSS@95  R@10%  R@25%  to95%  to100%  ATD\n')
        for (const r of results) {
          const m = r.metrics
          process.stdout.write(
            `${String(r.seed).padEnd(6)}${r.priors.join(',').padEnd(14)}${m.wss95.toFixed(3).padStart(6)}  ${m.recallAt10.toFixed(3)}  ${m.recallAt25.toFixed(3)}  ${String(m.toRecall95).padStart(5)}  ${String(m.toRecall100).padStart(6)}  ${m.atd.toFixed(1)}\n`,
          )
        }
      }
      process.exitCode = dataset.errors.length > 0 ? EXIT.PARTIAL : EXIT.OK
    })
}
