/**
 * The publication-year filter's grammar (`SearchFilters.years`), one for every app: `2015`,
 * `2015:2020`, and open ends `2015:` (from) and `:2020` (until), as PubMed's `2015:3000[dp]`.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/**
 * What {@link parseYearRange} accepts, as a regular expression source (also a JSON-schema
 * `pattern`): `YYYY`, `YYYY:YYYY`, `YYYY:` or `:YYYY`.
 */
export const YEAR_RANGE_PATTERN = '^(\\d{4}|\\d{4}:\\d{4}|\\d{4}:|:\\d{4})$'

/** The first year of a range open at its start (`:2020`). */
export const EARLIEST_YEAR = 0

/** The last year of a range open at its end (`2015:`). */
export const LATEST_YEAR = 9999

const YEAR_RANGE = new RegExp(YEAR_RANGE_PATTERN)

/**
 * Reads a year range into the inclusive `[from, to]` of `SearchFilters.years`.
 * @param text - `YYYY` (one year), `YYYY:YYYY`, `YYYY:` (from a year on, up to
 *   {@link LATEST_YEAR}) or `:YYYY` (until a year, from {@link EARLIEST_YEAR})
 * @throws PubmatchError `INVALID_ARGUMENT` naming the text for anything else: other than four
 *   digits a year, other separators, a range that starts after it ends
 */
export function parseYearRange(text: string): readonly [number, number] {
  if (!YEAR_RANGE.test(text)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `cannot read the year range "${truncateForMessage(text)}" (expected YYYY, YYYY:YYYY, YYYY: or :YYYY, as 2015, 2015:2020, 2015: or :2020)`,
      { details: { value: text } },
    )
  }
  const [from, to = from] = text.split(':') as [string, string?]
  const range = [
    from === '' ? EARLIEST_YEAR : Number(from),
    to === '' ? LATEST_YEAR : Number(to),
  ] as const
  if (range[0] > range[1]) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `the year range "${text}" starts after it ends (${range[0]} > ${range[1]})`,
      {
        details: { value: text },
      },
    )
  }
  return range
}
