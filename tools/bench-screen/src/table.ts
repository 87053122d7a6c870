/**
 * The benchmark's table: per review the means over its seeds of each tool's WSS@95, recall at
 * 10 % and ATD (share), and time per decision; a mean row; how many reviews pubmatch's WSS@95 is
 * at least ASReview's.
 */
import { markdownTable } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import type { ScreeningMetrics, SimulationOptions } from '@pubmatch/screen'

/** One tool's run of one review and seed. */
export interface ToolRun {
  readonly metrics: ScreeningMetrics
  /** Mean milliseconds per decision (retrain + rank). */
  readonly msPerDecision: number
  readonly order: number[]
}

export interface ReviewResult {
  readonly review: string
  readonly source: string
  readonly records: number
  readonly included: number
  readonly seeds: number[]
  readonly pubmatch: ToolRun[]
  readonly asreview: ToolRun[]
}

/** The arithmetic mean. */
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length

const f3 = (x: number): string => x.toFixed(3)

/**
 * The Markdown table of results, with the mean row and the win count.
 * @param results - per review
 */
export function table(results: readonly ReviewResult[]): string {
  const rows: string[][] = []
  let wins = 0
  for (const r of results) {
    const p = (key: keyof ScreeningMetrics, runs: readonly ToolRun[]): number => mean(runs.map((run) => run.metrics[key]))
    const pw = p('wss95', r.pubmatch)
    const aw = p('wss95', r.asreview)
    wins += pw >= aw ? 1 : 0
    rows.push([
      r.review,
      String(r.records),
      String(r.included),
      f3(pw),
      f3(aw),
      f3(p('recallAt10', r.pubmatch)),
      f3(p('recallAt10', r.asreview)),
      f3(p('atdShare', r.pubmatch)),
      f3(p('atdShare', r.asreview)),
      mean(r.pubmatch.map((run) => run.msPerDecision)).toFixed(1),
      mean(r.asreview.map((run) => run.msPerDecision)).toFixed(1),
    ])
  }
  const col = (i: number): string => f3(mean(rows.map((row) => Number(row[i]))))
  rows.push(['**mean**', '', '', col(3), col(4), col(5), col(6), col(7), col(8), mean(rows.map((row) => Number(row[9]))).toFixed(1), mean(rows.map((row) => Number(row[10]))).toFixed(1)])
  const header = ['review', 'records', 'included', 'WSS@95 pubmatch', 'WSS@95 ASReview', 'R@10% pubmatch', 'R@10% ASReview', 'ATD pubmatch', 'ATD ASReview', 'ms/decision pubmatch', 'ms/decision ASReview']
  return `${markdownTable(header, rows)}\n\npubmatch's WSS@95 ≥ ASReview's on ${wins} of ${results.length} reviews.`
}


/**
 * One column of the first Markdown table after a heading of a results file, by review: e.g. the
 * ASReview WSS@95 an earlier run recorded (`RESULTS.md`), to compare new pubmatch runs with when
 * ASReview's saved runs are not at hand.
 * @param markdown - the results file
 * @param heading - the heading's text (without the `#`s), matched exactly
 * @param column - the column's header, matched exactly
 * @throws PubmatchError `NOT_FOUND` when the heading, its table or the column is missing
 */
export function recordedColumn(markdown: string, heading: string, column: string): Map<string, number> {
  const lines = markdown.split('\n')
  const at = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === heading)
  if (at < 0) {
    throw new PubmatchError('NOT_FOUND', `no heading "${heading}" in the results file`)
  }
  const start = lines.findIndex((line, i) => i > at && line.startsWith('|'))
  if (start < 0 || lines.slice(at + 1, start).some((line) => /^#+ /.test(line))) {
    throw new PubmatchError('NOT_FOUND', `no table under "${heading}"`)
  }
  const cells = (line: string): string[] => line.split('|').slice(1, -1).map((c) => c.trim())
  const header = cells(lines[start]!)
  const k = header.indexOf(column)
  if (k < 0) {
    throw new PubmatchError('NOT_FOUND', `no column "${column}" under "${heading}" (columns: ${header.join(', ')})`)
  }
  const out = new Map<string, number>()
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const row = cells(lines[i]!)
    const value = Number(row[k])
    if (!row[0]!.startsWith('**') && row[k] !== '' && Number.isFinite(value)) {
      out.set(row[0]!, value)
    }
  }
  return out
}

/**
 * Simulation options given as JSON on a command line (`--config '{"features":{"minDf":1}}'`).
 * @param text - the JSON text of an object
 * @throws PubmatchError `INVALID_ARGUMENT` when it is not JSON or not an object, naming the text
 */
export function parseConfig(text: string): SimulationOptions {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new PubmatchError('INVALID_ARGUMENT', `--config is not JSON: ${text}`, { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PubmatchError('INVALID_ARGUMENT', `--config must be a JSON object of simulation options, got ${text}`)
  }
  const features = (value as { features?: unknown }).features
  if (features !== undefined && (typeof features !== 'object' || features === null || Array.isArray(features))) {
    throw new PubmatchError('INVALID_ARGUMENT', `--config's "features" must be an object, got ${JSON.stringify(features)}`)
  }
  return value
}
