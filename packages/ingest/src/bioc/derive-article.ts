import {
  emptyArticle,
  type AbstractSection,
  type Article,
  type ArticleId,
  type Author,
  type DerivedFrom,
  type FullTextDocument,
  type Passage,
} from '@pubmatch/core'

/**
 * The article record of a full text whose citation the corpus may not hold, from what the BioC
 * document itself says (the JATS reader refines it from `<front>`, see `src/jats/front-article.ts`):
 *
 * | article field | BioC |
 * |---|---|
 * | `id` | the PMID (`article-id_pmid`), else the PMCID (`PMC1234567`) |
 * | `source`, `derivedFrom` | `pmc`, `bioc` |
 * | `title` | the front passage's text |
 * | `abstract` | the `ABSTRACT` passages: a heading (`abstract_title_N`) starts a labelled section, paragraphs under it (or under none) are joined into one |
 * | `authors` | the front infons `name_0`, `name_1`, … (`surname:…;given-names:…`, else a collective name), repeated names once |
 * | `pubDate` | the front infon `year` |
 * | `journal` | `volume`, `issue` (and `journal-title` when there is one) |
 * | `pagination` | `fpage`-`lpage`, else `elocation-id` |
 * | `keywords` | the front infon `kwd` as one keyword: BioC joins an article's keywords with spaces, so they cannot be told apart |
 * | `articleIds` | `pubmed`, `pmc`, `doi`, `pii` from the `article-id_*` infons |
 *
 * Languages and publication types stay empty: BioC does not give them.
 * @param document - the full text
 * @param derivedFrom - the format it was read from. Defaults to `bioc`.
 */
export function articleFromFullText(document: FullTextDocument, derivedFrom: DerivedFrom = 'bioc'): Article {
  const front = document.passages.find((passage) => passage.role === 'front')
  const infons = front?.infons ?? {}
  const article: Article = {
    ...emptyArticle(document.pmid ?? document.pmcid, 'pmc'),
    title: document.title ?? '',
    abstract: abstractSections(document.passages),
    authors: biocAuthors(infons),
    articleIds: fullTextIds(document, infons),
    derivedFrom,
  }
  const year = Number.parseInt(infons['year'] ?? '', 10)
  if (Number.isInteger(year) && year > 0) {
    article.pubDate = { year }
  }
  const journal = {
    ...present('title', infons['journal-title']),
    ...present('volume', infons['volume']),
    ...present('issue', infons['issue']),
  }
  if (Object.keys(journal).length > 0) {
    article.journal = journal
  }
  const pagination = pages(infons['fpage'], infons['lpage'], infons['elocation-id'])
  if (pagination !== undefined) {
    article.pagination = pagination
  }
  const keywords = infons['kwd']?.trim()
  if (keywords !== undefined && keywords !== '') {
    article.keywords = [{ text: keywords, owner: 'NOTNLM', majorTopic: false }]
  }
  return article
}

/**
 * The abstract from the `ABSTRACT` passages: each heading starts a labelled section, and the
 * paragraphs up to the next heading are one section's text.
 */
function abstractSections(passages: readonly Passage[]): AbstractSection[] {
  const sections: AbstractSection[] = []
  let label: string | undefined
  let open: AbstractSection | undefined
  for (const passage of passages) {
    if (passage.rawSectionType?.trim().toUpperCase() !== 'ABSTRACT' || passage.role === 'front') {
      continue
    }
    const text = passage.text.replace(/\s+/g, ' ').trim()
    if (text === '') {
      continue
    }
    if (passage.role === 'heading' || /^abstract_title/i.test(passage.passageType ?? '')) {
      label = text
      open = undefined
      continue
    }
    if (open === undefined) {
      open = label === undefined ? { text } : { label, text }
      sections.push(open)
    } else {
      open.text = `${open.text} ${text}`
    }
  }
  return sections
}

const BIOC_NAME = /^surname:(.*?);given-names:(.*)$/s

/** The `name_N` infons in order of N, each once. */
function biocAuthors(infons: Readonly<Record<string, string>>): Author[] {
  const names = Object.entries(infons)
    .flatMap(([key, value]) => {
      const match = /^name_(\d+)$/.exec(key)
      return match === null ? [] : [{ n: Number(match[1]), value: value.trim() }]
    })
    .sort((a, b) => a.n - b.n)
  const seen = new Set<string>()
  const authors: Author[] = []
  for (const { value } of names) {
    if (value === '' || seen.has(value)) {
      continue
    }
    seen.add(value)
    const match = BIOC_NAME.exec(value)
    const author: Author = { affiliations: [], identifiers: [], valid: true }
    if (match === null) {
      author.collectiveName = value
    } else {
      Object.assign(author, present('lastName', match[1]), present('foreName', match[2]))
    }
    authors.push(author)
  }
  return authors
}

/** `pubmed`, `pmc`, `doi` and `pii` ids of a full text, as PubMed's `ArticleIdList` names them. */
function fullTextIds(document: FullTextDocument, infons: Readonly<Record<string, string>>): ArticleId[] {
  const ids: ArticleId[] = []
  if (document.pmid !== undefined) {
    ids.push({ type: 'pubmed', value: document.pmid })
  }
  ids.push({ type: 'pmc', value: document.pmcid })
  if (document.doi !== undefined) {
    ids.push({ type: 'doi', value: document.doi })
  }
  const pii = infons['article-id_pii']?.trim()
  if (pii !== undefined && pii !== '') {
    ids.push({ type: 'pii', value: pii })
  }
  return ids
}

/**
 * Pagination as PubMed writes it: first and last page (`1694-1699`, one page alone when they
 * are equal), else the electronic location (`e0288290`).
 * @param first - the first page
 * @param last - the last page
 * @param elocation - the electronic location id
 */
export function pages(first: string | undefined, last: string | undefined, elocation: string | undefined): string | undefined {
  const f = first?.trim() ?? ''
  const l = last?.trim() ?? ''
  if (f !== '') {
    return l === '' || l === f ? f : `${f}-${l}`
  }
  const e = elocation?.trim() ?? ''
  return e === '' ? undefined : e
}

/**
 * `{ [key]: value }` when the value has text, else `{}`, for spreading optional fields.
 * @param key - the field
 * @param value - its value
 */
export function present<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const trimmed = value?.replace(/\s+/g, ' ').trim()
  return trimmed === undefined || trimmed === '' ? {} : ({ [key]: trimmed } as Record<K, string>)
}
