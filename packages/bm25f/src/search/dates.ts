/**
 * PubMed dates in queries (`2015`, `2015/03`, `2015/03/14`, `"last 5 years"`) as inclusive ranges
 * of sortable `YYYYMMDD` integers, the form of the index's `pubdate` doc values (`00` for an
 * unknown month or day).
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** An inclusive range of sortable dates `YYYYMMDD`. */
export interface DateBounds {
  readonly from: number
  readonly to: number
}

const DATE = /^(\d{4})(?:\/(\d{1,2})(?:\/(\d{1,2}))?)?$/
const RELATIVE = /^last\s+(\d+)\s+(day|days|month|months|year|years)$/i

function readDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = DATE.exec(text.trim())
  if (match === null) {
    return undefined
  }
  const month = match[2] === undefined ? 0 : Number(match[2])
  const day = match[3] === undefined ? 0 : Number(match[3])
  if (month > 12 || day > 31) {
    return undefined
  }
  return { year: Number(match[1]), month, day }
}

function badDate(text: string): PubmatchError {
  return new PubmatchError(
    'INVALID_ARGUMENT',
    `cannot read the date "${truncateForMessage(text)}" (expected YYYY, YYYY/MM, YYYY/MM/DD or "last N years|months|days")`,
  )
}

/**
 * The first sortable date a PubMed date stands for: an unknown (or `00`) month or day is `00`,
 * so `2015` → `20150000` includes every 2015 document, also those with an unknown month.
 * @param text - `YYYY`, `YYYY/MM` or `YYYY/MM/DD`
 * @throws PubmatchError `INVALID_ARGUMENT` for anything else
 */
export function dateLowerBound(text: string): number {
  const date = readDate(text)
  if (date === undefined) {
    throw badDate(text)
  }
  return date.year * 10000 + date.month * 100 + date.day
}

/**
 * The last sortable date a PubMed date stands for: an unknown (or `00`) month or day is `99`,
 * so `2020` → `20209999` and `2020/02` → `20200299`.
 * @param text - `YYYY`, `YYYY/MM` or `YYYY/MM/DD`
 * @throws PubmatchError `INVALID_ARGUMENT` for anything else
 */
export function dateUpperBound(text: string): number {
  const date = readDate(text)
  if (date === undefined) {
    throw badDate(text)
  }
  return (
    date.year * 10000 +
    (date.month === 0 ? 99 : date.month) * 100 +
    (date.day === 0 ? 99 : date.day)
  )
}

const sortable = (date: Date): number =>
  date.getUTCFullYear() * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate()

/**
 * The range a single `[dp]` term stands for: a date (`2001` = all of 2001) or a relative period
 * ending today (`last 5 years` = the same day five years ago through today, UTC).
 * @param text - the term text
 * @param now - today. Defaults to the current time.
 * @throws PubmatchError `INVALID_ARGUMENT` when the text is neither
 */
export function dateTermBounds(text: string, now: Date = new Date()): DateBounds {
  const relative = RELATIVE.exec(text.trim())
  if (relative !== null) {
    const count = Number(relative[1])
    const unit = relative[2]!.toLowerCase()
    const start = new Date(now.getTime())
    if (unit.startsWith('day')) {
      start.setUTCDate(start.getUTCDate() - count)
    } else if (unit.startsWith('month')) {
      start.setUTCMonth(start.getUTCMonth() - count)
    } else {
      start.setUTCFullYear(start.getUTCFullYear() - count)
    }
    return { from: sortable(start), to: sortable(now) }
  }
  return { from: dateLowerBound(text), to: dateUpperBound(text) }
}
