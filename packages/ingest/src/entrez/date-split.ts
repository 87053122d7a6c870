import { PubmatchError } from '@pubmatch/core'

/** An inclusive range of days in Entrez's date format, `YYYY/MM/DD`. */
export interface DateRange {
  /** First day, `YYYY/MM/DD`. */
  readonly from: string
  /** Last day (inclusive), `YYYY/MM/DD`. */
  readonly to: string
}

/** A date range with the number of records ESearch reports in it. */
export interface DateRangeCount {
  /** The range. */
  readonly range: DateRange
  /** ESearch's `Count` for the query restricted to the range. */
  readonly count: number
}

/** What {@link splitDateRange} found. */
export interface DateSplitResult {
  /** Ranges whose count is within the cap, in date order (empty ranges left out). */
  readonly leaves: readonly DateRangeCount[]
  /** Single days whose count is still above the cap: only the first `cap` records of each are reachable. */
  readonly overflow: readonly DateRangeCount[]
  /** How many counts were asked for. */
  readonly countQueries: number
}

/** Options of {@link splitDateRange}. */
export interface DateSplitOptions {
  /** The most records one range may hold. Defaults to `9999` (ESearch's `retstart` limit). */
  cap?: number
  /** The count of the whole range when the caller already knows it (saves one query). */
  knownCount?: number
}

const MS_PER_DAY = 86_400_000

/**
 * A day number (days since 1970-01-01, UTC) from an Entrez date: `YYYY`, `YYYY/MM` or
 * `YYYY/MM/DD` (`-` or `.` also accepted as separators). A partial date stands for its
 * first day (`bound = 'start'`) or its last day (`bound = 'end'`).
 * @param text - the date
 * @param bound - which end of a partial date to take. Defaults to `'start'`.
 * @throws PubmatchError `INVALID_ARGUMENT` for anything else
 */
export function parseEntrezDate(text: string, bound: 'start' | 'end' = 'start'): number {
  const match = /^(\d{4})(?:[/.-](\d{1,2})(?:[/.-](\d{1,2}))?)?$/.exec(text.trim())
  const year = Number(match?.[1])
  const month = match?.[2] === undefined ? undefined : Number(match[2])
  const day = match?.[3] === undefined ? undefined : Number(match[3])
  if (match === null || (month !== undefined && (month < 1 || month > 12))) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `"${text.slice(0, 40)}" is not an Entrez date (YYYY, YYYY/MM or YYYY/MM/DD)`,
    )
  }
  if (month === undefined) {
    return bound === 'start'
      ? Date.UTC(year, 0, 1) / MS_PER_DAY
      : Date.UTC(year, 11, 31) / MS_PER_DAY
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day !== undefined && (day < 1 || day > lastDay)) {
    throw new PubmatchError('INVALID_ARGUMENT', `"${text.slice(0, 40)}" is not a valid day`)
  }
  const chosen = day ?? (bound === 'start' ? 1 : lastDay)
  return Date.UTC(year, month - 1, chosen) / MS_PER_DAY
}

/**
 * The Entrez date (`YYYY/MM/DD`) of a day number.
 * @param day - days since 1970-01-01, UTC
 */
export function formatEntrezDate(day: number): string {
  const date = new Date(day * MS_PER_DAY)
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0')
  const dd = String(date.getUTCDate()).padStart(2, '0')
  return `${date.getUTCFullYear()}/${mm}/${dd}`
}

/**
 * Splits a range into two halves by days: `[from, mid]` and `[mid + 1, to]` with
 * `mid = from + ⌊(to − from) / 2⌋`. A single day cannot be split.
 * @param range - the range
 * @returns the two halves, or `undefined` for a single day
 */
export function bisectDateRange(range: DateRange): readonly [DateRange, DateRange] | undefined {
  const from = parseEntrezDate(range.from, 'start')
  const to = parseEntrezDate(range.to, 'end')
  if (to <= from) {
    return undefined
  }
  const mid = from + Math.floor((to - from) / 2)
  return [
    { from: formatEntrezDate(from), to: formatEntrezDate(mid) },
    { from: formatEntrezDate(mid + 1), to: formatEntrezDate(to) },
  ]
}

/**
 * Cuts a date range into ranges that each hold at most `cap` records, by recursive
 * bisection: a range whose count is above the cap is halved (see {@link bisectDateRange})
 * until it fits or is a single day. Ranges are visited depth-first in date order, so
 * `leaves` come out sorted and together cover the range without overlap.
 * @param range - the whole range
 * @param count - asks ESearch how many records fall in a range
 * @param options - cap and known count; see {@link DateSplitOptions}
 */
export async function splitDateRange(
  range: DateRange,
  count: (range: DateRange) => Promise<number>,
  options: DateSplitOptions = {},
): Promise<DateSplitResult> {
  const cap = options.cap ?? 9999
  if (!(cap >= 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `date split cap must be ≥ 1, got ${cap}`)
  }
  const normalised: DateRange = {
    from: formatEntrezDate(parseEntrezDate(range.from, 'start')),
    to: formatEntrezDate(parseEntrezDate(range.to, 'end')),
  }
  if (parseEntrezDate(normalised.to) < parseEntrezDate(normalised.from)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `date range ${range.from}–${range.to} ends before it starts`,
    )
  }
  const leaves: DateRangeCount[] = []
  const overflow: DateRangeCount[] = []
  let countQueries = 0

  const visit = async (current: DateRange, known: number | undefined): Promise<void> => {
    let n = known
    if (n === undefined) {
      countQueries += 1
      n = await count(current)
    }
    if (n === 0) {
      return
    }
    if (n <= cap) {
      leaves.push({ range: current, count: n })
      return
    }
    const halves = bisectDateRange(current)
    if (halves === undefined) {
      overflow.push({ range: current, count: n })
      return
    }
    await visit(halves[0], undefined)
    await visit(halves[1], undefined)
  }

  await visit(normalised, options.knownCount)
  return { leaves, overflow, countQueries }
}
