import {
  PubmatchError,
  emptyArticle,
  type AbstractSection,
  type Article,
  type ArticleId,
  type Author,
  type AuthorIdentifier,
  type Book,
  type Chemical,
  type CommentCorrection,
  type DataBank,
  type DeletedCitation,
  type Grant,
  type HistoryDate,
  type Journal,
  type Keyword,
  type MeshHeading,
  type OtherAbstract,
  type PublicationType,
  type SupplementaryConcept,
} from '@pubmatch/core'
import {
  attribute,
  childElement,
  childElements,
  childPath,
  childText,
  textContent,
  type XmlElement,
} from '../xml/tree.ts'
import { parsePartialDate } from './dates.ts'

/** Where a record comes from, for messages. */
export interface PubmedRecordContext {
  /** The file. Defaults to `<input>`. */
  file?: string
  /** The record's name when its PMID is unknown, `#<ordinal>`. Defaults to `#1`. */
  record?: string
}

/** What one top-level PubMed element becomes. */
export type PubmedRecord =
  { kind: 'article'; article: Article } | { kind: 'delete'; deleted: DeletedCitation[] }

/** The top-level record elements {@link pubmedRecordFromElement} reads. */
export const PUBMED_RECORD_ELEMENTS: readonly string[] = [
  'PubmedArticle',
  'MedlineCitation',
  'PubmedBookArticle',
  'BookDocument',
  'DeleteCitation',
  'DeleteDocument',
]

const ORCID = /(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dXx])\s*$/

/**
 * Normalises an ORCID to its bare `0000-0000-0000-000X` form, whatever PubMed wrapped it in
 * (`http://orcid.org/…`, `https://orcid.org/…`, no hyphens, a lower-case check digit). Only
 * the form is checked, not the check digit. Returns the trimmed input when it holds no
 * 16-character ORCID.
 * @param value - the Identifier text
 */
export function normaliseOrcid(value: string): string {
  const match = ORCID.exec(value.trim())
  if (match === null) {
    return value.trim()
  }
  return `${match[1]}-${match[2]}-${match[3]}-${match[4]!.toUpperCase()}`
}

const yes = (value: string | undefined): boolean => value === 'Y'

function textOf(element: XmlElement | undefined): string | undefined {
  const text = textContent(element)
  return text === '' ? undefined : text
}

function setIf<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value !== undefined) {
    target[key] = value
  }
}

function abstractSections(abstract: XmlElement | undefined): AbstractSection[] {
  const sections: AbstractSection[] = []
  for (const element of childElements(abstract, 'AbstractText')) {
    const section: AbstractSection = { text: textContent(element) }
    setIf(section, 'label', attribute(element, 'Label')?.trim() || undefined)
    setIf(section, 'nlmCategory', attribute(element, 'NlmCategory')?.trim() || undefined)
    if (section.text !== '' || section.label !== undefined) {
      sections.push(section)
    }
  }
  return sections
}

function readAuthor(element: XmlElement): Author {
  const author: Author = {
    affiliations: [],
    identifiers: [],
    valid: attribute(element, 'ValidYN') !== 'N',
  }
  const collective = textOf(childElement(element, 'CollectiveName'))
  if (collective !== undefined) {
    author.collectiveName = collective
  } else {
    setIf(author, 'lastName', childText(element, 'LastName'))
    setIf(author, 'foreName', childText(element, 'ForeName') ?? childText(element, 'FirstName'))
    setIf(author, 'initials', childText(element, 'Initials'))
    setIf(author, 'suffix', childText(element, 'Suffix'))
  }
  for (const info of childElements(element, 'AffiliationInfo')) {
    const affiliation = textOf(childElement(info, 'Affiliation'))
    if (affiliation !== undefined) {
      author.affiliations.push(affiliation)
    }
  }
  // 2013-era DTDs put one Affiliation directly in the Author.
  for (const direct of childElements(element, 'Affiliation')) {
    const affiliation = textOf(direct)
    if (affiliation !== undefined) {
      author.affiliations.push(affiliation)
    }
  }
  for (const identifier of childElements(element, 'Identifier')) {
    const value = textContent(identifier)
    if (value === '') {
      continue
    }
    const source = attribute(identifier, 'Source')?.trim() ?? ''
    const id: AuthorIdentifier = {
      source,
      value: source.toUpperCase() === 'ORCID' ? normaliseOrcid(value) : value,
    }
    author.identifiers.push(id)
  }
  const equal = attribute(element, 'EqualContrib')
  if (equal === 'Y' || equal === 'N') {
    author.equalContrib = equal === 'Y'
  }
  return author
}

