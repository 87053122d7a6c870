import { abstractText, articleId, articleYear, type Article, type PartialDate } from '@pubmatch/core'
import type {
  FieldConfig,
  NumericDocValuesConfig,
  SortedSetDocValuesConfig,
  StoredDocument,
} from './config.ts'
import { authorDisplayName } from './keyword.ts'
import { articleFilters } from './pubmed-filters.ts'

/** Options of {@link defaultPubmedFields}. */
export interface PubmedFieldsOptions {
  /** The analyzer of the text fields (title, abstract, MeSH, keywords). Defaults to `biomedical`. */
  analyzer?: string
  /**
   * MeSH entry terms (synonyms) of a descriptor, looked up by its unique id (`D006801`) or,
   * when the record has none, by its name; they are indexed in the `mesh` text field after
   * the descriptor name. Defaults to none (names only).
   */
  meshEntryTerms?: (descriptorUiOrName: string) => readonly string[]
}

/**
 * Which index fields (or other index data) serve each PubMed query tag in the default
 * PubMed field set. `[dp]` is served by the `pubdate`/`year` numeric doc values and
 * `[pmid]` by the external id (`IndexReader.docNumber`), not by postings.
 */
export const PUBMED_TAG_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  ti: ['title'],
  ab: ['abstract'],
  tiab: ['title', 'abstract', 'keywords'],
  mh: ['mesh_heading'],
  majr: ['mesh_major'],
  au: ['authors'],
  ta: ['journal'],
  pt: ['pubtype'],
  la: ['language'],
  ot: ['keywords'],
  nm: ['substance'],
  ad: ['affiliation'],
  cn: ['corporate_author'],
  gr: ['grant'],
  cois: ['cois'],
  tt: ['transliterated_title'],
  pubn: ['publisher'],
  book: ['book'],
  fau: ['authors_full'],
  '1au': ['first_author'],
  lastau: ['last_author'],
  auid: ['author_id'],
  ir: ['investigators'],
  fir: ['investigators_full'],
  ed: ['editors'],
  ps: ['personal_name'],
  rn: ['registry_number'],
  sh: ['mesh_subheading'],
  aid: ['article_id'],
  pid: ['article_id'],
  lid: ['location_id'],
  pmcid: ['pmcid'],
  isbn: ['isbn'],
  ip: ['issue'],
  vi: ['volume'],
  pg: ['pagination'],
  jid: ['journal_id'],
  pl: ['place'],
  si: ['secondary_source'],
  filter: ['filter'],
})

/**
 * The fields of {@link defaultPubmedFields} that only a field tag searches (`harvard[ad]`,
 * `12[vi]`): untagged terms and `[all]` do not search them and the first stage does not score
 * them, so that adding them changed neither which documents an untagged query matches nor how
 * they rank.
 */
export const PUBMED_TAG_ONLY_FIELDS: readonly string[] = Object.freeze([
  'affiliation',
  'corporate_author',
  'grant',
  'cois',
  'transliterated_title',
  'publisher',
  'book',
  'authors_full',
  'first_author',
  'last_author',
  'author_id',
  'investigators',
  'investigators_full',
  'editors',
  'personal_name',
  'registry_number',
  'mesh_subheading',
  'article_id',
  'location_id',
  'pmcid',
  'isbn',
  'issue',
  'volume',
  'pagination',
  'journal_id',
  'place',
  'secondary_source',
  'filter',
])

/**
 * The PubMed date tags served by numeric doc values of the default PubMed set (sortable
 * `YYYYMMDD`, see {@link sortableDate}): `[dp]` by `pubdate`, `[edat]` by the history's
 * `pubmed` date, `[crdt]` by its `entrez` date, `[mhda]` by its `medline` date, `[dcom]` by
 * `DateCompleted`, `[lr]` by `DateRevised`, `[ppdat]` by the issue date and `[epdat]` by the
 * electronic date.
 */
