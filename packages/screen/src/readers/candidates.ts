/**
 * A screening project's candidate records from files: RIS (`.ris`), CSV (`.csv`: a header with a
 * `title` column and any of `id`/`pmid`/`pubmedID`/`record_id`, `abstract`, `keywords`/`mesh`
 * (`;`-separated MeSH headings), `authors` (`;`-separated), `year`, `journal`, `doi`), PubMed XML
 * (`.xml`, `.xml.gz`; `@pubmatch/ingest`'s reader) or MEDLINE text (`.txt`, `.nbib`, `.medline`;
 * its reader too). Records are kept in file order; a second record with an id already seen is
 * dropped; each unreadable record is a typed error and reading carries on.
 */
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { emptyArticle, PubmatchError, type Article } from '@pubmatch/core'
import { readMedlineText, readPubmedXml, type IngestRecord } from '@pubmatch/ingest'
import { csvRecords } from './csv.ts'
import { parseRis } from './ris.ts'

/** Candidates read from files. */
export interface CandidateRead {
  readonly articles: Article[]
  readonly errors: PubmatchError[]
  /** Records dropped because their id was already read. */
  readonly duplicates: number
}

/**
 * Parses a generic CSV of candidates.
 * @param text - the file's text
 * @param file - the file name, for errors and ids
 */
export function parseCandidateCsv(text: string, file: string): { articles: Article[]; errors: PubmatchError[] } {
  const { header, rows } = csvRecords(text, file, [])
  const lower = header.map((h) => h.toLowerCase())
  // the first of the names (in the order given) that the header has
  const at = (...names: string[]): number => names.map((name) => lower.indexOf(name)).find((i) => i >= 0) ?? -1
  const titleAt = at('title')
  if (titleAt < 0) {
    throw new PubmatchError('MISSING_FIELD', `${file}: the header has no title column (it has ${header.join(', ')})`, { details: { file } })
  }
  const [idAt, abstractAt, meshAt, authorsAt, yearAt, journalAt, doiAt] = [at('id', 'pmid', 'pubmedid', 'record_id'), at('abstract'), at('keywords', 'mesh'), at('authors'), at('year'), at('journal'), at('doi')]
  const articles: Article[] = []
  const errors: PubmatchError[] = []
  for (const row of rows) {
    if (row.fields.length === 1 && row.fields[0] === '') {
      continue
    }
    const get = (i: number): string => (i < 0 ? '' : (row.fields[i]?.trim() ?? ''))
    const id = get(idAt) || `${basename(file)}#${row.line}`
    if (get(titleAt) === '') {
      errors.push(new PubmatchError('MISSING_FIELD', `${file}: line ${row.line}: no title`, { details: { file, record: id, position: row.line } }))
      continue
    }
    const article = emptyArticle(id)
    article.title = get(titleAt)
    if (get(abstractAt) !== '') {
      article.abstract = [{ text: get(abstractAt) }]
    }
    const list = (i: number): string[] => get(i).split(';').map((x) => x.trim()).filter((x) => x !== '')
    article.mesh = list(meshAt).map((descriptorName) => ({ descriptorName, majorTopic: false, qualifiers: [] }))
    article.authors = list(authorsAt).map((lastName) => ({ lastName, affiliations: [], identifiers: [], valid: true }))
    const year = Number(get(yearAt))
    if (get(yearAt) !== '' && Number.isInteger(year)) {
      article.pubDate = { year }
    }
    if (get(journalAt) !== '') {
      article.journal = { title: get(journalAt) }
    }
    if (get(doiAt) !== '') {
      article.articleIds = [{ type: 'doi', value: get(doiAt) }]
    }
    articles.push(article)
  }
  return { articles, errors }
}

async function fromIngest(records: AsyncIterable<IngestRecord>, articles: Article[], errors: PubmatchError[]): Promise<void> {
  for await (const record of records) {
    if (record.kind === 'article') {
      articles.push(record.article)
    } else if (record.kind === 'error') {
      errors.push(record.error)
    }
  }
}

/**
 * Reads candidates from files, by their extension.
 * @param paths - the files
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for an extension it does not read
 */
export async function readCandidates(paths: readonly string[]): Promise<CandidateRead> {
  const all: Article[] = []
  const errors: PubmatchError[] = []
  for (const path of paths) {
    const lower = path.toLowerCase()
    const text = async (): Promise<string> =>
      readFile(path, 'utf8').catch((cause: unknown) => {
        throw new PubmatchError('NOT_FOUND', `cannot read ${path}`, { cause, details: { file: path } })
      })
    if (lower.endsWith('.ris')) {
      const read = parseRis(await text(), path)
      all.push(...read.articles)
      errors.push(...read.errors)
    } else if (lower.endsWith('.csv')) {
      const read = parseCandidateCsv(await text(), path)
      all.push(...read.articles)
      errors.push(...read.errors)
    } else if (lower.endsWith('.xml') || lower.endsWith('.xml.gz')) {
      await fromIngest(readPubmedXml(path), all, errors)
    } else if (/\.(txt|nbib|medline)$/.test(lower)) {
      await fromIngest(readMedlineText(path), all, errors)
    } else {
      throw new PubmatchError('UNSUPPORTED_FORMAT', `${path}: candidates are read from .ris, .csv, PubMed .xml(.gz) or MEDLINE .txt/.nbib files`, { details: { file: path } })
    }
  }
  const seen = new Set<string>()
  const articles = all.filter((a) => !seen.has(a.id) && seen.add(a.id))
  return { articles, errors, duplicates: all.length - articles.length }
}
