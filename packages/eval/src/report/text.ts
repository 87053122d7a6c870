import type { ComparisonCell, RunComparison } from '../compare.ts'

/** Options of {@link formatTable}. */
export interface FormatTableOptions {
  /** Digits after the decimal point. Defaults to `4`. */
  digits?: number
  /** Print p-values next to the means. Defaults to `true`. */
  pValues?: boolean
  /** Use `+`/`-` instead of `▲`/`▼` as significance markers. Defaults to `false`. */
  ascii?: boolean
}

/**
 * Pads cells into aligned columns: the first column left-aligned, the others right-aligned
 * (numbers line up on their decimal point when they have the same number of digits).
 * @param rows - header row first
 * @param separator - between columns. Defaults to two spaces.
 */
export function alignColumns(rows: readonly (readonly string[])[], separator = '  '): string {
  const widths: number[] = []
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length)
    })
  }
  const pad = (cell: string, i: number): string => {
    const fill = ' '.repeat((widths[i] ?? 0) - [...cell].length)
    return i === 0 ? cell + fill : fill + cell
  }
  return rows.map((row) => row.map(pad).join(separator).trimEnd()).join('\n')
}

/** Formats a p-value compactly: `<0.0001` below 1e-4, else 4 significant digits at most. */
export function formatPValue(p: number): string {
  if (p < 0.0001) {
    return '<0.0001'
  }
  return p >= 0.001 ? p.toFixed(4) : p.toPrecision(2)
}

/**
 * One cell of a comparison for a table: the mean (4 decimals), `▲`/`▼` when it differs
 * significantly from the baseline, and with `pValue` its p-value in parentheses; `–` for no cell.
 * @param cell - a cell of {@link compareRuns}' rows, or `undefined`
 * @param options - `pValue`: append the p-value (defaults to `false`)
 */
export function formatCell(cell: ComparisonCell | undefined, options: { readonly pValue?: boolean } = {}): string {
  if (cell === undefined) {
    return '–'
  }
  const mean = cell.mean.toFixed(4)
  if (cell.pValue === undefined) {
    return mean
  }
  const mark = cell.significant ? (cell.difference > 0 ? ' ▲' : ' ▼') : ''
  return options.pValue === true ? `${mean}${mark} (p ${formatPValue(cell.pValue)})` : `${mean}${mark}`
}

/**
 * A comparison of runs as a plain-text table with aligned columns: one row per run, one
 * column per measure, each cell the mean with a marker when it differs significantly
 * from the baseline (`▲` better, `▼` worse) and its p-value; a legend line follows.
 * @param comparison - from {@link compareRuns}
 * @param options - see {@link FormatTableOptions}
 */
export function formatTable(comparison: RunComparison, options: FormatTableOptions = {}): string {
  const digits = options.digits ?? 4
  const showP = options.pValues ?? true
  const up = options.ascii === true ? '+' : '▲'
  const down = options.ascii === true ? '-' : '▼'
  const header = ['run', ...comparison.measures.flatMap((m) => (showP ? [m, 'p'] : [m]))]
  const body = comparison.rows.map((row) => [
    row.isBaseline ? `${row.run} (baseline)` : row.run,
    ...row.cells.flatMap((cell) => {
      const marker = cell.significant ? (cell.difference > 0 ? up : down) : ' '
      const value = `${cell.mean.toFixed(digits)} ${marker}`
      return showP ? [value, cell.pValue === undefined ? '' : formatPValue(cell.pValue)] : [value]
    }),
  ])
  const test = comparison.test === 't-test' ? 'paired t-test' : 'paired randomisation test'
  const correction = comparison.correction === 'none' ? '' : `, ${comparison.correction} correction`
  return [
    alignColumns([header, ...body]),
    '',
    `${up} / ${down}: significantly better / worse than ${comparison.baseline} (${test}, two-sided, p ≤ ${comparison.alpha}${correction}; ${comparison.queryIds.length} queries)`,
    '',
  ].join('\n')
}
