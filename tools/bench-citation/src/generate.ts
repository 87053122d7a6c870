/**
 * Citation queries in the forms people type, generated from a real PubMed record: journal volume
 * page in MedlineTA, ISO and full-title spellings, with and without year and issue, author year
 * journal, and the title pasted whole with and without its final period.
 */
import { articleYear, type Article } from '@pubmatch/core'

/** The forms generated, in report order. */
export const CITATION_FORMS = [
  'TA vol page',
  'TA year;vol:page',
  'TA. year;vol(issue):pages',
  'ISO year;vol:page',
  'full title vol page',
  'full title year vol page',
  'author year TA',
  'author initials year TA',
  'author year full title',
  'title whole',
  'title without final period',
] as const

/** One of {@link CITATION_FORMS}. */
export type CitationForm = (typeof CITATION_FORMS)[number]

/** A generated query and the article it cites. */
export interface CitationQuery {
  readonly form: CitationForm
  readonly text: string
  readonly id: string
}

/** A journal title as people type it: without a trailing period, a parenthesised place or a bracketed medium (`[electronic resource]`). */
function typedTitle(title: string): string {
  return title
    .replace(/\s*\([^)]*\)\s*|\s*\[[^\]]*\]\s*/g, ' ')
    .replace(/\.\s*$/, '')
    .trim()
}

/**
 * The citation queries of an article, one per form whose parts it has (a form missing a part,
 * e.g. no ISO abbreviation, is left out).
 * @param article - a PubMed record
 */
export function citationQueries(article: Article): CitationQuery[] {
  const journal = article.journal
  const year = articleYear(article)
  const volume = journal?.volume
  const issue = journal?.issue
  const pages = article.pagination
  const firstPage = pages?.split(/[-,\s]/)[0]
  const author = article.authors.find((a) => a.lastName !== undefined && a.lastName !== '')
  const ta = journal?.medlineTa
  const iso = journal?.isoAbbreviation
  const full = journal?.title === undefined ? undefined : typedTitle(journal.title)
  const out: CitationQuery[] = []
  const add = (form: CitationForm, text: string | undefined): void => {
    if (text !== undefined) {
      out.push({ form, text, id: article.id })
    }
  }
  const all = (...parts: Array<string | number | undefined>): boolean =>
    parts.every((p) => p !== undefined && p !== '')
  add('TA vol page', all(ta, volume, firstPage) ? `${ta} ${volume} ${firstPage}` : undefined)
  add(
    'TA year;vol:page',
    all(ta, year, volume, firstPage) ? `${ta} ${year};${volume}:${firstPage}` : undefined,
  )
  add(
    'TA. year;vol(issue):pages',
    all(ta, year, volume, issue, pages) ? `${ta}. ${year};${volume}(${issue}):${pages}` : undefined,
  )
  add(
    'ISO year;vol:page',
    all(iso, year, volume, firstPage) ? `${iso} ${year};${volume}:${firstPage}` : undefined,
  )
  add(
    'full title vol page',
    all(full, volume, firstPage) ? `${full} ${volume} ${firstPage}` : undefined,
  )
  add(
    'full title year vol page',
    all(full, year, volume, firstPage) ? `${full} ${year} ${volume} ${firstPage}` : undefined,
  )
  add(
    'author year TA',
    all(author?.lastName, year, ta)
      ? `${author!.lastName!.toLowerCase()} ${year} ${ta!.toLowerCase()}`
      : undefined,
  )
  add(
    'author initials year TA',
    all(author?.lastName, author?.initials, year, ta)
      ? `${author!.lastName} ${author!.initials} ${year} ${ta}`
      : undefined,
  )
  add(
    'author year full title',
    all(author?.lastName, year, full) ? `${author!.lastName} ${year} ${full}` : undefined,
  )
  add('title whole', article.title === '' ? undefined : article.title)
  add(
    'title without final period',
    /\.$/.test(article.title) ? article.title.replace(/\.$/, '') : undefined,
  )
  return out
}
