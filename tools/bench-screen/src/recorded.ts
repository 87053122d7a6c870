/**
 * `node dist/recorded.js --pubmatch-cache DIR --section "<heading>" [--reviews all] [--seeds 0,1,2]`:
 * pubmatch's saved runs (`--pubmatch-cache`) against ASReview's WSS@95 as a table of
 * `RESULTS.md` recorded it (the section's first table, column "WSS@95 ASReview"), for when
 * ASReview's own saved runs are not at hand. Prints, per review whose every seed is saved,
 * pubmatch's mean WSS@95 and the recorded figure, then the mean over those reviews and how many
 * pubmatch's figure (rounded to 3 decimals, as recorded) is at least ASReview's. The section's
 * "WSS@95 pubmatch" column (the pubmatch version that section measured) is shown beside them, with
 * its mean over the same reviews, so that a new setting is compared with both on the same reviews.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { markdownTable, sharedDataDir } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import { drawPriors, listScreeningReviews, readScreeningReview, screeningMetrics } from '@pubmatch/screen'
import { mean, recordedColumn } from './table.ts'

const ROOT = join(import.meta.dirname, '..')

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reviews: { type: 'string', default: 'all' },
      seeds: { type: 'string', default: '0,1,2' },
      'pubmatch-cache': { type: 'string' },
      section: { type: 'string', default: 'all reviews, seeds 0–2, with BetaBlockers and Opiods (2026-11-28T07:19Z)' },
      results: { type: 'string', default: join(ROOT, 'RESULTS.md') },
    },
  })
  const dir = values['pubmatch-cache']
  if (dir === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', '--pubmatch-cache DIR is required')
  }
  const markdown = await readFile(values.results, 'utf8')
  const recorded = recordedColumn(markdown, values.section, 'WSS@95 ASReview')
  const before = recordedColumn(markdown, values.section, 'WSS@95 pubmatch')
  const seeds = values.seeds.split(',').map(Number)
  const wanted = values.reviews.split(',')
  const entries = (await listScreeningReviews(join(sharedDataDir(), 'screening'))).filter((e) => values.reviews === 'all' || wanted.includes(e.name))
  const rows: string[][] = []
  const ours: number[] = []
  const theirs: number[] = []
  const earlier: number[] = []
  const missing: string[] = []
  let wins = 0
  for (const entry of entries) {
    const files = seeds.map((seed) => join(dir, `${entry.name}-${seed}.json`))
    const asr = recorded.get(entry.name)
    if (!files.every((f) => existsSync(f)) || asr === undefined) {
      missing.push(entry.name)
      continue
    }
    const dataset = await readScreeningReview(entry)
    const truth = dataset.records.map((r) => r.label)
    const wss: number[] = []
    for (const [k, seed] of seeds.entries()) {
      const saved = JSON.parse(await readFile(files[k]!, 'utf8')) as { priors: number[]; records: number; order: number[] }
      if (JSON.stringify(saved.priors) !== JSON.stringify(drawPriors(truth, seed)) || saved.records !== truth.length) {
        throw new PubmatchError('INVALID_ARGUMENT', `${files[k]}: saved for other priors or records`)
      }
      wss.push(screeningMetrics(saved.order.map((i) => truth[i]!), truth.length - saved.priors.length).wss95)
    }
    const w = Number(mean(wss).toFixed(3))
    const old = before.get(entry.name) ?? Number.NaN
    ours.push(w)
    theirs.push(asr)
    earlier.push(old)
    wins += w >= asr ? 1 : 0
    rows.push([entry.name, w.toFixed(3), old.toFixed(3), asr.toFixed(3), (w - asr).toFixed(3), w >= asr ? 'yes' : 'no'])
  }
  rows.push(['**mean**', mean(ours).toFixed(3), mean(earlier).toFixed(3), mean(theirs).toFixed(3), (mean(ours) - mean(theirs)).toFixed(3), `${wins} of ${ours.length}`])
  console.log(markdownTable(['review', 'WSS@95 pubmatch', 'WSS@95 pubmatch (recorded)', 'WSS@95 ASReview (recorded)', 'difference', 'pubmatch ≥'], rows))
  if (missing.length > 0) {
    console.log(`\nNot in the table (a seed not saved, or no recorded figure): ${missing.join(', ')}.`)
  }
}

await main()
