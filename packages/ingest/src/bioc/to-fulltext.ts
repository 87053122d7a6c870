import { PubmatchError, type FullTextDocument, type Passage } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import type { BiocCollection, BiocDocument, BiocPassage } from './bioc-model.ts'
import { articleFromFullText } from './derive-article.ts'
import { ingestError } from './errors.ts'
import { normaliseSectionType } from './section-types.ts'

/**
 * Normalises a PMC id to `PMC<digits>`: `PMC123`, `pmc123`, ` 123 ` → `PMC123`.
 * @param value - a PMC id with or without the prefix
 * @returns the normalised id, or `undefined` when `value` is not a PMC id
 */
export function normalisePmcid(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^\s*(?:pmc)?(\d+)\s*$/i.exec(value)
  return match === null ? undefined : `PMC${match[1]}`
}

const PMID = /^\s*(\d+)\s*$/
const DOI = /^\s*(10\.\d{4,9}\/\S+)\s*$/

/**
 * Turns the collections of one BioC input into ingest records: a `fulltext` record per
 * usable document and an `error` record (naming the file and the document) per unusable
 * one, in input order.
 *
 * Ids come from the front passage's infons (`article-id_pmc`, `article-id_pmid`,
 * `article-id_doi`), then the document infons, then PubTator's top-level `pmcid`/`pmid`
 * and `doi` infon; the PMC id falls back to the document id when that is `PMC<digits>`, or
 * just digits in a collection whose `source` is `PMC` (the API's older generation). A
 * document without a PMC id is a `MISSING_FIELD` error; one whose shape is wrong is a
 * `MALFORMED_JSON`/`MALFORMED_XML` error (`malformedCode`).
 *
 * The front passage is the one whose `type` is `front` (or `section_type` `TITLE`); in
 * BioC without section types (PubMed, PubTator) it is a first passage of `type` `title`.
 * Its text is the article title. The licence is the document's `license` infon (`CC BY`),
 * else the front passage's. Each `fulltext` record carries the article record derived from
 * the document (`articleFromFullText`), for a corpus that holds no citation of it.
 * @param items - decoded collections and top-level decoding errors
 * @param file - the file name for messages
 * @param malformedCode - the code for documents of the wrong shape
 */
export function biocToRecords(
  items: readonly (BiocCollection | PubmatchError)[],
  file: string | undefined,
  malformedCode: 'MALFORMED_JSON' | 'MALFORMED_XML',
): IngestRecord[] {
  const records: IngestRecord[] = []
  let ordinal = 0
  for (const item of items) {
    if (item instanceof PubmatchError) {
      records.push({ kind: 'error', error: item })
      continue
    }
    for (const document of item.documents) {
      ordinal += 1
      records.push(
        biocDocumentToRecord(document, { source: item.source, file, ordinal, malformedCode }),
      )
    }
  }
  return records
}

/** Where a BioC document was read, for {@link biocDocumentToRecord}. */
export interface BiocDocumentContext {
  /** The collection's `source` (`PMC`, `PubMed`, …). */
  source?: string
  /** The file name for messages. */
  file?: string
  /** 1-based position of the document in its input, to name documents without an id. */
  ordinal: number
  /** The code for documents of the wrong shape. */
  malformedCode: 'MALFORMED_JSON' | 'MALFORMED_XML'
}

/**
 * One BioC document as a `fulltext` record, or an `error` record naming the file and the
 * document (see {@link biocToRecords} for the rules).
 * @param document - the decoded document
 * @param context - collection source, file and position
 */
export function biocDocumentToRecord(
  document: BiocDocument,
  context: BiocDocumentContext,
): IngestRecord {
  const { file, ordinal, malformedCode } = context
  const record = document.id === undefined || document.id === '' ? `#${ordinal}` : document.id
  const label = `document ${record}`
  if (document.problems.length > 0) {
    return {
      kind: 'error',
      error: ingestError(
        malformedCode,
        { file, record, label },
        `malformed BioC document: ${document.problems.join('; ')}`,
      ),
    }
  }
  const frontIndex = findFront(document.passages)
  const front = frontIndex === -1 ? undefined : document.passages[frontIndex]
  const infon = (key: string): string | undefined => front?.infons[key] ?? document.infons[key]

  const pmcid =
    normalisePmcid(infon('article-id_pmc')) ??
    normalisePmcid(document.pubtator?.pmcid) ??
    (document.id !== undefined && /^\s*pmc\d+\s*$/i.test(document.id)
      ? normalisePmcid(document.id)
      : undefined) ??
    (context.source?.trim().toUpperCase() === 'PMC' ? normalisePmcid(document.id) : undefined)
  if (pmcid === undefined) {
    const given = infon('article-id_pmc')
    return {
      kind: 'error',
      error: ingestError(
        'MISSING_FIELD',
        { file, record, label },
        given === undefined
          ? 'BioC document has no PMC id (no article-id_pmc infon, document id is not a PMCID)'
          : 'BioC document has an invalid article-id_pmc infon',
        given,
      ),
    }
  }

  const passages = document.passages.map((passage, index) =>
    toPassage(passage, index === frontIndex),
  )
  const fullText: FullTextDocument = { pmcid, sourceId: document.id ?? pmcid, passages }
  const pmid = firstMatch(PMID, infon('article-id_pmid'), document.pubtator?.pmid)
  if (pmid !== undefined) {
    fullText.pmid = pmid
  }
  const doi = firstMatch(DOI, infon('article-id_doi'), document.infons.doi)
  if (doi !== undefined) {
    fullText.doi = doi
  }
  const license = nonEmpty(document.infons.license) ?? nonEmpty(front?.infons.license)
  if (license !== undefined) {
    fullText.license = license
  }
  const title = nonEmpty(front?.text)
  if (title !== undefined) {
    fullText.title = title
  }
  return { kind: 'fulltext', document: fullText, article: articleFromFullText(fullText) }
}

function findFront(passages: readonly BiocPassage[]): number {
  const index = passages.findIndex(
    (passage) =>
      normaliseSectionType(passage.infons.section_type, passage.infons.type).role === 'front',
  )
  if (index !== -1) {
    return index
  }
  const first = passages[0]
  return first !== undefined &&
    first.infons.section_type === undefined &&
    first.infons.type?.trim().toLowerCase() === 'title'
    ? 0
    : -1
}

function toPassage(passage: BiocPassage, isFront: boolean): Passage {
  const { section_type: rawSectionType, type: passageType, ...infons } = passage.infons
  const normalised = isFront
    ? { sectionType: null, role: 'front' as const }
    : normaliseSectionType(rawSectionType, passageType)
  const result: Passage = {
    offset: passage.offset,
    text: passage.text,
    sectionType: normalised.sectionType,
    role: normalised.role,
    infons,
  }
  if (rawSectionType !== undefined) {
    result.rawSectionType = rawSectionType
  }
  if (passageType !== undefined) {
    result.passageType = passageType
  }
  return result
}

function firstMatch(pattern: RegExp, ...values: (string | undefined)[]): string | undefined {
  for (const value of values) {
    const match = value === undefined ? null : pattern.exec(value)
    if (match?.[1] !== undefined) {
      return match[1]
    }
  }
  return undefined
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === '' ? undefined : trimmed
}
