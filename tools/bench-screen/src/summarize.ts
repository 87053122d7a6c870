/**
 * `node dist/summarize.js results [results-synergy …]`: the table of every review run saved in
 * `<dir>/runs/*.json` by `run.js` (reviews run in separate processes, or a run stopped part-way),
 * printed as Markdown; a review's runs in several folders (e.g. other seeds) are averaged together.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { table, type ReviewResult } from './table.ts'

// runs of the same review from several folders (other seeds) are merged
const byReview = new Map<string, ReviewResult>()
for (const dir of process.argv.slice(2)) {
  for (const file of (await readdir(join(dir, 'runs'))).filter((f) => f.endsWith('.json')).sort()) {
    const r = JSON.parse(await readFile(join(dir, 'runs', file), 'utf8')) as ReviewResult
    const seen = byReview.get(r.review)
    byReview.set(r.review, seen === undefined ? r : { ...seen, seeds: [...seen.seeds, ...r.seeds], pubmatch: [...seen.pubmatch, ...r.pubmatch], asreview: [...seen.asreview, ...r.asreview] })
  }
}
const results = [...byReview.values()]
const order = (r: ReviewResult): string => `${r.source === 'cohen2006' ? 0 : 1}${r.review}`
results.sort((a, b) => (order(a) < order(b) ? -1 : 1))
console.log(table(results.filter((r) => r.asreview.length > 0)))
