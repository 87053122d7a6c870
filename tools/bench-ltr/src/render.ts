/**
 * Markdown for the results: tables and number formats.
 */
import type { Summary } from './stats.ts'

/** Markdown tables: @pubmatch/bench-kit's (columns after the first right-aligned). */
export { markdownTable } from '@pubmatch/bench-kit'

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
