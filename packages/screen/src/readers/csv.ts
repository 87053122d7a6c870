/**
 * RFC 4180 CSV: comma-separated fields, double-quoted fields may hold commas, line breaks and
 * doubled quotes (`""`). Rows keep their 1-based starting line for error messages.
 */
import { PubmatchError } from '@pubmatch/core'

/** One parsed row with the line it starts on. */
export interface CsvRow {
  readonly line: number
  readonly fields: string[]
}

/**
 * Parses CSV text into rows (a trailing line break ends the last row; `\r\n` and `\n` both end rows).
 * @param text - the file's text
 * @param file - the file name, for errors
 * @throws PubmatchError `TRUNCATED_INPUT` when the text ends inside a quoted field
 */
export function parseCsv(text: string, file = 'csv'): CsvRow[] {
  const rows: CsvRow[] = []
  let fields: string[] = []
  let field = ''
  let line = 1
  let rowLine = 1
  let quoted = false
  let quoteStart = 0
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const endRow = (): void => {
    fields.push(field)
    rows.push({ line: rowLine, fields })
    fields = []
    field = ''
  }
  for (; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else {
          quoted = false
        }
      } else {
        if (c === '\n') {
          line++
        }
        field += c
      }
    } else if (c === '"' && field === '') {
      quoted = true
      quoteStart = line
    } else if (c === ',') {
      fields.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') {
        i++
      }
      endRow()
      line++
      rowLine = line
    } else {
      field += c
    }
  }
  if (quoted) {
    throw new PubmatchError('TRUNCATED_INPUT', `${file}: a quoted field opened on line ${quoteStart} is never closed`, { details: { file, position: quoteStart } })
  }
  if (field !== '' || fields.length > 0) {
    endRow()
  }
  return rows
}

/**
 * The rows of a CSV file with a header as objects keyed by column name.
 * @param text - the file's text
 * @param file - the file name, for errors
 * @param required - columns that must be in the header
 * @throws PubmatchError `EMPTY_INPUT` for no header, `MISSING_FIELD` for a missing required column
 */
export function csvRecords(text: string, file: string, required: readonly string[]): { header: string[]; rows: CsvRow[] } {
  const [head, ...rows] = parseCsv(text, file)
  if (head === undefined) {
    throw new PubmatchError('EMPTY_INPUT', `${file}: no header row`, { details: { file } })
  }
  const header = head.fields.map((name) => name.trim())
  const missing = required.filter((name) => !header.includes(name))
  if (missing.length > 0) {
    throw new PubmatchError('MISSING_FIELD', `${file}: the header lacks the column(s) ${missing.join(', ')} (it has ${header.join(', ')})`, { details: { file } })
  }
  return { header, rows }
}
