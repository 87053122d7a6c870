/**
 * The citation sensor: recognises a query that is a citation (journal, year, volume, issue,
 * first page, first author; or a title pasted whole) and finds the one article it cites among
 * citation records. Pure: the records come from the caller (the engine reads them from the
 * corpus). See README "Citation sensor".
 */
import { articleYear, type Article } from '@pubmatch/core'

/** What the sensor knows of an article: the parts of a citation. */
export interface CitationRecord {
  /** The document id (PMID). */
  readonly id: string
  readonly title: string
  /** The journal's full title, ISO abbreviation and MedlineTA (any may be absent). */
  readonly journal?: {
    readonly title?: string
    readonly isoAbbreviation?: string
    readonly medlineTa?: string
  }
  readonly year?: number
  readonly volume?: string
  readonly issue?: string
  /** MEDLINE pagination as given (`860-921`, `e1234`, `860-9`). */
  readonly pagination?: string
  /** The first author's last name and initials (collective names are not kept). */
  readonly firstAuthor?: { readonly lastName: string; readonly initials?: string }
}

/** A part of a citation the sensor matched. */
export type CitationField = 'title' | 'journal' | 'year' | 'volume' | 'issue' | 'page' | 'author'

/** The article a citation query names, and how the query named it. */
export interface CitationMatch {
  /** The cited document's id. */
  readonly id: string
  /** `title`: the query is the article's title; `citation`: journal with year, volume, issue, page or author. */
  readonly form: 'title' | 'citation'
  /** Each part that matched, with the record's value (`journal`: the name variant typed). */
  readonly matched: Partial<Readonly<Record<CitationField, string>>>
}

/** Finds the article a citation query names. */
export interface CitationMatcher {
  /** Records it holds. */
  readonly size: number
  /**
   * The one article `query` cites, or `undefined` when the query is not a citation or names no
   * article, or several equally well (the sensor is conservative: a topical query is left alone).
   * @param query - the query as typed
   */
  match(query: string): CitationMatch | undefined
  /**
   * The MedlineTA (else ISO abbreviation, else title) of the journal `text` names, when its
   * records agree on one; `undefined` otherwise.
   * @param text - a journal name as typed (MedlineTA, ISO abbreviation or title)
   */
  journal(text: string): string | undefined
}

/** A title must have at least this many words to be recognised pasted whole. */
export const MIN_TITLE_WORDS = 4

/** Beside the journal's name, a citation has at most this many words and numbers. */
export const MAX_CITATION_PARTS = 16

/** Words people type in citations that name no part of them. */
export const FILLER: ReadonlySet<string> = new Set([
  'et',
  'al',
  'vol',
  'no',
  'pp',
  'pt',
  'suppl',
  'doi',
  'pmid',
  'epub',
])

/**
 * The comparison form of citation text: Unicode compatibility decomposition without diacritics,
 * lower case, `&` as `and`, every run of other characters than letters and digits a space.
 * @param text - any text
 */
export function foldCitationText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/**
 * The names a journal is typed by, folded: its MedlineTA, ISO abbreviation and title, the title
 * also without a leading "the", without a parenthesised place (`Lancet (London, England)`) or a
 * bracketed medium (`[electronic resource]`), and without a subtitle after `:`.
 * @param journal - the journal's names
 */
export function journalVariants(journal: NonNullable<CitationRecord['journal']>): string[] {
  const variants = new Set<string>()
  const add = (text: string | undefined): void => {
    if (text === undefined) {
      return
    }
    const folded = foldCitationText(text)
    if (folded !== '') {
      variants.add(folded)
      if (folded.startsWith('the ')) {
        variants.add(folded.slice(4))
      }
    }
  }
  add(journal.medlineTa)
  add(journal.isoAbbreviation)
  add(journal.title)
  if (journal.title !== undefined) {
    add(journal.title.replace(/\([^)]*\)|\[[^\]]*\]/g, ' '))
    add(journal.title.split(/\s:\s|:\s/)[0])
  }
  return [...variants]
}

/**
 * The page numbers of a MEDLINE pagination: the first page, and each other page it names, expanded (`860-9` → `869`).
 * @param pagination - MEDLINE pagination as given
 */
export function pagesOf(pagination: string): { first: string | undefined; all: Set<string> } {
  const tokens = foldCitationText(pagination)
    .split(' ')
    .filter((t) => t !== '' && !FILLER.has(t))
  const all = new Set<string>(tokens)
  const range = /^([a-z]*)(\d+)\s*-\s*([a-z]*)(\d+)/i.exec(pagination.trim())
  if (range !== null) {
    const start = range[2]!
    const end = range[4]!
    if (end.length < start.length) {
      all.add(`${range[1]!.toLowerCase()}${start.slice(0, start.length - end.length)}${end}`)
    }
  }
  return { first: tokens[0], all }
}

