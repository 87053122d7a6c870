/**
 * A number with thousands separators and a fixed number of decimals (`en-US`), or `–` for
 * `undefined`, `NaN` and infinities.
 * @param value - the number
 * @param digits - decimals. Defaults to `0`.
 */
export function fmt(value: number | undefined, digits = 0): string {
  if (value === undefined || !Number.isFinite(value)) {
    return '–'
  }
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
}

/**
 * A latency in ms with two significant decimals below 10 ms and one above 10 (`0.42`,
 * `3.10`, `27.4`, `1,234.5`), `–` when unknown.
 * @param ms - milliseconds
 */
export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) {
    return '–'
  }
  return fmt(ms, ms < 10 ? 2 : 1)
}

/**
 * A ratio `a / b` as `×1.23` (two decimals below 10, one above), `–` when either is unknown or
 * `b` is 0.
 * @param a - numerator
 * @param b - denominator
 */
export function fmtRatio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || b === 0 || !Number.isFinite(a / b)) {
    return '–'
  }
  const r = a / b
  return `×${fmt(r, r < 10 ? 2 : 1)}`
}
