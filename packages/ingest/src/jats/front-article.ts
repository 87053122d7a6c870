import type { AbstractSection, Article, Author, FullTextDocument, HistoryDate, Journal, Keyword, OtherAbstract, PartialDate, PublicationType } from '@pubmatch/core'
import { articleFromFullText, pages, present } from '../bioc/derive-article.ts'
import { attribute, childElement, childElements, childPath, localName, type XmlElement } from '../xml/tree.ts'
import { jatsParagraphText, jatsText } from './text.ts'

/**
 * The article record of a JATS full text from its `<front>`, for a corpus that holds no citation
 * of it. It starts from what the BioC reader derives from the same article's BioC document (id,
 * title, ids; see `articleFromFullText`) and takes the rest from `<article-meta>` and
 * `<journal-meta>`:
 *
 * | article field | JATS |
 * |---|---|
 * | `derivedFrom` | `jats` |
 * | `abstract` | the first `<abstract>` without `abstract-type` (else the first): a `<sec>` is a section labelled by its `<title>`, loose paragraphs one unlabelled section |
 * | `otherAbstracts` | the other `<abstract>`s (`type`: their `abstract-type`, e.g. `summary`) and `<trans-abstract>`s (`language`) |
 * | `authors` | `<contrib>` of `contrib-type="author"` (or none given; editors and reviewers are left out): `surname`, `given-names`, `suffix`, `collab`, ORCID `contrib-id`, `equal-contrib="yes"`, affiliations by `xref ref-type="aff"` or inside the contributor |
 * | `journal` | `journal-id` `nlm-ta` (MedlineTA), `iso-abbrev`, `journal-title`, the print ISSN else the electronic one, `volume`, `issue` |
 * | `pubDate` | `pub-date` `ppub` (or `date-type="pub"` in print), else `collection`, else `epub-ppub` |
 * | `electronicDate` | `pub-date` `epub` (or `date-type="pub"` online) |
 * | `history` | `<history><date date-type>` (`received`, `accepted`, `rev-recd` → `revised`) |
 * | `pagination` | `fpage`-`lpage`, else `elocation-id` |
 * | `keywords` | every `<kwd>` and `<compound-kwd>` of the `<kwd-group>`s, owner `NOTNLM` (author keywords, as PubMed marks them) |
 * | `languages` | `<article xml:lang>` as an ISO 639-2 code (`en` → `eng`); JATS's default is English |
 * | `publicationTypes` | from `article-type`: `research-article` → Journal Article, `review-article` → Journal Article + Review, `case-report` → Journal Article + Case Reports, `editorial`, `letter`, `correction` → Published Erratum, `retraction` → Retraction of Publication; other types give none |
 * | `copyright` | `copyright-statement` |
 * @param article - the `<article>` element
 * @param document - the full text read from it
 */
export function jatsFrontArticle(article: XmlElement, document: FullTextDocument): Article {
  const meta = childPath(article, 'front', 'article-meta')
  const journalMeta = childPath(article, 'front', 'journal-meta')
  const derived: Article = { ...articleFromFullText(document, 'jats'), keywords: keywords(meta), languages: [languageCode(attribute(article, 'xml:lang') ?? 'en')] }
  const abstracts = childElements(meta, 'abstract')
  const main = abstracts.find((abstract) => attribute(abstract, 'abstract-type') === undefined) ?? abstracts[0]
  derived.abstract = main === undefined ? [] : abstractSections(main)
  derived.otherAbstracts = [
    ...abstracts
      .filter((abstract) => abstract !== main)
      .map((abstract): OtherAbstract => ({ ...present('type', attribute(abstract, 'abstract-type')), sections: abstractSections(abstract) })),
    ...childElements(meta, 'trans-abstract').map(
      (abstract): OtherAbstract => ({ ...present('language', languageCode(attribute(abstract, 'xml:lang') ?? '')), sections: abstractSections(abstract) }),
    ),
  ].filter((abstract) => abstract.sections.length > 0)
  derived.authors = contributors(article, meta)
  const journal = journalOf(journalMeta, meta)
  if (journal !== undefined) {
    derived.journal = journal
  }
  const dates = publicationDates(meta)
  delete derived.pubDate
  Object.assign(derived, dates)
  derived.history = childElements(childElement(meta, 'history'), 'date').flatMap((date): HistoryDate[] => {
    const parsed = partialDate(date)
    const type = attribute(date, 'date-type')
    return parsed === undefined || type === undefined ? [] : [{ status: type === 'rev-recd' ? 'revised' : type, date: parsed }]
  })
  const pagination = pages(jatsText(childElement(meta, 'fpage')), jatsText(childElement(meta, 'lpage')), jatsText(childElement(meta, 'elocation-id')))
  if (pagination === undefined) {
    delete derived.pagination
  } else {
    derived.pagination = pagination
  }
  derived.publicationTypes = publicationTypes(attribute(article, 'article-type'))
  const copyright = jatsText(childElement(childElement(meta, 'permissions'), 'copyright-statement')) || jatsText(childElement(meta, 'copyright-statement'))
  if (copyright !== '') {
    derived.copyright = copyright
  }
  return derived
}