/** A record with its parts in the forms the matcher compares. */
export interface Prepared {
  readonly record: CitationRecord
  readonly year: string | undefined
  /** The words and numbers of the volume and the issue (`25-26` is `25` and `26`). */
  readonly volume: ReadonlySet<string>
  readonly issue: ReadonlySet<string>
  readonly firstPage: string | undefined
  /** Every page token of the pagination (numbers, e-locators, roman numerals), ends expanded. */
  readonly pages: ReadonlySet<string>
  readonly lastName: string | undefined
  readonly initials: string
}

/**
 * The citation record of an article: its title, journal names, year, volume, issue, pagination
 * and first author (the first personal author).
 * @param article - the article
 */
export function citationRecordOf(article: Article): CitationRecord {
  const year = articleYear(article)
  const author = article.authors.find((a) => a.lastName !== undefined && a.lastName !== '')
  const journal = article.journal
  const names =
    journal === undefined
      ? undefined
      : {
          ...(journal.title === undefined ? {} : { title: journal.title }),
          ...(journal.isoAbbreviation === undefined
            ? {}
            : { isoAbbreviation: journal.isoAbbreviation }),
          ...(journal.medlineTa === undefined ? {} : { medlineTa: journal.medlineTa }),
        }
  return {
    id: article.id,
    title: article.title,
    ...(names === undefined || Object.keys(names).length === 0 ? {} : { journal: names }),
    ...(year === undefined ? {} : { year }),
    ...(journal?.volume === undefined ? {} : { volume: journal.volume }),
    ...(journal?.issue === undefined ? {} : { issue: journal.issue }),
    ...(article.pagination === undefined ? {} : { pagination: article.pagination }),
    ...(author === undefined
      ? {}
      : {
          firstAuthor: {
            lastName: author.lastName!,
            ...(author.initials === undefined ? {} : { initials: author.initials }),
          },
        }),
  }
}

/**
 * The words and numbers of a volume or issue, folded, without filler words.
 * @param text - the volume or issue as given
 */
export const tokenSet = (text: string | undefined): ReadonlySet<string> =>
  new Set(
    text === undefined
      ? []
      : foldCitationText(text)
          .split(' ')
          .filter((t) => t !== '' && !FILLER.has(t)),
  )

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key)
  if (list === undefined) {
    map.set(key, [value])
  } else {
    list.push(value)
  }
}

/**
 * A record's parts in the forms the matcher compares.
 * @param record - the citation record
 */
export function prepareRecord(record: CitationRecord): Prepared {
  const pages =
    record.pagination === undefined
      ? { first: undefined, all: new Set<string>() }
      : pagesOf(record.pagination)
  return {
    record,
    year: record.year === undefined ? undefined : String(record.year),
    volume: tokenSet(record.volume),
    issue: tokenSet(record.issue),
    firstPage: pages.first,
    pages: pages.all,
    lastName:
      record.firstAuthor === undefined
        ? undefined
        : foldCitationText(record.firstAuthor.lastName) || undefined,
    initials: foldCitationText(record.firstAuthor?.initials ?? '').replace(/ /g, ''),
  }
}

/**
 * A citation matcher over records.
 * @param records - the citation records (of the documents a search can return)
 */
export function createCitationMatcher(records: Iterable<CitationRecord>): CitationMatcher {
  const byTitle = new Map<string, Prepared[]>()
  const byJournal = new Map<string, Prepared[]>()
  let longestJournal = 0
  let size = 0
  for (const record of records) {
    size += 1
    const prepared = prepareRecord(record)
    const title = foldCitationText(record.title)
    if (title.split(' ').length >= MIN_TITLE_WORDS) {
      push(byTitle, title, prepared)
    }
    if (record.journal !== undefined) {
      for (const variant of journalVariants(record.journal)) {
        push(byJournal, variant, prepared)
        longestJournal = Math.max(longestJournal, variant.split(' ').length)
      }
    }
  }
  return {
    size,
    match: (query) => matchTitle(byTitle, query) ?? matchCitation(byJournal, longestJournal, query),
    journal: (text) => {
      const names = new Set(
        (byJournal.get(foldCitationText(text)) ?? []).map((p) => {
          const j = p.record.journal!
          return j.medlineTa ?? j.isoAbbreviation ?? j.title
        }),
      )
      return names.size === 1 ? [...names][0] : undefined
    },
  }
}

function matchTitle(
  byTitle: ReadonlyMap<string, Prepared[]>,
  query: string,
): CitationMatch | undefined {
  // brackets are kept: MEDLINE's translated titles and chemical names (`[1-13C]pyruvate`) have
  // them, and a search with field tags is never a whole title of four words or more
  const found = byTitle.get(foldCitationText(query))
  if (found === undefined || found.length !== 1) {
    return undefined
  }
  const record = found[0]!.record
  return { id: record.id, form: 'title', matched: { title: record.title } }
}