function authorLists(parent: XmlElement | undefined, editors: boolean): XmlElement[] {
  return childElements(parent, 'AuthorList').filter(
    (list) => (attribute(list, 'Type') === 'editors') === editors,
  )
}

function readAuthors(lists: readonly XmlElement[]): { authors: Author[]; complete: boolean } {
  const authors: Author[] = []
  let complete = true
  for (const list of lists) {
    if (attribute(list, 'CompleteYN') === 'N') {
      complete = false
    }
    for (const element of childElements(list, 'Author')) {
      authors.push(readAuthor(element))
    }
  }
  return { authors, complete }
}

function readGrants(list: XmlElement | undefined): Grant[] {
  return childElements(list, 'Grant').flatMap((element) => {
    const grant: Grant = {}
    setIf(grant, 'grantId', childText(element, 'GrantID'))
    setIf(grant, 'acronym', childText(element, 'Acronym'))
    setIf(grant, 'agency', childText(element, 'Agency'))
    setIf(grant, 'country', childText(element, 'Country'))
    return Object.keys(grant).length === 0 ? [] : [grant]
  })
}

function readDataBanks(list: XmlElement | undefined): DataBank[] {
  return childElements(list, 'DataBank').flatMap((element) => {
    const name = childText(element, 'DataBankName')
    if (name === undefined) {
      return []
    }
    const accessionNumbers = childElements(
      childElement(element, 'AccessionNumberList'),
      'AccessionNumber',
    )
      .map((accession) => textContent(accession))
      .filter((accession) => accession !== '')
    return [{ name, accessionNumbers }]
  })
}

/** `Investigator`s and `PersonalNameSubject`s have an author's name elements. */
function readPersons(list: XmlElement | undefined, name: string): Author[] {
  return childElements(list, name).map((element) => readAuthor(element))
}

function readMesh(list: XmlElement | undefined): MeshHeading[] {
  return childElements(list, 'MeshHeading').flatMap((heading) => {
    const descriptor = childElement(heading, 'DescriptorName')
    const descriptorName = textContent(descriptor)
    if (descriptorName === '') {
      return []
    }
    const mesh: MeshHeading = {
      descriptorName,
      majorTopic: yes(attribute(descriptor, 'MajorTopicYN')),
      qualifiers: childElements(heading, 'QualifierName').map((qualifier) => {
        const q = {
          name: textContent(qualifier),
          majorTopic: yes(attribute(qualifier, 'MajorTopicYN')),
        }
        const ui = attribute(qualifier, 'UI')
        return ui === undefined ? q : { ui, ...q }
      }),
    }
    setIf(mesh, 'descriptorUi', attribute(descriptor, 'UI'))
    return [mesh]
  })
}

function readSupplementary(list: XmlElement | undefined): SupplementaryConcept[] {
  return childElements(list, 'SupplMeshName').map((element) => {
    const concept: SupplementaryConcept = { name: textContent(element) }
    setIf(concept, 'ui', attribute(element, 'UI'))
    setIf(concept, 'type', attribute(element, 'Type'))
    return concept
  })
}

function readChemicals(list: XmlElement | undefined): Chemical[] {
  return childElements(list, 'Chemical').flatMap((element) => {
    const substance = childElement(element, 'NameOfSubstance')
    const name = textContent(substance)
    if (name === '') {
      return []
    }
    const chemical: Chemical = { name }
    setIf(chemical, 'registryNumber', childText(element, 'RegistryNumber'))
    setIf(chemical, 'ui', attribute(substance, 'UI'))
    return [chemical]
  })
}

