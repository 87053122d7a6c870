/**
 * RIS (Research Information Systems) citations, as reference managers and databases export them:
 * `TAG  - value` lines, a record from `TY` to `ER`. Mapped: `ID`/`AN` (id; a PMID when numeric),
 * `TI`/`T1` (title), `AB`/`N2` (abstract), `AU`/`A1` (authors, `Last, First`), `PY`/`Y1`/`DA`
 * (year), `JO`/`JF`/`T2`/`JA` (journal), `KW` (keywords, and MeSH when the file says so in `KW`
 * with no way to tell: kept as keywords), `DO` (DOI), `SN` (ISSN). A record without `TY` or `ER`,
 * or without a title, is a typed error and skipped.
 */
import { emptyArticle, PubmatchError, type Article } from '@pubmatch/core'

const LINE = /^([A-Z][A-Z0-9]) {2}- ?(.*)$/

/** What a RIS file gave: its articles (in order) and its skipped records. */
export interface RisResult {
  readonly articles: Article[]
  readonly errors: PubmatchError[]
}

/**
 * Parses RIS text.
 * @param text - the file's text
 * @param file - the file name, for errors
 */
export function parseRis(text: string, file = 'ris'): RisResult {
  const articles: Article[] = []
  const errors: PubmatchError[] = []
  let tags: Array<[string, string]> | undefined
  let start = 0
  let ordinal = 0
  const finish = (line: number): void => {
    ordinal++
    const get = (...names: string[]): string[] => tags!.filter(([tag]) => names.includes(tag)).map(([, v]) => v.trim()).filter((v) => v !== '')
    const id = get('ID', 'AN')[0] ?? `${file}#${ordinal}`
    const title = get('TI', 'T1')[0]
    if (title === undefined) {
      errors.push(new PubmatchError('MISSING_FIELD', `${file}: the record of lines ${start}–${line} has no title (TI or T1)`, { details: { file, record: id, position: start } }))
      return
    }
    const article = emptyArticle(id.replace(/^PMID:?\s*/i, ''))
    article.title = title
    const abstract = get('AB', 'N2').join(' ')
    if (abstract !== '') {
      article.abstract = [{ text: abstract }]
    }
    article.authors = get('AU', 'A1').map((name) => {
      const [last, first] = name.split(',').map((p) => p.trim())
      return { lastName: last, ...(first ? { foreName: first } : {}), affiliations: [], identifiers: [], valid: true }
    })
    const year = Number(/\d{4}/.exec(get('PY', 'Y1', 'DA')[0] ?? '')?.[0])
    if (Number.isInteger(year)) {
      article.pubDate = { year }
    }
    const journal = get('JO', 'JF', 'T2', 'JA')[0]
    const issn = get('SN')[0]
    if (journal !== undefined || issn !== undefined) {
      article.journal = { ...(journal ? { title: journal } : {}), ...(issn ? { issn } : {}) }
    }
    article.keywords = get('KW').map((text) => ({ text, majorTopic: false }))
    const doi = get('DO')[0]
    if (doi !== undefined) {
      article.articleIds = [{ type: 'doi', value: doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') }]
    }
    articles.push(article)
  }
  for (const [i, raw] of text.replace(/^\uFEFF/, '').split(/\r?\n/).entries()) {
    const match = LINE.exec(raw)
    if (match === null) {
      if (tags !== undefined && tags.length > 0 && raw.trim() !== '') {
        // a continuation line of the previous tag
        tags[tags.length - 1]![1] += ` ${raw.trim()}`
      }
      continue
    }
    const [, tag, value] = match as unknown as [string, string, string]
    if (tag === 'TY') {
      if (tags !== undefined) {
        errors.push(new PubmatchError('TRUNCATED_INPUT', `${file}: the record starting on line ${start} has no ER before the next TY`, { details: { file, position: start } }))
      }
      tags = []
      start = i + 1
    } else if (tag === 'ER') {
      if (tags === undefined) {
        errors.push(new PubmatchError('MISSING_FIELD', `${file}: line ${i + 1}: ER without a TY`, { details: { file, position: i + 1 } }))
      } else {
        finish(i + 1)
      }
      tags = undefined
    } else if (tags !== undefined) {
      tags.push([tag, value])
    }
  }
  if (tags !== undefined) {
    errors.push(new PubmatchError('TRUNCATED_INPUT', `${file}: the record starting on line ${start} has no ER`, { details: { file, position: start } }))
  }
  return { articles, errors }
}
