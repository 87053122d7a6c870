/**
 * SYNERGY (v1 release, `asreview/synergy-dataset`): a review folder holds `labels.csv`
 * (`openalex_id, doi, pmid, label_included`) and `works_*.zip`, zip archives of JSON arrays of
 * OpenAlex work records. The abstract is an inverted index (`word → positions`) and is rebuilt in
 * position order; the title's inline markup (`<scp>…</scp>`, `<i>…</i>`) is dropped as PubMed XML
 * reading flattens it. A work maps to an article with its PMID (else its OpenAlex id) as id, its
 * DOI and OpenAlex id in `articleIds`, year, journal (host venue) and ISSN, authors, MeSH headings
 * with qualifiers and its OpenAlex type as publication type. Referenced works are not kept (the
 * article model has no field for them).
 */
import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { unzipSync } from 'fflate'
import { emptyArticle, PubmatchError, type Article, type Author, type MeshHeading } from '@pubmatch/core'
import type { ScreeningDataset, ScreeningRecord } from '../records.ts'
import { parseLabel } from './cohen.ts'
import { csvRecords } from './csv.ts'

/** The part of an OpenAlex work record the reader uses (every field optional, as in the data). */
interface OpenAlexWork {
  id?: unknown
  title?: unknown
  display_name?: unknown
  publication_year?: unknown
  ids?: { pmid?: unknown; doi?: unknown } | null
  doi?: unknown
  type?: unknown
  host_venue?: { display_name?: unknown; issn_l?: unknown } | null
  authorships?: Array<{ author?: { display_name?: unknown } | null } | null> | null
  mesh?: Array<{ descriptor_ui?: unknown; descriptor_name?: unknown; qualifier_ui?: unknown; qualifier_name?: unknown; is_major_topic?: unknown } | null> | null
  abstract_inverted_index?: Record<string, unknown> | null
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined)

