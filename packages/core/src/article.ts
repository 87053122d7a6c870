/**
 * The article model: what ingestion produces from PubMed XML (and plain test collections),
 * and what indexing and ranking read. Field names follow the PubMed DTD where one exists.
 */

/** A possibly partial calendar date as PubMed records carry them. */
export interface PartialDate {
  year?: number
  /** 1–12. */
  month?: number
  /** 1–31. */
  day?: number
  /** `Spring`, `Summer`, `Fall`/`Autumn`, `Winter` when the journal gives a season. */
  season?: string
  /** The raw `MedlineDate` text (e.g. `1998 Dec-1999 Jan`) when that is all there is. */
  medlineDate?: string
}

/** A date in a PubMed `History` block (`received`, `accepted`, `pubmed`, `medline`, `entrez`, …). */
export interface HistoryDate {
  status: string
  date: PartialDate
}

/** One paragraph of an abstract; structured abstracts have several, with labels. */
export interface AbstractSection {
  /** The author's label, e.g. `BACKGROUND`, `Methods and results`. */
  label?: string
  /** NLM's normalised category: BACKGROUND, OBJECTIVE, METHODS, RESULTS, CONCLUSIONS, UNASSIGNED. */
  nlmCategory?: string
  /** Plain text: inline markup and MathML are flattened. */
  text: string
}

/** An `OtherAbstract` (e.g. a publisher's or a translated abstract). */
export interface OtherAbstract {
  /** `Type` attribute: AAMC, AIDS, KIE, NASA, Publisher, plain-language-summary, … */
  type?: string
  language?: string
  sections: AbstractSection[]
}

/** An author identifier such as an ORCID. */
export interface AuthorIdentifier {
  /** e.g. `ORCID`. */
  source: string
  value: string
}

/** A person or a collective (group) author. */
export interface Author {
  lastName?: string
  foreName?: string
  initials?: string
  suffix?: string
  /** Set for group authors (`CollectiveName`); the name fields are then absent. */
  collectiveName?: string
  affiliations: string[]
  identifiers: AuthorIdentifier[]
  /** `ValidYN="N"` marks an author name that was later corrected. Defaults to `true`. */
  valid: boolean
  /** Equal contribution flag (`EqualContrib="Y"`). */
  equalContrib?: boolean
}

/** The journal an article appeared in. */
export interface Journal {
  title?: string
  isoAbbreviation?: string
  /** `MedlineTA`, the abbreviation PubMed's `[ta]` tag searches. */
  medlineTa?: string
  issn?: string
  /** `Print` or `Electronic`. */
  issnType?: string
  issnLinking?: string
  nlmUniqueId?: string
  country?: string
  volume?: string
  issue?: string
}

/** A qualifier (subheading) under a MeSH heading. */
export interface MeshQualifier {
  ui?: string
  name: string
  majorTopic: boolean
}

/** A MeSH heading assigned to an article. */
export interface MeshHeading {
  /** Descriptor unique id, e.g. `D006801`. */
  descriptorUi?: string
  descriptorName: string
  /** Major topic on the descriptor itself. */
  majorTopic: boolean
  qualifiers: MeshQualifier[]
}

/** A supplementary concept record (`SupplMeshName`). */
export interface SupplementaryConcept {
  ui?: string
  name: string
  /** `Disease`, `Protocol`, `Organism`, `Chemical`, … */
  type?: string
}

/** A substance from the `ChemicalList`. */
export interface Chemical {
  registryNumber?: string
  ui?: string
  name: string
}

/** An author or NLM keyword. */
export interface Keyword {
  text: string
  /** `NLM`, `NOTNLM`, `PIP`, `KIE`, `NASA`, `HHS`. */
  owner?: string
  majorTopic: boolean
}

/** A publication type, e.g. `{ ui: 'D016428', name: 'Journal Article' }`. */
export interface PublicationType {
  ui?: string
  name: string
}

/** An identifier from `ArticleIdList` or `ELocationID` (doi, pmc, pii, mid, …). */
export interface ArticleId {
  type: string
  value: string
}

/** A link from `CommentsCorrectionsList`. */
export interface CommentCorrection {
  /** `ErratumIn`, `RetractionIn`, `RetractionOf`, `CommentOn`, `CommentIn`, `UpdateOf`, … */
  refType: string
  refSource?: string
  pmid?: string
  note?: string
}

/** A grant from the `GrantList` (PubMed's `[gr]`). */
export interface Grant {
  /** The grant number, e.g. `R01 GM123456`. */
  grantId?: string
  /** The institute's acronym, e.g. `GM`. */
  acronym?: string
  /** The funding agency, e.g. `NIGMS NIH HHS`. */
  agency?: string
  country?: string
}

/** A `DataBank` of the `DataBankList`: PubMed's secondary source ids (`[si]`). */
export interface DataBank {
  /** e.g. `ClinicalTrials.gov`, `GENBANK`. */
  name: string
  accessionNumbers: string[]
}

/** The book part of a `PubmedBookArticle`. */
export interface Book {
  title?: string
  publisher?: string
  publisherLocation?: string
  edition?: string
  isbn: string[]
  /** Locations of the section within the book, e.g. chapter ids. */
  locationLabels: string[]
  collectionTitle?: string
  editors: Author[]
}