/** An abstract's sections: each `<sec>` labelled by its title, loose paragraphs joined into one. */
function abstractSections(abstract: XmlElement): AbstractSection[] {
  const sections: AbstractSection[] = []
  let loose: AbstractSection | undefined
  for (const child of childElements(abstract)) {
    const local = localName(child.name)
    if (local === 'sec') {
      const text = paragraphs(child)
      if (text !== '') {
        sections.push({ ...present('label', jatsText(childElement(child, 'title'))), text })
      }
      loose = undefined
    } else if (local !== 'title' && local !== 'label') {
      const text = jatsParagraphText(child).text
      if (text === '') {
        continue
      }
      if (loose === undefined) {
        loose = { text }
        sections.push(loose)
      } else {
        loose.text = `${loose.text} ${text}`
      }
    }
  }
  return sections
}

/** The text of a section's paragraphs and nested sections (titles of nested sections included). */
function paragraphs(sec: XmlElement): string {
  return childElements(sec)
    .flatMap((child) => {
      const local = localName(child.name)
      if (local === 'title' || local === 'label') {
        return []
      }
      return [local === 'sec' ? [jatsText(childElement(child, 'title')), paragraphs(child)].filter((t) => t !== '').join(' ') : jatsParagraphText(child).text]
    })
    .filter((text) => text !== '')
    .join(' ')
}

function keywords(meta: XmlElement | undefined): Keyword[] {
  return childElements(meta, 'kwd-group').flatMap((group) =>
    childElements(group)
      .filter((child) => child.name === 'kwd' || child.name === 'compound-kwd')
      .map((kwd) => jatsText(kwd))
      .filter((text) => text !== '')
      .map((text): Keyword => ({ text, owner: 'NOTNLM', majorTopic: false })),
  )
}

/** Every element named `name` below `element` (document order), not descending into matches. */
function descendants(element: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = []
  for (const child of childElements(element)) {
    if (child.name === name) {
      out.push(child)
    } else {
      out.push(...descendants(child, name))
    }
  }
  return out
}