/** The OpenAlex key of an id or URL: `https://openalex.org/W123` → `W123`. */
function openAlexKey(value: string): string {
  return value.replace(/^https?:\/\/openalex\.org\//i, '').trim()
}

/**
 * Rebuilds an abstract from OpenAlex's inverted index (`{ word: [positions] }`): the words in
 * position order, joined by spaces.
 * @param index - the inverted index
 * @throws PubmatchError `MALFORMED_JSON` when a value is not an array of non-negative integers
 */
export function invertedIndexText(index: Readonly<Record<string, unknown>>): string {
  const words: string[] = []
  for (const [word, positions] of Object.entries(index)) {
    if (!Array.isArray(positions) || positions.some((p) => !Number.isInteger(p) || (p as number) < 0)) {
      throw new PubmatchError('MALFORMED_JSON', `abstract_inverted_index: the positions of "${word.slice(0, 40)}" are not non-negative integers`)
    }
    for (const position of positions as number[]) {
      words[position] = word
    }
  }
  return words.filter((word) => word !== undefined).join(' ')
}

function meshHeadings(entries: NonNullable<OpenAlexWork['mesh']>): MeshHeading[] {
  const byDescriptor = new Map<string, MeshHeading>()
  for (const entry of entries) {
    const name = text(entry?.descriptor_name)
    if (entry === null || entry === undefined || name === undefined) {
      continue
    }
    let heading = byDescriptor.get(name)
    if (heading === undefined) {
      const ui = text(entry.descriptor_ui)
      heading = { ...(ui ? { descriptorUi: ui } : {}), descriptorName: name, majorTopic: false, qualifiers: [] }
      byDescriptor.set(name, heading)
    }
    const qualifier = text(entry.qualifier_name)
    const major = entry.is_major_topic === true
    if (qualifier === undefined) {
      heading.majorTopic ||= major
    } else {
      const ui = text(entry.qualifier_ui)
      heading.qualifiers.push({ ...(ui ? { ui } : {}), name: qualifier, majorTopic: major })
    }
  }
  return [...byDescriptor.values()]
}

function authorOf(name: string): Author {
  const parts = name.split(/\s+/)
  const lastName = parts.pop()!
  return { lastName, ...(parts.length > 0 ? { foreName: parts.join(' ') } : {}), affiliations: [], identifiers: [], valid: true }
}

/**
 * One OpenAlex work as an article.
 * @param work - the parsed work record
 * @throws PubmatchError `MISSING_FIELD` when it has no id, `MALFORMED_JSON` for a bad inverted index
 */
export function openAlexWorkToArticle(work: OpenAlexWork): Article {
  const id = text(work.id)
  if (id === undefined) {
    throw new PubmatchError('MISSING_FIELD', 'an OpenAlex work without an id')
  }
  const key = openAlexKey(id)
  const pmid = text(work.ids?.pmid)?.replace(/^https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\//i, '').replace(/\/$/, '')
  const article = emptyArticle(pmid !== undefined && /^\d+$/.test(pmid) ? pmid : key)
  article.title = (text(work.title) ?? text(work.display_name) ?? '').replace(/<[^>]*>/g, '')
  if (work.abstract_inverted_index !== null && work.abstract_inverted_index !== undefined) {
    try {
      const abstract = invertedIndexText(work.abstract_inverted_index)
      if (abstract !== '') {
        article.abstract = [{ text: abstract }]
      }
    } catch (cause) {
      throw new PubmatchError('MALFORMED_JSON', `work ${key}: ${(cause as Error).message}`, { cause, details: { record: key } })
    }
  }
  if (typeof work.publication_year === 'number' && Number.isInteger(work.publication_year)) {
    article.pubDate = { year: work.publication_year }
  }
  const journal = text(work.host_venue?.display_name)
  const issn = text(work.host_venue?.issn_l)
  if (journal !== undefined || issn !== undefined) {
    article.journal = { ...(journal ? { title: journal } : {}), ...(issn ? { issn } : {}) }
  }
  article.authors = (work.authorships ?? []).flatMap((a) => {
    const name = text(a?.author?.display_name)
    return name === undefined ? [] : [authorOf(name)]
  })
  article.mesh = meshHeadings(work.mesh ?? [])
  const type = text(work.type)
  if (type !== undefined) {
    article.publicationTypes = [{ name: type }]
  }
  const doi = text(work.ids?.doi) ?? text(work.doi)
  article.articleIds = [{ type: 'openalex', value: key }, ...(doi ? [{ type: 'doi', value: doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') }] : [])]
  return article
}

/**
 * The works of a review's zip archives, keyed by OpenAlex key. A work that cannot be read is a
 * typed error, and reading carries on.
 * @param archives - the zip files' bytes with their names
 */
function worksOf(archives: ReadonlyArray<{ name: string; bytes: Uint8Array }>, errors: PubmatchError[]): Map<string, Article> {
  const works = new Map<string, Article>()
  for (const archive of archives) {
    let entries: Record<string, Uint8Array>
    try {
      entries = unzipSync(archive.bytes)
    } catch (cause) {
      errors.push(new PubmatchError('UNSUPPORTED_FORMAT', `${archive.name}: not a readable zip archive: ${(cause as Error).message}`, { cause, details: { file: archive.name } }))
      continue
    }
    for (const [entry, bytes] of Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!entry.endsWith('.json')) {
        continue
      }
      const file = `${archive.name}:${entry}`
      let parsed: unknown
      try {
        parsed = JSON.parse(new TextDecoder().decode(bytes))
      } catch (cause) {
        errors.push(new PubmatchError('MALFORMED_JSON', `${file}: ${(cause as Error).message}`, { cause, details: { file } }))
        continue
      }
      if (!Array.isArray(parsed)) {
        errors.push(new PubmatchError('MALFORMED_JSON', `${file}: expected a JSON array of works`, { details: { file } }))
        continue
      }
      for (const [i, work] of parsed.entries()) {
        try {
          if (typeof work !== 'object' || work === null) {
            throw new PubmatchError('MALFORMED_JSON', `work #${i} is not an object`)
          }
          const article = openAlexWorkToArticle(work as OpenAlexWork)
          works.set(article.articleIds[0]!.value, article)
        } catch (cause) {
          const error = cause instanceof PubmatchError ? cause : new PubmatchError('MALFORMED_JSON', String(cause))
          errors.push(new PubmatchError(error.code, `${file}: ${error.message}`, { cause, details: { ...error.details, file, record: error.details.record ?? `#${i}` } }))
        }
      }
    }
  }
  return works
}

/**
 * Parses a SYNERGY review from its labels file's text and its works archives. Records follow
 * `labels.csv`; a label row whose work is missing from the archives, or whose label is not 0/1,
 * is a typed error and skipped.
 * @param name - the review's name
 * @param labels - `labels.csv`'s text
 * @param archives - `works_*.zip` files' bytes with their names
 */
export function parseSynergyReview(name: string, labels: string, archives: ReadonlyArray<{ name: string; bytes: Uint8Array }>): ScreeningDataset {
  const errors: PubmatchError[] = []
  const works = worksOf(archives, errors)
  const { header, rows } = csvRecords(labels, `${name}/labels.csv`, ['openalex_id', 'label_included'])
  const idAt = header.indexOf('openalex_id')
  const labelAt = header.indexOf('label_included')
  const records: ScreeningRecord[] = []
  for (const row of rows) {
    if (row.fields.length === 1 && row.fields[0] === '') {
      continue
    }
    const key = openAlexKey(row.fields[idAt] ?? '')
    const details = { file: `${name}/labels.csv`, record: key || `#line${row.line}`, position: row.line }
    const label = parseLabel(row.fields[labelAt])
    if (key === '' || label === undefined) {
      errors.push(new PubmatchError('MISSING_FIELD', `${name}/labels.csv: line ${row.line}: needs an openalex_id and a label_included of 0 or 1`, { details }))
      continue
    }
    const article = works.get(key)
    if (article === undefined) {
      errors.push(new PubmatchError('NOT_FOUND', `${name}: the work ${key} of labels.csv line ${row.line} is in no works archive`, { details }))
      continue
    }
    records.push({ key, article, label })
  }
  return { name, source: 'synergy', records, errors }
}

/**
 * Reads a SYNERGY review folder (`labels.csv` and every `works_*.zip`); the review is named after
 * the folder.
 * @param dir - the review's folder
 */
export async function readSynergyReview(dir: string): Promise<ScreeningDataset> {
  const io = (cause: unknown): never => {
    throw new PubmatchError('IO', `cannot read the SYNERGY review ${dir}: ${(cause as Error).message}`, { cause, details: { file: dir } })
  }
  const files = await readdir(dir).catch(io)
  const zips = files.filter((file) => /^works_.*\.zip$/.test(file)).sort()
  if (zips.length === 0) {
    throw new PubmatchError('NOT_FOUND', `${dir}: no works_*.zip archive`, { details: { file: dir } })
  }
  const labels = await readFile(join(dir, 'labels.csv'), 'utf8').catch(io)
  const archives = await Promise.all(zips.map(async (file) => ({ name: file, bytes: new Uint8Array(await readFile(join(dir, file)).catch(io)) })))
  return parseSynergyReview(basename(dir), labels, archives)
}
