import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { PubmatchError } from '@pubmatch/core'
import { formatEntrezDate, parseEntrezDate } from '../entrez/date-split.ts'

/** One real citation cut out of a PubMed/MEDLINE XML file. */
export interface StoredCitation {
  /** Its PMID. */
  readonly pmid: string
  /** The record as a `<PubmedArticle>` element (a bare `<MedlineCitation>` is wrapped in one). */
  readonly xml: string
  /**
   * Its publication date as `YYYY/MM/DD`, from the journal issue's `<PubDate>`: a missing
   * day or month is taken as the first (`2015 Oct-Dec` → `2015/10/01`).
   */
  readonly pubDate: string
  /** The file it came from. */
  readonly file: string
}

/** Real citations by PMID, to serve EFetch from. */
export interface CitationStore {
  /** Every PMID, in file order. */
  readonly pmids: readonly string[]
  /** The citation with this PMID. */
  get(pmid: string): StoredCitation | undefined
  /** Citations whose `pubDate` falls in `[from, to]` (inclusive `YYYY/MM/DD` bounds), in file order. */
  inDateRange(from: string, to: string): StoredCitation[]
  /**
   * An EFetch answer for the PMIDs: a `<PubmedArticleSet>` holding the known ones in the
   * order asked (unknown PMIDs are left out, as EFetch does).
   */
  articleSet(pmids: readonly string[]): string
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  spring: 3,
  summer: 6,
  fall: 9,
  autumn: 9,
  winter: 12,
}

/**
 * The publication date of a citation as `YYYY/MM/DD` (see {@link StoredCitation.pubDate}).
 * @param record - the `<PubmedArticle>` or `<MedlineCitation>` XML
 * @returns the date, or `undefined` when the record has no readable `<PubDate>`
 */
export function citationPubDate(record: string): string | undefined {
  const pubDate = /<PubDate>([\s\S]*?)<\/PubDate>/.exec(record)?.[1]
  if (pubDate === undefined) {
    return undefined
  }
  const medline = /<MedlineDate>([^<]*)<\/MedlineDate>/.exec(pubDate)?.[1]
  const year = /<Year>(\d{4})<\/Year>/.exec(pubDate)?.[1] ?? /(\d{4})/.exec(medline ?? '')?.[1]
  if (year === undefined) {
    return undefined
  }
  const monthText = (
    /<Month>([^<]*)<\/Month>/.exec(pubDate)?.[1] ??
    /\d{4}\s+([A-Za-z]+)/.exec(medline ?? '')?.[1] ??
    ''
  ).trim()
  const month = /^\d+$/.test(monthText)
    ? Number(monthText)
    : (MONTHS[monthText.slice(0, 3).toLowerCase()] ?? MONTHS[monthText.toLowerCase()] ?? 1)
  const dayText = /<Day>(\d{1,2})<\/Day>/.exec(pubDate)?.[1]
  const day = dayText === undefined ? 1 : Number(dayText)
  try {
    return formatEntrezDate(parseEntrezDate(`${year}/${month}/${day}`))
  } catch {
    return `${year}/01/01`
  }
}

/**
 * Cuts the citations out of PubMed XML text: `<PubmedArticle>` elements as they are,
 * `<MedlineCitation>` elements of a `MedlineCitationSet` wrapped in `<PubmedArticle>`.
 * @param xml - a `PubmedArticleSet` or `MedlineCitationSet` document
 * @param file - its name, for messages and {@link StoredCitation.file}
 */
export function cutCitations(xml: string, file: string): StoredCitation[] {
  const hasArticles = xml.includes('<PubmedArticle>')
  const open = hasArticles ? '<PubmedArticle>' : '<MedlineCitation '
  const close = hasArticles ? '</PubmedArticle>' : '</MedlineCitation>'
  const citations: StoredCitation[] = []
  let from = xml.indexOf(open)
  while (from !== -1) {
    const end = xml.indexOf(close, from)
    if (end === -1) {
      throw new PubmatchError(
        'TRUNCATED_INPUT',
        `testing: ${file} ends inside a citation`,
        { details: { file } },
      )
    }
    const record = xml.slice(from, end + close.length)
    const pmid = /<PMID[^>]*>(\d+)<\/PMID>/.exec(record)?.[1]
    const pubDate = citationPubDate(record)
    if (pmid !== undefined && pubDate !== undefined) {
      citations.push({
        pmid,
        xml: hasArticles ? record : `<PubmedArticle>\n${record}\n</PubmedArticle>`,
        pubDate,
        file,
      })
    }
    from = xml.indexOf(open, end)
  }
  return citations
}

/**
 * Loads real citations from PubMed XML files (`.xml` or `.xml.gz`) into a store. A PMID seen
 * twice keeps its first record.
 * @param files - paths of `PubmedArticleSet` or `MedlineCitationSet` files
 */
export async function loadCitationStore(files: readonly string[]): Promise<CitationStore> {
  const byPmid = new Map<string, StoredCitation>()
  for (const file of files) {
    const raw = await readFile(file)
    const xml = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')
    for (const citation of cutCitations(xml, file)) {
      if (!byPmid.has(citation.pmid)) {
        byPmid.set(citation.pmid, citation)
      }
    }
  }
  return createCitationStore([...byPmid.values()])
}

/**
 * A store over citations already in memory.
 * @param citations - the citations (PMIDs should be unique; later duplicates are ignored)
 */
export function createCitationStore(citations: readonly StoredCitation[]): CitationStore {
  const byPmid = new Map<string, StoredCitation>()
  for (const c of citations) {
    if (!byPmid.has(c.pmid)) {
      byPmid.set(c.pmid, c)
    }
  }
  const all = [...byPmid.values()]
  return {
    pmids: all.map((c) => c.pmid),
    get: (pmid) => byPmid.get(pmid),
    inDateRange: (from, to) => all.filter((c) => c.pubDate >= from && c.pubDate <= to),
    articleSet(pmids) {
      const records = pmids.flatMap((pmid) => byPmid.get(pmid)?.xml ?? [])
      return [
        '<?xml version="1.0" ?>',
        '<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">',
        '<PubmedArticleSet>',
        ...records,
        '</PubmedArticleSet>',
        '',
      ].join('\n')
    },
  }
}