function readKeywords(parent: XmlElement | undefined): Keyword[] {
  return childElements(parent, 'KeywordList').flatMap((list) => {
    const owner = attribute(list, 'Owner')
    return childElements(list, 'Keyword').flatMap((element) => {
      const text = textContent(element)
      if (text === '') {
        return []
      }
      const keyword: Keyword = { text, majorTopic: yes(attribute(element, 'MajorTopicYN')) }
      setIf(keyword, 'owner', owner)
      return [keyword]
    })
  })
}

function readPublicationTypes(elements: readonly XmlElement[]): PublicationType[] {
  return elements.flatMap((element) => {
    const name = textContent(element)
    if (name === '') {
      return []
    }
    const type: PublicationType = { name }
    setIf(type, 'ui', attribute(element, 'UI'))
    return [type]
  })
}

/** Article ids from ArticleIdList(s), valid ELocationIDs and NLM OtherIDs (PMC, NIHMS), without duplicates. */
function readArticleIds(
  lists: readonly (XmlElement | undefined)[],
  elocations: readonly XmlElement[],
  otherIds: readonly XmlElement[],
): ArticleId[] {
  const ids: ArticleId[] = []
  const seen = new Set<string>()
  const add = (type: string, value: string): void => {
    const key = `${type.toLowerCase()}\u0000${value}`
    if (value !== '' && !seen.has(key)) {
      seen.add(key)
      ids.push({ type, value })
    }
  }
  for (const list of lists) {
    for (const element of childElements(list, 'ArticleId')) {
      add(attribute(element, 'IdType') ?? 'pubmed', textContent(element))
    }
  }
  for (const element of elocations) {
    if (attribute(element, 'ValidYN') !== 'N') {
      add(attribute(element, 'EIdType') ?? 'doi', textContent(element))
    }
  }
  for (const element of otherIds) {
    if (attribute(element, 'Source') !== 'NLM') {
      continue
    }
    const text = textContent(element)
    const pmc = /^(PMC\d+)\b/.exec(text)
    const mid = /^(NIHMS\d+)\b/.exec(text)
    if (pmc !== null) {
      add('pmc', pmc[1]!)
    } else if (mid !== null) {
      add('mid', mid[1]!)
    }
  }
  return ids
}

function readCommentsCorrections(citation: XmlElement): CommentCorrection[] {
  const links: CommentCorrection[] = []
  const readLink = (element: XmlElement, refType: string): void => {
    const link: CommentCorrection = { refType }
    setIf(link, 'refSource', textOf(childElement(element, 'RefSource')))
    setIf(link, 'pmid', childText(element, 'PMID'))
    setIf(link, 'note', textOf(childElement(element, 'Note')))
    links.push(link)
  }
  // Current DTDs: CommentsCorrectionsList > CommentsCorrections RefType="…".
  for (const element of childElements(
    childElement(citation, 'CommentsCorrectionsList'),
    'CommentsCorrections',
  )) {
    readLink(element, attribute(element, 'RefType') ?? 'Unknown')
  }
  // 2006-era DTDs: CommentsCorrections > CommentIn | ErratumIn | RetractionOf | … (no RefType).
  for (const container of childElements(citation, 'CommentsCorrections')) {
    const refType = attribute(container, 'RefType')
    if (refType !== undefined) {
      readLink(container, refType)
      continue
    }
    for (const element of childElements(container)) {
      readLink(element, element.name)
    }
  }
  return links
}

function readHistory(history: XmlElement | undefined): HistoryDate[] {
  return childElements(history, 'PubMedPubDate').flatMap((element) => {
    const date = parsePartialDate(element)
    return date === undefined
      ? []
      : [{ status: attribute(element, 'PubStatus') ?? 'unknown', date }]
  })
}

function readPagination(pagination: XmlElement | undefined): string | undefined {
  const medlinePgn = childText(pagination, 'MedlinePgn')
  if (medlinePgn !== undefined) {
    return medlinePgn
  }
  const start = childText(pagination, 'StartPage')
  const end = childText(pagination, 'EndPage')
  return start === undefined ? undefined : end === undefined ? start : `${start}-${end}`
}