/**
 * Where an article came from: a PubMed citation or book record, a plain test collection, or
 * (`pmc`) the front matter of a PMC full text whose citation the corpus does not hold (see
 * {@link Article.derivedFrom}).
 */
export type ArticleSource = 'pubmed' | 'pubmed-book' | 'test-collection' | 'pmc'

/**
 * The full-text format a derived article record was built from: JATS (`<front>`: ids, title,
 * abstracts, authors with affiliations, journal, dates, keywords, article type) or BioC (the
 * front passage and its infons, the abstract passages).
 */
export type DerivedFrom = 'jats' | 'bioc'

/**
 * One citation. `id` is the PMID for PubMed records and the collection's document id for
 * plain test collections (NFCorpus `MED-10`). A record derived from a PMC full text has the
 * full text's PMID, or its PMCID (`PMC1234567`) when the full text names no PMID.
 */
export interface Article {
  id: string
  /** PMID `Version` attribute (1 unless NLM versioned the record). */
  version: number
  source: ArticleSource
  title: string
  vernacularTitle?: string
  abstract: AbstractSection[]
  /** `CopyrightInformation` of the abstract. */
  copyright?: string
  otherAbstracts: OtherAbstract[]
  /** ISO 639-2 codes as PubMed gives them (`eng`, `ger`, …). */
  languages: string[]
  journal?: Journal
  /** The issue's publication date, normalised from Year/Month/Day, Season or MedlineDate. */
  pubDate?: PartialDate
  /** `ArticleDate DateType="Electronic"`. */
  electronicDate?: PartialDate
  history: HistoryDate[]
  dateCompleted?: PartialDate
  dateRevised?: PartialDate
  pagination?: string
  authors: Author[]
  /** `CompleteYN="N"` on the author list. */
  authorListComplete: boolean
  mesh: MeshHeading[]
  supplementaryConcepts: SupplementaryConcept[]
  chemicals: Chemical[]
  keywords: Keyword[]
  publicationTypes: PublicationType[]
  articleIds: ArticleId[]
  /** `MEDLINE`, `PubMed-not-MEDLINE`, `In-Process`, `Publisher`, … */
  citationStatus?: string
  /** `NLM`, `NASA`, `PIP`, `KIE`, `NOTNLM`, `HSR`, `HMD`. */
  owner?: string
  /** `PublicationStatus` (`ppublish`, `epublish`, `aheadofprint`). */
  publicationStatus?: string
  commentsCorrections: CommentCorrection[]
  /** `GrantList` (absent in records stored before grants were read). */
  grants?: Grant[]
  /** `InvestigatorList`: investigators who are not authors (PubMed's `[ir]`, `[fir]`). */
  investigators?: Author[]
  /** `DataBankList`: secondary source ids such as trial registrations (PubMed's `[si]`). */
  dataBanks?: DataBank[]
  /** `CoiStatement`: the conflict of interest statement (PubMed's `[cois]`). */
  coiStatement?: string
  /** `PersonalNameSubjectList`: people the article is about (PubMed's `[ps]`). */
  personalNameSubjects?: Author[]
  book?: Book
  /**
   * Set when this record is not a PubMed citation but was built from a PMC full text's own
   * front matter, because the corpus held no citation for it (`source` is then `pmc`). A PubMed
   * record for the same id takes its place whenever it is ingested; it never replaces one.
   */
  derivedFrom?: DerivedFrom
}

/** A `DeleteCitation` entry: these PMIDs leave the store. */
export interface DeletedCitation {
  id: string
  version?: number
}

/**
 * The year used for ranking and filters: the issue date, else the first year in a
 * MedlineDate, else the electronic date.
 * @param article - the article
 */
export function articleYear(article: Pick<Article, 'pubDate' | 'electronicDate'>): number | undefined {
  return article.pubDate?.year ?? article.electronicDate?.year
}

/**
 * The abstract as one string, sections joined by blank-line-free spaces with their labels.
 * @param article - the article
 * @param withLabels - prefix each section with its label (`BACKGROUND: …`). Defaults to `false`.
 */
export function abstractText(article: Pick<Article, 'abstract'>, withLabels = false): string {
  return article.abstract
    .map((s) => (withLabels && s.label ? `${s.label}: ${s.text}` : s.text))
    .join(' ')
}

/**
 * The first id of a type from an article's id list (`doi`, `pmc`, `pii`).
 * @param article - the article
 * @param type - the id type, case-insensitive
 */
export function articleId(article: Pick<Article, 'articleIds'>, type: string): string | undefined {
  const wanted = type.toLowerCase()
  return article.articleIds.find((id) => id.type.toLowerCase() === wanted)?.value
}

/**
 * An empty article with every list present, for parsers and tests to fill in.
 * @param id - the PMID or document id
 * @param source - where it comes from. Defaults to `pubmed`.
 */
export function emptyArticle(id: string, source: ArticleSource = 'pubmed'): Article {
  return {
    id,
    version: 1,
    source,
    title: '',
    abstract: [],
    otherAbstracts: [],
    languages: [],
    history: [],
    authors: [],
    authorListComplete: true,
    mesh: [],
    supplementaryConcepts: [],
    chemicals: [],
    keywords: [],
    publicationTypes: [],
    articleIds: [],
    commentsCorrections: [],
  }
}
