import { abstractText, articleId, articleYear, type Article, type PartialDate } from '@pubmatch/core'
import type {
  FieldConfig,
  NumericDocValuesConfig,
  SortedSetDocValuesConfig,
  StoredDocument,
} from './config.ts'
import { authorDisplayName } from './keyword.ts'

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
})

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
 * [pt], `language` [la], `substance` [nm] (chemicals and supplementary concepts).
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
 * `title_chars`, `comments_corrections`.
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
