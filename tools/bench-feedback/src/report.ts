/**
 * Markdown pieces of the reports: cells with significance marks and latency summaries (tables,
 * percentiles and the sections of the results file: @pubmatch/bench-kit).
 */
import { summarize as summarizeSample } from '@pubmatch/bench-kit'
import { formatCell, type ComparisonCell, type RunComparison } from '@pubmatch/eval'

/** Markdown tables: @pubmatch/bench-kit's (columns after the first right-aligned). */
export { markdownTable } from '@pubmatch/bench-kit'

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

/** Order statistics of a sample: the fields of this benchmark's tables. */
export interface Summary {
  readonly n: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly mean: number
  readonly max: number
}

/**
 * p50, p90, p99 (nearest rank, @pubmatch/bench-kit's `quantile`), mean and maximum; `n` 0 and
 * `NaN` elsewhere for no values.
 * @param values - the sample
 */
export function summarize(values: readonly number[]): Summary {
  const { count, p50, p90, p99, mean, max } = summarizeSample(values, { empty: 'nan' })
  return { n: count, p50, p90, p99, mean, max }
}

/**
 * Milliseconds with two decimals below 10, one below 100, none above.
 * @param ms - milliseconds
 */
export function ms(ms: number): string {
  return Number.isNaN(ms) ? '–' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)
}