export const PUBMED_DATE_DOC_VALUES: Readonly<Record<string, string>> = Object.freeze({
  dp: 'pubdate',
  edat: 'edat',
  crdt: 'crdt',
  mhda: 'mhda',
  dcom: 'dcom',
  lr: 'lr',
  ppdat: 'ppdat',
  epdat: 'epdat',
})

/**
 * An author's full name as PubMed's `[fau]` tag searches it, in both orders: `Wong Julia S`
 * and `Julia S Wong` (collective names as given).
 */
function fullNames(author: Article['authors'][number]): string[] {
  if (author.collectiveName !== undefined && author.collectiveName !== '') {
    return [author.collectiveName]
  }
  if (author.lastName === undefined || author.lastName === '') {
    return []
  }
  const suffix = author.suffix === undefined ? '' : ` ${author.suffix}`
  const fore = author.foreName ?? author.initials
  if (fore === undefined || fore === '') {
    return [`${author.lastName}${suffix}`]
  }
  return [`${author.lastName} ${fore}${suffix}`, `${fore} ${author.lastName}${suffix}`]
}

const persons = (list: readonly Article['authors'][number][] | undefined): string[] =>
  present((list ?? []).filter((a) => a.collectiveName === undefined).map(authorDisplayName))

/** `123-9` → `123` (PubMed's `[pg]` searches the first page, or the whole pagination). */
function paginationValues(pagination: string | undefined): string[] {
  if (pagination === undefined || pagination.trim() === '') {
    return []
  }
  const first = pagination.trim().split(/[-,;\s]/)[0] ?? ''
  return present([pagination, first === pagination.trim() ? undefined : first])
}

const historyDate = (article: Article, status: string): number | undefined =>
  sortableDate(article.history.find((entry) => entry.status.toLowerCase() === status)?.date)

const majorTopic = (heading: Article['mesh'][number]): boolean =>
  heading.majorTopic || heading.qualifiers.some((qualifier) => qualifier.majorTopic)

function present(values: readonly (string | undefined)[]): string[] {
  return values.filter((value): value is string => value !== undefined && value.trim() !== '')
}

/**
 * The default fields of a PubMed index. Text fields (analyzed, with positions): `title` [ti],
 * `abstract` [ab] (one value per abstract section), `mesh` (descriptor names and, with
 * `meshEntryTerms`, their entry terms: for ranking), `keywords` [ot]. Keyword fields (exact
 * normalised values, see `normalizeKeyword`): `mesh_heading` [mh], `mesh_major` [majr]
 * (descriptors that are a major topic themselves or through a qualifier), `authors` [au] in
 * `smith j` form, `journal` [ta] (MedlineTA, ISO abbreviation, title and ISSNs), `pubtype`
 * [pt], `language` [la], `substance` [nm] (chemicals and supplementary concepts). Then the
 * fields only a tag searches ({@link PUBMED_TAG_ONLY_FIELDS}): text fields `affiliation` [ad],
 * `corporate_author` [cn], `grant` [gr] (numbers, acronyms, agencies), `cois` [cois],
 * `transliterated_title` [tt], `publisher` [pubn], `book` [book] (book and collection titles);
 * keyword fields `authors_full` [fau] (`wong julia s` and `julia s wong`), `first_author`
 * [1au], `last_author` [lastau], `author_id` [auid], `investigators` [ir],
 * `investigators_full` [fir], `editors` [ed], `personal_name` [ps], `registry_number` [rn],
 * `mesh_subheading` [sh], `article_id` [aid] (every id but the PMID), `location_id` [lid] (DOI
 * and PII), `pmcid` [pmcid], `isbn` [isbn], `issue` [ip], `volume` [vi], `pagination` [pg]
 * (the whole pagination and its first page), `journal_id` [jid], `place` [pl] (the journal's
 * country, a book's publisher location), `secondary_source` [si] (`bank/accession`, the
 * accession and the bank), `filter` [filter]/[sb] (see `PUBMED_FILTERS`).
 * See {@link PUBMED_TAG_FIELDS} for the tag → field map.
 * @param options - see {@link PubmedFieldsOptions}
 */
