/**
 * The Markdown of the benchmarks' results files: tables, and files made of named sections that
 * several programs (or runs) each replace on their own.
 */
import { PubmatchError } from '@pubmatch/core'

/**
 * A GitHub-flavoured Markdown table. Cells are written as given, `|` inside a cell escaped;
 * a row shorter than the header is padded with empty cells.
 * @param header - column titles
 * @param rows - cells, one array per row
 * @param leftColumns - how many leading columns are left-aligned (labels); the rest are
 *   right-aligned (numbers). Defaults to `1`.
 * @throws PubmatchError `INVALID_ARGUMENT` for a row longer than the header
 */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, leftColumns = 1): string {
  for (const [i, row] of rows.entries()) {
    if (row.length > header.length) {
      throw new PubmatchError('INVALID_ARGUMENT', `table row ${i} has ${row.length} cells, the header ${header.length}`)
    }
  }
  const line = (cells: readonly string[]): string => `| ${header.map((_, i) => (cells[i] ?? '').replaceAll('|', '\\|')).join(' | ')} |`
  const rule = header.map((_, i) => (i < leftColumns ? '---' : '---:'))
  return [line(header), `|${rule.join('|')}|`, ...rows.map(line)].join('\n')
}

/** A section's place in a results file: lower first; equal places sort by name. */
export type SectionOrder = (name: string) => number

/**
 * Replaces one section of a results file (between `<!-- begin NAME -->` and `<!-- end NAME -->`),
 * keeping the others, under a new heading block. Sections are ordered by `order`, then by name
 * (code unit order).
 * @param text - the file's current text (`''` when new)
 * @param header - the heading block
 * @param name - the section's name
 * @param content - the section's Markdown
 * @param order - each section's place
 */
export function replaceSection(text: string, header: string, name: string, content: string, order: SectionOrder): string {
  const sections = new Map<string, string>()
  for (const match of text.matchAll(/<!-- begin (\S+) -->\n([\s\S]*?)<!-- end \1 -->/g)) {
    sections.set(match[1]!, match[2]!)
  }
  sections.set(name, `${content.trimEnd()}\n`)
  const body = [...sections.keys()]
    .sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `<!-- begin ${key} -->\n${sections.get(key)!}<!-- end ${key} -->\n`)
    .join('\n')
  return `${header.trimEnd()}\n\n${body}`
}

/**
 * A {@link SectionOrder} from a list of names: listed names in list order, the others after them.
 * @param names - section names in file order
 */
export function listedOrder(names: readonly string[]): SectionOrder {
  return (name) => {
    const at = names.indexOf(name)
    return at < 0 ? names.length : at
  }
}
