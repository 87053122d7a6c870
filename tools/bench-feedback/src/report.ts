/**
 * Markdown pieces of the reports: tables, cells with significance marks, the sections of the
 * results file, and latency summaries.
 */
import { formatCell, type ComparisonCell, type RunComparison } from '@pubmatch/eval'

/**
 * A Markdown table; columns after the first are right-aligned.
 * @param header - column titles
 * @param rows - the cells
 */
export function markdownTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`
  return [
    line(header),
    line(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...rows.map(line),
  ].join('\n')
}

/**
 * A table cell: the mean, and against the baseline ▲/▼ when significant, with the p-value.
 * @param cell - a comparison cell
 * @param withP - print the p-value
 */
export function cellText(cell: ComparisonCell | undefined, withP: boolean = false): string {
  return formatCell(cell, { pValue: withP })
}

/**
 * One run's cell for a measure.
 * @param comparison - from `compareRuns`
 * @param run - the run's name
 * @param measure - an output key (`ndcg_cut_10`)
 */
export function cellOf(
  comparison: RunComparison,
  run: string,
  measure: string,
): ComparisonCell | undefined {
  return comparison.rows.find((r) => r.run === run)?.cells.find((c) => c.measure === measure)
}

/**
 * Replaces one section of a results file (between `<!-- begin NAME -->` and `<!-- end NAME -->`),
 * keeping the others, in the given order (unknown names last, alphabetically), under a new header.
 * @param text - the file's current text ('' when new)
 * @param header - the heading block
 * @param name - the section's name
 * @param content - the section's Markdown
 * @param order - section names in file order
 */
export function replaceSection(
  text: string,
  header: string,
  name: string,
  content: string,
  order: readonly string[],
): string {
  const sections = new Map<string, string>()
  for (const match of text.matchAll(/<!-- begin (\S+) -->\n([\s\S]*?)<!-- end \1 -->/g)) {
    sections.set(match[1]!, match[2]!)
  }
  sections.set(name, `${content.trimEnd()}\n`)
  const position = (key: string): number => {
    const at = order.indexOf(key)
    return at < 0 ? order.length : at
  }
  const body = [...sections.keys()]
    .sort((a, b) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `<!-- begin ${key} -->\n${sections.get(key)!}<!-- end ${key} -->\n`)
    .join('\n')
  return `${header.trimEnd()}\n\n${body}`
}

/** Order statistics of a sample. */
export interface Summary {
  readonly n: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly mean: number
  readonly max: number
}

/**
 * The nearest-rank percentile (the smallest value with at least `p` % of the sample at or below it).
 * @param sorted - the sample, ascending
 * @param p - percent, 0 < p ≤ 100
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) {
    return Number.NaN
  }
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/**
 * p50, p90, p99 (nearest rank), mean and maximum.
 * @param values - the sample
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b)
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((s, x) => s + x, 0) / sorted.length
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    mean,
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  }
}

/**
 * Milliseconds with two decimals below 10, one below 100, none above.
 * @param ms - milliseconds
 */
export function ms(ms: number): string {
  return Number.isNaN(ms) ? '–' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)
}