export function defaultPubmedFields(options: PubmedFieldsOptions = {}): FieldConfig[] {
  const analyzer = options.analyzer ?? 'biomedical'
  const entryTerms = options.meshEntryTerms
  return [
    { name: 'title', analyzer, source: (a) => a.title },
    { name: 'abstract', analyzer, source: (a) => a.abstract.map((section) => section.text) },
    {
      name: 'mesh',
      analyzer,
      source: (a) =>
        a.mesh.flatMap((heading) => [
          heading.descriptorName,
          ...(entryTerms === undefined
            ? []
            : entryTerms(heading.descriptorUi ?? heading.descriptorName)),
        ]),
    },
    { name: 'keywords', analyzer, source: (a) => a.keywords.map((keyword) => keyword.text) },
    { name: 'mesh_heading', keyword: true, source: (a) => a.mesh.map((h) => h.descriptorName) },
    {
      name: 'mesh_major',
      keyword: true,
      source: (a) => a.mesh.filter(majorTopic).map((h) => h.descriptorName),
    },
    {
      name: 'authors',
      keyword: true,
      source: (a) => present(a.authors.map(authorDisplayName)),
    },
    {
      name: 'journal',
      keyword: true,
      source: (a) =>
        present([
          a.journal?.medlineTa,
          a.journal?.isoAbbreviation,
          a.journal?.title,
          a.journal?.issn,
          a.journal?.issnLinking,
        ]),
    },
    { name: 'pubtype', keyword: true, source: (a) => a.publicationTypes.map((pt) => pt.name) },
    { name: 'language', keyword: true, source: (a) => a.languages },
    {
      name: 'substance',
      keyword: true,
      source: (a) => [
        ...a.chemicals.map((chemical) => chemical.name),
        ...a.supplementaryConcepts.map((concept) => concept.name),
      ],
    },
    ...tagOnlyFields(analyzer),
  ]
}