/** Field tags, Boolean operators, quotes or truncation: a query written in PubMed's syntax, not a citation. */
export const SYNTAX: RegExp = /[[\]"*#]|\b(?:AND|OR|NOT)\b/

function matchCitation(
  byJournal: ReadonlyMap<string, Prepared[]>,
  longestJournal: number,
  query: string,
): CitationMatch | undefined {
  if (SYNTAX.test(query)) {
    return undefined
  }
  const tokens = foldCitationText(query)
    .split(' ')
    .filter((t) => t !== '')
  if (tokens.length < 2 || tokens.length > longestJournal + MAX_CITATION_PARTS) {
    return undefined
  }
  // the longest runs of words that name a journal
  let spans: Array<{ start: number; end: number; records: Prepared[] }> = []
  for (
    let length = Math.min(longestJournal, tokens.length - 1);
    length >= 1 && spans.length === 0;
    length--
  ) {
    for (let start = 0; start + length <= tokens.length; start++) {
      const records = byJournal.get(tokens.slice(start, start + length).join(' '))
      if (records !== undefined) {
        spans.push({ start, end: start + length, records })
      }
    }
  }
  spans = spans.filter((span) => span.records.length > 0)
  let best: { matched: Map<CitationField, string>; prepared: Prepared }[] = []
  let bestStrength = 0
  for (const span of spans) {
    const rest = [...tokens.slice(0, span.start), ...tokens.slice(span.end)].filter(
      (t) => !FILLER.has(t),
    )
    // beside the journal: an author's name and initials, words of a volume or issue
    if (rest.filter((t) => !/\d/.test(t)).length > 6) {
      continue
    }
    const journalText = tokens.slice(span.start, span.end).join(' ')
    for (const prepared of new Set(span.records)) {
      const matched = matchParts(prepared, rest)
      if (matched === undefined) {
        continue
      }
      // a citation names more than its journal: two parts, one of them volume, page or author
      const strong = matched.has('volume') || matched.has('page') || matched.has('author')
      if (!strong || matched.size < 2) {
        continue
      }
      matched.set('journal', journalText)
      if (matched.size > bestStrength) {
        best = [{ matched, prepared }]
        bestStrength = matched.size
      } else if (matched.size === bestStrength && !best.some((b) => b.prepared === prepared)) {
        best.push({ matched, prepared })
      }
    }
  }
  if (best.length !== 1) {
    return undefined
  }
  const { matched, prepared } = best[0]!
  return { id: prepared.record.id, form: 'citation', matched: Object.fromEntries(matched) }
}

/**
 * The parts of a record the query's tokens besides the journal name, or `undefined` when a token
 * names nothing of it (then the record is not the one cited). Tokens that are no year, volume,
 * issue or page must be the first author's last name and initials.
 * @param prepared - the record
 * @param tokens - the query's tokens beside the journal name (filler words removed)
 */
export function matchParts(
  prepared: Prepared,
  tokens: readonly string[],
): Map<CitationField, string> | undefined {
  const matched = new Map<CitationField, string>()
  const record = prepared.record
  const words: string[] = []
  for (const token of tokens) {
    let named = false
    if (token === prepared.year) {
      matched.set('year', token)
      named = true
    }
    if (prepared.volume.has(token)) {
      matched.set('volume', record.volume!)
      named = true
    }
    if (prepared.issue.has(token)) {
      matched.set('issue', record.issue!)
      named = true
    }
    if (token === prepared.firstPage) {
      matched.set('page', record.pagination!)
      named = true
    } else if (prepared.pages.has(token) && matched.has('page')) {
      // the rest of a page range after its first page
      named = true
    }
    if (!named) {
      if (/\d/.test(token)) {
        return undefined
      }
      words.push(token)
    }
  }
  if (words.length > 0) {
    if (prepared.lastName === undefined) {
      return undefined
    }
    const name = prepared.lastName.split(' ')
    const at = indexOfRun(words, name)
    if (at < 0) {
      return undefined
    }
    // what is left beside the last name: the initials (or their first letters)
    const initials = [...words.slice(0, at), ...words.slice(at + name.length)].join('')
    if (initials !== '' && (prepared.initials === '' || !prepared.initials.startsWith(initials))) {
      return undefined
    }
    const author = record.firstAuthor!
    matched.set(
      'author',
      author.initials === undefined ? author.lastName : `${author.lastName} ${author.initials}`,
    )
  }
  return matched
}

function indexOfRun(words: readonly string[], run: readonly string[]): number {
  for (let i = 0; i + run.length <= words.length; i++) {
    if (run.every((w, j) => words[i + j] === w)) {
      return i
    }
  }
  return -1
}