function readOtherAbstracts(citation: XmlElement): OtherAbstract[] {
  return childElements(citation, 'OtherAbstract').map((element) => {
    const other: OtherAbstract = { sections: abstractSections(element) }
    setIf(other, 'type', attribute(element, 'Type'))
    setIf(other, 'language', attribute(element, 'Language'))
    return other
  })
}

function readJournal(article: XmlElement, citation: XmlElement): Journal | undefined {
  const journal = childElement(article, 'Journal')
  const info = childElement(citation, 'MedlineJournalInfo')
  if (journal === undefined && info === undefined) {
    return undefined
  }
  const issue = childElement(journal, 'JournalIssue')
  const issn = childElement(journal, 'ISSN')
  const out: Journal = {}
  setIf(out, 'title', childText(journal, 'Title'))
  setIf(out, 'isoAbbreviation', childText(journal, 'ISOAbbreviation'))
  setIf(out, 'medlineTa', childText(info, 'MedlineTA'))
  setIf(out, 'issn', textOf(issn))
  setIf(out, 'issnType', attribute(issn, 'IssnType'))
  setIf(out, 'issnLinking', childText(info, 'ISSNLinking'))
  setIf(out, 'nlmUniqueId', childText(info, 'NlmUniqueID'))
  setIf(out, 'country', childText(info, 'Country'))
  setIf(out, 'volume', childText(issue, 'Volume'))
  setIf(out, 'issue', childText(issue, 'Issue'))
  return out
}

function missingPmid(element: XmlElement, context: PubmedRecordContext): PubmatchError {
  const file = context.file ?? '<input>'
  const record = context.record ?? '#1'
  return new PubmatchError(
    'MISSING_FIELD',
    `${file} record ${record}: <${element.name}> has no PMID`,
    {
      details: { file, record },
    },
  )
}

function readPmid(
  parent: XmlElement,
  owner: XmlElement,
  context: PubmedRecordContext,
): { id: string; version: number } {
  const pmid = childElement(parent, 'PMID')
  const id = textContent(pmid)
  if (id === '') {
    throw missingPmid(owner, context)
  }
  const version = Number.parseInt(attribute(pmid, 'Version') ?? '', 10)
  return { id, version: Number.isFinite(version) && version > 0 ? version : 1 }
}

/**
 * The fields a citation's `Article` and a `BookDocument` hold alike: `VernacularTitle`,
 * `Abstract` (sections and `CopyrightInformation`) and `Language`s.
 * @param out - the article being filled
 * @param parent - the `Article` or `BookDocument` element
 */
function readTextFields(out: Article, parent: XmlElement): void {
  setIf(out, 'vernacularTitle', textOf(childElement(parent, 'VernacularTitle')))
  const abstract = childElement(parent, 'Abstract')
  out.abstract = abstractSections(abstract)
  setIf(out, 'copyright', textOf(childElement(abstract, 'CopyrightInformation')))
  out.languages = childElements(parent, 'Language')
    .map((l) => textContent(l))
    .filter((l) => l !== '')
}

/**
 * Reads a `MedlineCitation` (with the `PubmedData` of its `PubmedArticle`, if any) into an
 * {@link Article}.
 * @param citation - the MedlineCitation element
 * @param pubmedData - the sibling PubmedData element
 * @param owner - the record element, for messages
 * @param context - file and record names for messages
 */