/** The authors: contributors typed `author` (or untyped), with their affiliations and ORCIDs. */
function contributors(article: XmlElement, meta: XmlElement | undefined): Author[] {
  const affiliations = new Map<string, string>()
  for (const aff of [...descendants(meta, 'aff'), ...descendants(childElement(article, 'front'), 'aff')]) {
    const id = attribute(aff, 'id')
    const text = jatsText(aff)
    if (id !== undefined && text !== '' && !affiliations.has(id)) {
      affiliations.set(id, text)
    }
  }
  const authors: Author[] = []
  for (const group of childElements(meta, 'contrib-group')) {
    const groupAffs = childElements(group, 'aff').map((aff) => jatsText(aff))
    for (const contrib of childElements(group, 'contrib')) {
      const type = attribute(contrib, 'contrib-type')
      if (type !== undefined && type !== 'author') {
        continue
      }
      const name = childElement(contrib, 'name') ?? childElement(childElement(contrib, 'name-alternatives'), 'name')
      const collab = childElement(contrib, 'collab')
      const author: Author = { affiliations: [], identifiers: [], valid: true }
      if (name !== undefined) {
        Object.assign(
          author,
          present('lastName', jatsText(childElement(name, 'surname'))),
          present('foreName', jatsText(childElement(name, 'given-names'))),
          present('suffix', jatsText(childElement(name, 'suffix'))),
        )
      } else if (collab !== undefined) {
        Object.assign(author, present('collectiveName', jatsText(collab)))
      }
      if (author.lastName === undefined && author.collectiveName === undefined) {
        continue
      }
      const own = [
        ...childElements(contrib, 'xref')
          .filter((xref) => attribute(xref, 'ref-type') === 'aff')
          .flatMap((xref) => (attribute(xref, 'rid') ?? '').split(/\s+/))
          .flatMap((rid) => {
            const text = affiliations.get(rid)
            return text === undefined ? [] : [text]
          }),
        ...childElements(contrib, 'aff').map((aff) => jatsText(aff)),
      ].filter((text) => text !== '')
      author.affiliations = [...new Set(own.length > 0 ? own : groupAffs.length === 1 ? groupAffs : [])]
      for (const id of childElements(contrib, 'contrib-id')) {
        const value = jatsText(id)
        if (value !== '' && /orcid/i.test(`${attribute(id, 'contrib-id-type') ?? ''} ${value}`)) {
          author.identifiers.push({ source: 'ORCID', value: value.replace(/^https?:\/\/orcid\.org\//i, '') })
        }
      }
      if (attribute(contrib, 'equal-contrib') === 'yes') {
        author.equalContrib = true
      }
      authors.push(author)
    }
  }
  return authors
}

function journalOf(journalMeta: XmlElement | undefined, meta: XmlElement | undefined): Journal | undefined {
  const ids = childElements(journalMeta, 'journal-id')
  const id = (type: string): string | undefined => {
    const element = ids.find((candidate) => attribute(candidate, 'journal-id-type') === type)
    return element === undefined ? undefined : jatsText(element)
  }
  const issns = childElements(journalMeta, 'issn')
  const issn = (format: 'print' | 'electronic'): string | undefined => {
    const element = issns.find((candidate) => {
      const type = attribute(candidate, 'pub-type') ?? attribute(candidate, 'publication-format') ?? ''
      return format === 'print' ? /^(?:ppub|print)$/.test(type) : /^(?:epub|electronic)$/.test(type)
    })
    return element === undefined ? undefined : jatsText(element)
  }
  const print = issn('print')
  const electronic = issn('electronic')
  const journal: Journal = {
    ...present('title', jatsText(childElement(childElement(journalMeta, 'journal-title-group'), 'journal-title')) || jatsText(childElement(journalMeta, 'journal-title'))),
    ...present('isoAbbreviation', id('iso-abbrev')),
    ...present('medlineTa', id('nlm-ta')),
    ...(print !== undefined && print !== ''
      ? { issn: print, issnType: 'Print' }
      : electronic !== undefined && electronic !== ''
        ? { issn: electronic, issnType: 'Electronic' }
        : {}),
    ...present('volume', jatsText(childElement(meta, 'volume'))),
    ...present('issue', jatsText(childElement(meta, 'issue'))),
  }
  return Object.keys(journal).length === 0 ? undefined : journal
}

/** `pubDate` (print, else collection) and `electronicDate` (epub) from the `<pub-date>`s. */
function publicationDates(meta: XmlElement | undefined): Pick<Article, 'pubDate' | 'electronicDate'> {
  const byKind = new Map<string, PartialDate>()
  for (const element of childElements(meta, 'pub-date')) {
    const date = partialDate(element)
    const type = attribute(element, 'pub-type') ?? attribute(element, 'date-type') ?? ''
    const format = attribute(element, 'publication-format')
    const kind = type === 'pub' || type === '' ? (format === 'electronic' ? 'epub' : format === 'print' ? 'ppub' : 'pub') : type
    if (date !== undefined && !byKind.has(kind)) {
      byKind.set(kind, date)
    }
  }
  const pubDate = byKind.get('ppub') ?? byKind.get('collection') ?? byKind.get('epub-ppub') ?? byKind.get('pub')
  const electronicDate = byKind.get('epub')
  return { ...(pubDate === undefined ? {} : { pubDate }), ...(electronicDate === undefined ? {} : { electronicDate }) }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** A JATS date (`<year>`, `<month>` as a number or a name, `<day>`, `<season>`); undefined without a year. */
function partialDate(element: XmlElement): PartialDate | undefined {
  const year = Number.parseInt(jatsText(childElement(element, 'year')), 10)
  if (!Number.isInteger(year) || year <= 0) {
    return undefined
  }
  const date: PartialDate = { year }
  const monthText = jatsText(childElement(element, 'month'))
  const month = /^\d+$/.test(monthText) ? Number(monthText) : MONTHS.indexOf(monthText.slice(0, 3).toLowerCase()) + 1
  if (month >= 1 && month <= 12) {
    date.month = month
    const day = Number.parseInt(jatsText(childElement(element, 'day')), 10)
    if (Number.isInteger(day) && day >= 1 && day <= 31) {
      date.day = day
    }
  }
  const season = jatsText(childElement(element, 'season'))
  if (season !== '') {
    date.season = season
  }
  return date
}

/** ISO 639-1 codes of the languages PubMed sees most, as the ISO 639-2 (bibliographic) codes PubMed uses. */
const LANGUAGES: Readonly<Record<string, string>> = {
  en: 'eng',
  fr: 'fre',
  de: 'ger',
  es: 'spa',
  it: 'ita',
  pt: 'por',
  ja: 'jpn',
  zh: 'chi',
  ru: 'rus',
  nl: 'dut',
  pl: 'pol',
  ko: 'kor',
  tr: 'tur',
  cs: 'cze',
  sv: 'swe',
  da: 'dan',
  no: 'nor',
  fi: 'fin',
  hu: 'hun',
  el: 'gre',
}

/** `en`, `en-US`, `EN` → `eng`; a code not in the table is kept (lower case). */
function languageCode(tag: string): string {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? ''
  return LANGUAGES[base] ?? base
}

const ARTICLE_TYPES: Readonly<Record<string, readonly string[]>> = {
  'research-article': ['Journal Article'],
  'review-article': ['Journal Article', 'Review'],
  'case-report': ['Journal Article', 'Case Reports'],
  'brief-report': ['Journal Article'],
  'rapid-communication': ['Journal Article'],
  editorial: ['Editorial'],
  letter: ['Letter'],
  correction: ['Published Erratum'],
  retraction: ['Retraction of Publication'],
}

function publicationTypes(articleType: string | undefined): PublicationType[] {
  return (ARTICLE_TYPES[articleType ?? ''] ?? []).map((name) => ({ name }))
}
