/**
 * Markdown for the results: tables and number formats.
 */
import { PubmatchError } from '@pubmatch/core'
import type { Summary } from './stats.ts'

/**
 * A Markdown table; columns after the first are right-aligned.
 * @param header - column titles
 * @param rows - cells, each row as long as the header
 * @throws PubmatchError `INVALID_ARGUMENT` for a row of another length
 */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  for (const [i, row] of rows.entries()) {
    if (row.length !== header.length) {
      throw new PubmatchError('INVALID_ARGUMENT', `@pubmatch/bench-ltr: table row ${i} has ${row.length} cells, the header ${header.length}`)
    }
  }
  const line = (cells: readonly string[]): string => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`
  const rule = `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`
  return [line(header), rule, ...rows.map(line)].join('\n')
}

/**
 * A number with a fixed number of decimals and thousands separators (`12,345.7`).
 * @param value - the number
 * @param decimals - digits after the point. Defaults to `2`.
 */
export function fmt(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) {
    return String(value)
  }
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
}

/**
 * A latency row: label, p50, p95, p99, mean (ms, 3 decimals), and the sample count.
 * @param label - what was measured
 * @param summary - its samples summarised
 */
export function latencyRow(label: string, summary: Summary): string[] {
  return [label, fmt(summary.p50, 3), fmt(summary.p95, 3), fmt(summary.p99, 3), fmt(summary.mean, 3), String(summary.count)]
}

/** The header of {@link latencyRow} tables. */
export const LATENCY_HEADER: readonly string[] = ['ms per query', 'p50', 'p95', 'p99', 'mean', 'samples']

/**
 * `a / b` as `1.23×`, or `–` when `b` is 0.
 * @param a - numerator
 * @param b - denominator
 */
export function ratio(a: number, b: number): string {
  return b === 0 ? '–' : `${fmt(a / b, 2)}×`
}