function readCitation(
  citation: XmlElement,
  pubmedData: XmlElement | undefined,
  owner: XmlElement,
  context: PubmedRecordContext,
): Article {
  const { id, version } = readPmid(citation, owner, context)
  const out = emptyArticle(id, 'pubmed')
  out.version = version
  const article = childElement(citation, 'Article')
  if (article !== undefined) {
    out.title = textContent(childElement(article, 'ArticleTitle'))
    readTextFields(out, article)
    setIf(
      out,
      'pubDate',
      parsePartialDate(childPath(article, 'Journal', 'JournalIssue', 'PubDate')),
    )
    const electronic = childElements(article, 'ArticleDate').find(
      (d) => (attribute(d, 'DateType') ?? 'Electronic') === 'Electronic',
    )
    setIf(out, 'electronicDate', parsePartialDate(electronic))
    setIf(out, 'pagination', readPagination(childElement(article, 'Pagination')))
    const { authors, complete } = readAuthors(authorLists(article, false))
    // Before 2014 MEDLINE recorded one affiliation, on the Article, for the first author.
    const oldAffiliation = textOf(childElement(article, 'Affiliation'))
    if (
      oldAffiliation !== undefined &&
      authors[0] !== undefined &&
      !authors[0].affiliations.includes(oldAffiliation)
    ) {
      authors[0].affiliations.unshift(oldAffiliation)
    }
    out.authors = authors
    out.authorListComplete = complete
    out.publicationTypes = readPublicationTypes(
      childElements(childElement(article, 'PublicationTypeList'), 'PublicationType'),
    )
  }
  setIf(out, 'journal', article === undefined ? undefined : readJournal(article, citation))
  out.otherAbstracts = readOtherAbstracts(citation)
  out.history = readHistory(childElement(pubmedData, 'History'))
  setIf(out, 'dateCompleted', parsePartialDate(childElement(citation, 'DateCompleted')))
  setIf(out, 'dateRevised', parsePartialDate(childElement(citation, 'DateRevised')))
  out.mesh = readMesh(childElement(citation, 'MeshHeadingList'))
  out.supplementaryConcepts = readSupplementary(childElement(citation, 'SupplMeshList'))
  out.chemicals = readChemicals(childElement(citation, 'ChemicalList'))
  out.keywords = readKeywords(citation)
  out.articleIds = readArticleIds(
    [childElement(pubmedData, 'ArticleIdList')],
    childElements(article, 'ELocationID'),
    childElements(citation, 'OtherID'),
  )
  setIf(out, 'citationStatus', attribute(citation, 'Status'))
  setIf(out, 'owner', attribute(citation, 'Owner'))
  setIf(out, 'publicationStatus', childText(pubmedData, 'PublicationStatus'))
  out.commentsCorrections = readCommentsCorrections(citation)
  readCitationExtras(out, citation, article)
  return out
}

/**
 * Grants, investigators, data banks (secondary source ids), the conflict of interest
 * statement and personal names as subject: each set only when the record has it.
 */
function readCitationExtras(out: Article, citation: XmlElement, article: XmlElement | undefined): void {
  const grants = readGrants(childElement(article, 'GrantList'))
  if (grants.length > 0) {
    out.grants = grants
  }
  const investigators = readPersons(childElement(citation, 'InvestigatorList'), 'Investigator')
  if (investigators.length > 0) {
    out.investigators = investigators
  }
  const dataBanks = readDataBanks(childElement(article, 'DataBankList'))
  if (dataBanks.length > 0) {
    out.dataBanks = dataBanks
  }
  setIf(out, 'coiStatement', textOf(childElement(citation, 'CoiStatement')))
  const subjects = readPersons(childElement(citation, 'PersonalNameSubjectList'), 'PersonalNameSubject')
  if (subjects.length > 0) {
    out.personalNameSubjects = subjects
  }
}

/**
 * Reads a `BookDocument` (with the `PubmedBookData` of its `PubmedBookArticle`, if any). The
 * title is the document's own `ArticleTitle` (a chapter or section title) or else the book
 * title; editors are the `AuthorList Type="editors"` of the book or the document.
 */
