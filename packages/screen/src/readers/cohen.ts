/**
 * Cohen et al. 2006 drug-class reviews as distributed by `asreview/systematic-review-datasets`
 * (`datasets/Cohen_2006/output/local/<Review>.csv`): one CSV per review with the columns
 * `record_id, pubmedID, title, keywords, authors, abstract, label_abstract_screening,
 * label_included`. `keywords` holds the MeSH headings (`; `-separated, no qualifiers), `authors`
 * `Last, Initials` names (`; `-separated), and the abstract's paragraphs are `; `-joined (kept as
 * one section, as the file has them).
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { emptyArticle, PubmatchError, type Author } from '@pubmatch/core'
import type { ScreeningDataset, ScreeningLabel, ScreeningRecord } from '../records.ts'
import { csvRecords } from './csv.ts'

const COLUMNS = ['record_id', 'pubmedID', 'title', 'keywords', 'authors', 'abstract', 'label_abstract_screening', 'label_included'] as const

/**
 * Reads a label cell: `0` or `1`.
 * @param value - the cell
 */
export function parseLabel(value: string | undefined): ScreeningLabel | undefined {
  const text = value?.trim()
  return text === '1' ? 1 : text === '0' ? 0 : undefined
}

function author(name: string): Author {
  const [last, initials] = name.split(',').map((part) => part.trim())
  return { lastName: last, ...(initials ? { initials: initials.replace(/\s+/g, '') } : {}), affiliations: [], identifiers: [], valid: true }
}

/**
 * Parses one Cohen 2006 review file's text. A row with the wrong number of fields, no
 * `record_id`, a non-numeric PMID or a label other than 0/1 becomes a typed error and is skipped.
 * @param text - the CSV text
 * @param name - the review's name (also used in errors as the file)
 * @throws PubmatchError `MISSING_FIELD` when the header lacks a column
 */
export function parseCohenCsv(text: string, name: string): ScreeningDataset {
  const { header, rows } = csvRecords(text, name, COLUMNS)
  const at = Object.fromEntries(COLUMNS.map((column) => [column, header.indexOf(column)])) as Record<(typeof COLUMNS)[number], number>
  const records: ScreeningRecord[] = []
  const errors: PubmatchError[] = []
  for (const row of rows) {
    if (row.fields.length === 1 && row.fields[0] === '') {
      continue
    }
    const get = (column: (typeof COLUMNS)[number]): string => row.fields[at[column]]?.trim() ?? ''
    const key = get('record_id')
    const fail = (message: string): void => {
      errors.push(new PubmatchError('MISSING_FIELD', `${name}: line ${row.line}: ${message}`, { details: { file: name, record: key || `#line${row.line}`, position: row.line } }))
    }
    if (row.fields.length !== header.length) {
      fail(`expected ${header.length} fields, got ${row.fields.length}`)
      continue
    }
    if (key === '') {
      fail('no record_id')
      continue
    }
    const pmid = get('pubmedID')
    if (pmid !== '' && !/^\d+$/.test(pmid)) {
      fail(`pubmedID "${pmid.slice(0, 40)}" is not a PMID`)
      continue
    }
    const label = parseLabel(get('label_included'))
    const abstractLabel = parseLabel(get('label_abstract_screening'))
    if (label === undefined || abstractLabel === undefined) {
      fail(`labels must be 0 or 1, got label_included "${get('label_included')}", label_abstract_screening "${get('label_abstract_screening')}"`)
      continue
    }
    const article = emptyArticle(pmid === '' ? key : pmid)
    article.title = get('title')
    const abstract = get('abstract')
    if (abstract !== '') {
      article.abstract = [{ text: abstract }]
    }
    article.mesh = get('keywords')
      .split(';')
      .map((heading) => heading.trim())
      .filter((heading) => heading !== '')
      .map((descriptorName) => ({ descriptorName, majorTopic: false, qualifiers: [] }))
    article.authors = get('authors')
      .split(';')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map(author)
    records.push({ key, article, label, abstractLabel })
  }
  return { name, source: 'cohen2006', records, errors }
}

/**
 * Reads one Cohen 2006 review file (`ADHD.csv`, …); the review is named after the file.
 * @param path - the CSV file
 */
export async function readCohenReview(path: string): Promise<ScreeningDataset> {
  const text = await readFile(path, 'utf8').catch((cause: unknown) => {
    throw new PubmatchError('IO', `cannot read the Cohen 2006 review ${path}`, { cause, details: { file: path } })
  })
  return parseCohenCsv(text, basename(path).replace(/\.csv$/i, ''))
}