/** The fields of {@link PUBMED_TAG_ONLY_FIELDS}, in that order. */
function tagOnlyFields(analyzer: string): FieldConfig[] {
  return [
    {
      name: 'affiliation',
      analyzer,
      source: (a) => [...new Set(a.authors.flatMap((author) => author.affiliations))],
    },
    {
      name: 'corporate_author',
      analyzer,
      source: (a) => present(a.authors.map((author) => author.collectiveName)),
    },
    {
      name: 'grant',
      analyzer,
      source: (a) =>
        present((a.grants ?? []).flatMap((grant) => [grant.grantId, grant.acronym, grant.agency])),
    },
    { name: 'cois', analyzer, source: (a) => a.coiStatement },
    { name: 'transliterated_title', analyzer, source: (a) => a.vernacularTitle },
    { name: 'publisher', analyzer, source: (a) => a.book?.publisher },
    {
      name: 'book',
      analyzer,
      source: (a) => present([a.book?.title, a.book?.collectionTitle]),
    },
    { name: 'authors_full', keyword: true, source: (a) => a.authors.flatMap(fullNames) },
    {
      name: 'first_author',
      keyword: true,
      source: (a) => present([a.authors[0] === undefined ? undefined : authorDisplayName(a.authors[0])]),
    },
    {
      name: 'last_author',
      keyword: true,
      source: (a) => {
        const last = a.authors.at(-1)
        return present([last === undefined ? undefined : authorDisplayName(last)])
      },
    },
    {
      name: 'author_id',
      keyword: true,
      source: (a) => a.authors.flatMap((author) => author.identifiers.map((id) => id.value)),
    },
    { name: 'investigators', keyword: true, source: (a) => persons(a.investigators) },
    {
      name: 'investigators_full',
      keyword: true,
      source: (a) => (a.investigators ?? []).flatMap(fullNames),
    },
    { name: 'editors', keyword: true, source: (a) => persons(a.book?.editors) },
    { name: 'personal_name', keyword: true, source: (a) => persons(a.personalNameSubjects) },
    {
      name: 'registry_number',
      keyword: true,
      source: (a) =>
        present(a.chemicals.map((chemical) => chemical.registryNumber)).filter((rn) => rn !== '0'),
    },
    {
      name: 'mesh_subheading',
      keyword: true,
      source: (a) => a.mesh.flatMap((heading) => heading.qualifiers.map((q) => q.name)),
    },
    {
      name: 'article_id',
      keyword: true,
      source: (a) =>
        a.articleIds.filter((id) => id.type.toLowerCase() !== 'pubmed').map((id) => id.value),
    },
    {
      name: 'location_id',
      keyword: true,
      source: (a) =>
        a.articleIds
          .filter((id) => ['doi', 'pii'].includes(id.type.toLowerCase()))
          .map((id) => id.value),
    },
    { name: 'pmcid', keyword: true, source: (a) => present([articleId(a, 'pmc')]) },
    {
      name: 'isbn',
      keyword: true,
      // as printed (`978-0-12-345678-9`) and as digits only
      source: (a) => (a.book?.isbn ?? []).flatMap((isbn) => [...new Set([isbn, isbn.replace(/[^0-9Xx]/g, '')])]),
    },
    { name: 'issue', keyword: true, source: (a) => a.journal?.issue },
    { name: 'volume', keyword: true, source: (a) => a.journal?.volume },
    { name: 'pagination', keyword: true, source: (a) => paginationValues(a.pagination) },
    { name: 'journal_id', keyword: true, source: (a) => a.journal?.nlmUniqueId },
    { name: 'place', keyword: true, source: (a) => present([a.journal?.country, a.book?.publisherLocation]) },
    {
      name: 'secondary_source',
      keyword: true,
      // `ClinicalTrials.gov/NCT00000419` as MEDLINE writes it, the accession alone, and the bank
      source: (a) =>
        (a.dataBanks ?? []).flatMap((bank) => [
          bank.name,
          ...bank.accessionNumbers.flatMap((accession) => [`${bank.name}/${accession}`, accession]),
        ]),
    },
    { name: 'filter', keyword: true, source: (a) => articleFilters(a) },
  ]
}

/** Options of {@link testCollectionFields}. */
export interface TestCollectionFieldsOptions {
  /** The analyzer of both fields; NFCorpus's pre-processed text wants `whitespace`. Defaults to `biomedical`. */
  analyzer?: string
}

/**
 * Two fields for plain test collections (NFCorpus, JSONL): `title` and `abstract` (the
 * abstract sections joined by spaces, as one value).
 * @param options - see {@link TestCollectionFieldsOptions}
 */
export function testCollectionFields(options: TestCollectionFieldsOptions = {}): FieldConfig[] {
  const analyzer = options.analyzer ?? 'biomedical'
  return [
    { name: 'title', analyzer, source: (a) => a.title },
    { name: 'abstract', analyzer, source: (a) => abstractText(a) },
  ]
}

/**
 * A partial date as a sortable integer `YYYYMMDD`, with `00` for an unknown month or day
 * (`2016 Mar` → `20160300`); `undefined` without a year.
 * @param date - the date
 */
export function sortableDate(date: PartialDate | undefined): number | undefined {
  if (date?.year === undefined) {
    return undefined
  }
  return date.year * 10000 + (date.month ?? 0) * 100 + (date.day ?? 0)
}

/**
 * The default numeric doc values: `year` (see `articleYear`), `pubdate` (`YYYYMMDD`, see
 * {@link sortableDate}; the electronic date when the issue date has no year), `version`,
 * and counts for filters and learning-to-rank features: `author_count`, `mesh_count`,
 * `major_mesh_count`, `keyword_count`, `chemical_count`, `pubtype_count`,
 * `language_count`, `abstract_sections`, `has_abstract` (0/1), `abstract_chars`,
 * `title_chars`, `comments_corrections`; then the dates of PubMed's date tags
 * ({@link PUBMED_DATE_DOC_VALUES}): `edat`, `crdt`, `mhda`, `dcom`, `lr`, `ppdat`, `epdat`.
 */