function readBookDocument(
  document: XmlElement,
  bookData: XmlElement | undefined,
  owner: XmlElement,
  context: PubmedRecordContext,
): Article {
  const { id, version } = readPmid(document, owner, context)
  const out = emptyArticle(id, 'pubmed-book')
  out.version = version
  const bookElement = childElement(document, 'Book')
  const bookTitle = textOf(childElement(bookElement, 'BookTitle'))
  out.title = textOf(childElement(document, 'ArticleTitle')) ?? bookTitle ?? ''
  readTextFields(out, document)
  setIf(out, 'pubDate', parsePartialDate(childElement(bookElement, 'PubDate')))
  out.history = readHistory(childElement(bookData, 'History'))
  setIf(out, 'dateRevised', parsePartialDate(childElement(document, 'DateRevised')))
  setIf(out, 'pagination', readPagination(childElement(document, 'Pagination')))
  let authors = readAuthors(authorLists(document, false))
  if (authors.authors.length === 0) {
    authors = readAuthors(authorLists(bookElement, false))
  }
  out.authors = authors.authors
  out.authorListComplete = authors.complete
  out.keywords = readKeywords(document)
  out.publicationTypes = readPublicationTypes([
    ...childElements(document, 'PublicationType'),
    ...childElements(childElement(document, 'PublicationTypeList'), 'PublicationType'),
  ])
  out.articleIds = readArticleIds(
    [childElement(document, 'ArticleIdList'), childElement(bookData, 'ArticleIdList')],
    childElements(bookElement, 'ELocationID'),
    [],
  )
  setIf(out, 'publicationStatus', childText(bookData, 'PublicationStatus'))
  const book: Book = {
    isbn: childElements(bookElement, 'Isbn')
      .map((e) => textContent(e))
      .filter((s) => s !== ''),
    locationLabels: childElements(document, 'LocationLabel')
      .map((e) => textContent(e))
      .filter((s) => s !== ''),
    editors: readAuthors([...authorLists(bookElement, true), ...authorLists(document, true)])
      .authors,
  }
  setIf(book, 'title', bookTitle)
  setIf(book, 'publisher', textOf(childPath(bookElement, 'Publisher', 'PublisherName')))
  setIf(book, 'publisherLocation', textOf(childPath(bookElement, 'Publisher', 'PublisherLocation')))
  setIf(book, 'edition', childText(bookElement, 'Edition'))
  setIf(book, 'collectionTitle', textOf(childElement(bookElement, 'CollectionTitle')))
  out.book = book
  return out
}

function readDeletion(element: XmlElement): DeletedCitation[] {
  return childElements(element, 'PMID').flatMap((pmid) => {
    const id = textContent(pmid)
    if (id === '') {
      return []
    }
    const version = Number.parseInt(attribute(pmid, 'Version') ?? '', 10)
    return [Number.isFinite(version) ? { id, version } : { id }]
  })
}

/**
 * Converts one top-level PubMed element — `PubmedArticle`, `MedlineCitation` (MEDLINE
 * baseline files before 2017), `PubmedBookArticle`, `BookDocument`, `DeleteCitation` or
 * `DeleteDocument` — into an article or a deletion. Every {@link Article} field is filled
 * from the XML: see `src/pubmed/README.md` for the element each field comes from.
 * @param element - the record element
 * @param context - file and record names for messages
 * @throws PubmatchError `MISSING_FIELD` when an article has no PMID, `UNSUPPORTED_FORMAT`
 *   for an element that is not a PubMed record
 */
export function pubmedRecordFromElement(
  element: XmlElement,
  context: PubmedRecordContext = {},
): PubmedRecord {
  switch (element.name) {
    case 'PubmedArticle': {
      const citation = childElement(element, 'MedlineCitation')
      if (citation === undefined) {
        throw missingPmid(element, context)
      }
      return {
        kind: 'article',
        article: readCitation(citation, childElement(element, 'PubmedData'), element, context),
      }
    }
    case 'MedlineCitation':
      return { kind: 'article', article: readCitation(element, undefined, element, context) }
    case 'PubmedBookArticle': {
      const document = childElement(element, 'BookDocument')
      if (document === undefined) {
        throw missingPmid(element, context)
      }
      return {
        kind: 'article',
        article: readBookDocument(
          document,
          childElement(element, 'PubmedBookData'),
          element,
          context,
        ),
      }
    }
    case 'BookDocument':
      return { kind: 'article', article: readBookDocument(element, undefined, element, context) }
    case 'DeleteCitation':
    case 'DeleteDocument':
      return { kind: 'delete', deleted: readDeletion(element) }
    default: {
      const file = context.file ?? '<input>'
      const record = context.record ?? '#1'
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file} record ${record}: <${element.name}> is not a PubMed record (expected ${PUBMED_RECORD_ELEMENTS.join(', ')})`,
        { details: { file, record } },
      )
    }
  }
}