export function defaultNumericDocValues(): NumericDocValuesConfig[] {
  return [
    { name: 'year', source: (a) => articleYear(a) },
    {
      name: 'pubdate',
      source: (a) => sortableDate(a.pubDate?.year === undefined ? a.electronicDate : a.pubDate),
    },
    { name: 'version', source: (a) => a.version },
    { name: 'author_count', source: (a) => a.authors.length },
    { name: 'mesh_count', source: (a) => a.mesh.length },
    { name: 'major_mesh_count', source: (a) => a.mesh.filter(majorTopic).length },
    { name: 'keyword_count', source: (a) => a.keywords.length },
    { name: 'chemical_count', source: (a) => a.chemicals.length },
    { name: 'pubtype_count', source: (a) => a.publicationTypes.length },
    { name: 'language_count', source: (a) => a.languages.length },
    { name: 'abstract_sections', source: (a) => a.abstract.length },
    { name: 'has_abstract', source: (a) => (a.abstract.some((s) => s.text.trim() !== '') ? 1 : 0) },
    { name: 'abstract_chars', source: (a) => abstractText(a).length },
    { name: 'title_chars', source: (a) => a.title.length },
    { name: 'comments_corrections', source: (a) => a.commentsCorrections.length },
    { name: 'edat', source: (a) => historyDate(a, 'pubmed') },
    { name: 'crdt', source: (a) => historyDate(a, 'entrez') },
    { name: 'mhda', source: (a) => historyDate(a, 'medline') },
    { name: 'dcom', source: (a) => sortableDate(a.dateCompleted) },
    { name: 'lr', source: (a) => sortableDate(a.dateRevised) },
    { name: 'ppdat', source: (a) => sortableDate(a.pubDate) },
    { name: 'epdat', source: (a) => sortableDate(a.electronicDate) },
  ]
}

/**
 * The default sorted-set doc values: `pubtype` (publication type names), `language` (codes),
 * `journal` (MedlineTA, else ISO abbreviation, else title), `mesh_ui` (descriptor ids).
 */
export function defaultSortedSetDocValues(): SortedSetDocValuesConfig[] {
  return [
    { name: 'pubtype', source: (a) => a.publicationTypes.map((pt) => pt.name) },
    { name: 'language', source: (a) => a.languages },
    { name: 'journal', source: (a) => present([journalName(a)]) },
    { name: 'mesh_ui', source: (a) => present(a.mesh.map((h) => h.descriptorUi)) },
  ]
}

function journalName(article: Article): string | undefined {
  return article.journal?.medlineTa ?? article.journal?.isoAbbreviation ?? article.journal?.title
}

/**
 * The default stored record: id, title, year, journal, the first three authors, the author
 * count, publication types, languages, the abstract, PMCID and DOI, and `derivedFrom` for a
 * record derived from a PMC full text.
 * @param article - the article
 */
export function defaultStoredDocument(article: Article): StoredDocument {
  const year = articleYear(article)
  const journal = journalName(article)
  const authors = present(article.authors.map(authorDisplayName))
  return {
    id: article.id,
    title: article.title,
    ...(year === undefined ? {} : { year }),
    ...(journal === undefined ? {} : { journal }),
    authors: authors.slice(0, 3),
    authorCount: article.authors.length,
    pubTypes: article.publicationTypes.map((pt) => pt.name),
    languages: [...article.languages],
    ...optional('abstract', abstractText(article)),
    ...optional('pmcid', articleId(article, 'pmc')),
    ...optional('doi', articleId(article, 'doi')),
    ...(article.derivedFrom === undefined ? {} : { derivedFrom: article.derivedFrom }),
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [key]: value } as Record<K, string>)
}
