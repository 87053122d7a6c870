/**
 * What an index needs from its corpus at search time: the forward store of document token
 * streams (for the 179 features), rebuilt when the index has moved on, and the MeSH vocabulary
 * (for `[mh]` mapping and explosion).
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { json, parseJson, PubmatchError, type Article, type JsonShape, type MeshDescriptor } from '@pubmatch/core'
import { readJsonFile, writeFileAtomic } from '@pubmatch/core/node'
import { tokenStreamTexts } from '@pubmatch/analysis/internal'
import { citationRecordOf, type CitationMatcher, type CitationRecord, type SearchMeshLookup } from '@pubmatch/bm25f'
import { encodeCitationTable, openCitationTable, openCitationTableInSteps } from '@pubmatch/bm25f/internal'
import { createMeshVocabulary, MANIFEST_FILE, openCorpus } from '@pubmatch/ingest'
import type { IndexReader } from '@pubmatch/index'
import { loadForwardIndex, type ForwardDocument, type ForwardIndex } from '@pubmatch/ltr'
import { createForwardIndexBuilder } from '@pubmatch/ltr/internal'
import type { IndexSettings } from './settings.ts'

/** The forward store's files in an index directory. */
export const FORWARD_FILE = 'forward.pmf'
export const FORWARD_META_FILE = 'forward.json'

interface ForwardMeta {
  readonly generation: number
  readonly docCount: number
  readonly analyzer: string
  /** The corpus's last segment when the store was built: an update reads only the segments after it. */
  readonly corpusSegment?: string
}

const FORWARD_META: JsonShape<ForwardMeta> = json.object({
  generation: json.count,
  docCount: json.count,
  analyzer: json.string,
  corpusSegment: json.optional(json.string),
})

/**
 * The forward store (token streams of title, abstract and MeSH) of an index: loaded when it was
 * built for this index generation, document count and analyzer; otherwise brought up to date from
 * the index's corpus and saved beside the index (`forward.pmf` + `forward.json`, both crash-safe).
 * A store that records the corpus segment it reflects is extended: only the articles written or
 * deleted in later segments are analysed, the rest keep their token streams; when the result does
 * not hold exactly the index's documents, or there is no such store, it is rebuilt from the whole
 * corpus.
 * @param indexDir - the index directory
 * @param reader - the open index
 * @param settings - its settings (for the corpus path)
 * @param onProgress - progress of a rebuild (documents done of total)
 * @throws PubmatchError `NOT_FOUND` when a rebuild is needed and the corpus is gone, `INDEX_CORRUPTED`
 *   when `forward.json` is not JSON or not of its shape
 */
export async function openForwardStore(
  indexDir: string,
  reader: IndexReader,
  settings: IndexSettings,
  onProgress?: (done: number, total: number) => void,
): Promise<ForwardIndex> {
  const file = join(indexDir, FORWARD_FILE)
  const metaFile = join(indexDir, FORWARD_META_FILE)
  const textAnalyzer = reader.analyzer(reader.hasField('title') ? 'title' : reader.schema.fields[0]!.name)
  const analyzer = textAnalyzer.name
  let previous: ForwardMeta | undefined
  if (existsSync(file) && existsSync(metaFile)) {
    previous = await readJsonFile(metaFile, FORWARD_META, { code: 'INDEX_CORRUPTED' })
    if (previous.generation === reader.generation && previous.docCount === reader.docCount && previous.analyzer === analyzer) {
      return loadForwardIndex(file)
    }
  }
  if (!existsSync(settings.corpus)) {
    throw new PubmatchError(
      'NOT_FOUND',
      `the index's corpus ${settings.corpus} is gone; the forward store (document text for the features) is built from it`,
    )
  }
  const store = await openCorpus(settings.corpus, { readOnly: true })
  const corpusSegment = store.lastSegment()
  const save = async (forward: ForwardIndex): Promise<ForwardIndex> => {
    await forward.save(file)
    const meta: ForwardMeta = { generation: reader.generation, docCount: reader.docCount, analyzer, ...(corpusSegment === undefined ? {} : { corpusSegment }) }
    await writeFileAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`)
    return forward
  }
  if (previous?.analyzer === analyzer && previous.corpusSegment !== undefined) {
    const base = await loadForwardIndex(file).catch(() => undefined)
    if (base !== undefined) {
      // the latest state of every article written or deleted since (null: deleted)
      const latest = new Map<string, Article | null>()
      for await (const change of store.changes(previous.corpusSegment)) {
        latest.set(change.kind === 'article' ? change.article.id : change.id, change.kind === 'article' ? change.article : null)
      }
      const builder = createForwardIndexBuilder({ analyzer: textAnalyzer, base, drop: new Set(latest.keys()) })
      let added = 0
      for (const article of latest.values()) {
        if (article !== null && reader.docNumber(article.id) !== undefined) {
          builder.add(forwardDocument(article))
          onProgress?.(++added, latest.size)
        }
      }
      const extended = builder.finish()
      if (extended.docCount === reader.docCount) {
        return save(extended)
      }
    }
  }
  const builder = createForwardIndexBuilder({ analyzer: textAnalyzer })
  let done = 0
  onProgress?.(0, reader.docCount)
  for await (const article of store.articles()) {
    if (reader.docNumber(article.id) === undefined) {
      continue
    }
    builder.add(forwardDocument(article))
    done += 1
    if (done % 1000 === 0) {
      onProgress?.(done, reader.docCount)
    }
  }
  onProgress?.(done, reader.docCount)
  return save(builder.finish())
}

function forwardDocument(article: Article): ForwardDocument {
  // the same texts as the Solr collection's forward field (`@pubmatch/solr`)
  return { id: article.id, ...tokenStreamTexts(article) }
}

/** The MeSH descriptors of an index's corpus, kept beside the index (see {@link corpusMeshLookup}). */
export const MESH_CACHE_FILE = 'mesh.json'

interface MeshCache {
  /** SHA-256 of the corpus manifest's segment list when the descriptors were read. */
  readonly corpusSegments: string
  readonly descriptors: MeshDescriptor[]
}

const MESH_DESCRIPTOR: JsonShape<MeshDescriptor> = json.object({
  ui: json.string,
  name: json.string,
  treeNumbers: json.array(json.string),
  entryTerms: json.array(json.string),
  allowableQualifiers: json.array(json.string),
  scopeNote: json.optional(json.string),
})

const MESH_CACHE: JsonShape<MeshCache> = json.object({ corpusSegments: json.string, descriptors: json.array(MESH_DESCRIPTOR) })

/** What the MeSH cache needs of the corpus manifest: its segment list, whatever its entries hold. */
const CORPUS_SEGMENTS = json.object({ segments: json.array(json.unknown) })

/**
 * A MeSH lookup from the MeSH records of an index's corpus, or `undefined` when the corpus is
 * gone or holds none (then `[mh]` maps by name only, without explosion, and the search warns).
 * Reading them means replaying the whole corpus store, so the descriptors (possibly none) are
 * kept in `mesh.json` in the index directory, keyed by the corpus manifest's segment list: an
 * engine opens (a server starts or reloads) without reading the corpus until the corpus changes.
 * An index directory that cannot be written only loses the cache.
 * @param settings - the index settings (for the corpus path)
 * @param indexDir - the index directory (where the cache is kept); none: no cache
 */
export async function corpusMeshLookup(settings: IndexSettings, indexDir?: string): Promise<SearchMeshLookup | undefined> {
  const descriptors = await corpusMeshDescriptors(settings, indexDir)
  if (descriptors === undefined || descriptors.length === 0) {
    return undefined
  }
  const vocabulary = createMeshVocabulary(descriptors)
  return {
    descriptorsForTerm: (term) => vocabulary.lookupTerm(term),
    explode: (ui) => vocabulary.explode(ui),
    descriptorName: (ui) => vocabulary.descriptor(ui)?.name,
  }
}

/** SHA-256 of the corpus manifest's segment list (what the caches beside an index are keyed by), or `undefined` when unreadable. */
async function corpusSegmentsKey(manifestFile: string): Promise<string | undefined> {
  try {
    const manifest = parseJson(await readFile(manifestFile, 'utf8'), CORPUS_SEGMENTS, { file: manifestFile, code: 'CORPUS_CORRUPTED' })
    return createHash('sha256').update(JSON.stringify(manifest.segments)).digest('hex')
  } catch {
    // an unreadable manifest: openCorpus says what is wrong with it
    return undefined
  }
}

async function corpusMeshDescriptors(settings: IndexSettings, indexDir: string | undefined): Promise<MeshDescriptor[] | undefined> {
  const manifestFile = join(settings.corpus, MANIFEST_FILE)
  if (!existsSync(manifestFile)) {
    return undefined
  }
  const key = await corpusSegmentsKey(manifestFile)
  const cacheFile = indexDir === undefined ? undefined : join(indexDir, MESH_CACHE_FILE)
  if (cacheFile !== undefined && key !== undefined && existsSync(cacheFile)) {
    try {
      const cached = await readJsonFile(cacheFile, MESH_CACHE, { code: 'INDEX_CORRUPTED' })
      if (cached.corpusSegments === key) {
        return cached.descriptors
      }
    } catch {
      // a damaged cache (unreadable, not JSON, not of its shape) is rebuilt
    }
  }
  const store = await openCorpus(settings.corpus, { readOnly: true })
  const descriptors: MeshDescriptor[] = []
  for await (const entry of store.mesh()) {
    if (entry.type === 'descriptor') {
      descriptors.push(entry.record)
    }
  }
  if (cacheFile !== undefined && key !== undefined) {
    const cache: MeshCache = { corpusSegments: key, descriptors }
    await writeFileAtomic(cacheFile, JSON.stringify(cache)).catch(() => undefined)
  }
  return descriptors
}

/**
 * The citation records an index kept beside it before the compact table (`citations.json`): read
 * once, when there is no table yet, to write the table, then removed.
 */
export const CITATIONS_CACHE_FILE = 'citations.json'

/** Lets the event loop run what is waiting (a server's requests) before the work goes on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The citation sensor's table of an index's documents, beside the index (see {@link corpusCitationMatcher}). */
export const CITATION_TABLE_FILE = 'citations.pmct'

interface CitationsCache {
  /** SHA-256 of the corpus manifest's segment list when the records were read. */
  readonly corpusSegments: string
  readonly records: CitationRecord[]
}

const CITATION_RECORD: JsonShape<CitationRecord> = json.object({
  id: json.string,
  title: json.string,
  journal: json.optional(
    json.object({
      title: json.optional(json.string),
      isoAbbreviation: json.optional(json.string),
      medlineTa: json.optional(json.string),
    }),
  ),
  year: json.optional(json.integer),
  volume: json.optional(json.string),
  issue: json.optional(json.string),
  pagination: json.optional(json.string),
  firstAuthor: json.optional(
    json.object({ lastName: json.string, initials: json.optional(json.string) }),
  ),
})

const CITATIONS_CACHE: JsonShape<CitationsCache> = json.object({
  corpusSegments: json.string,
  records: json.array(CITATION_RECORD),
})

/**
 * The citation sensor's matcher over the index's documents: the citation record (journal names,
 * year, volume, issue, pagination, first author, title) of each article of the corpus that the
 * index holds, or `undefined` when the corpus is gone. The records are kept in a compact binary
 * table, `citations.pmct` in the index directory (bm25f's `encodeCitationTable`: each string once,
 * the parts as columns, the matcher's lookups as sorted arrays), tagged with the corpus manifest's
 * segment list and the index generation and size; opening it makes typed-array views over the
 * file, so an engine opens without building an object per record. When the table is missing or
 * of another corpus state or generation, it is rebuilt: from an older pubmatch's
 * `citations.json` when that still describes the corpus (then removed), else by replaying the
 * corpus store, and written crash-safely; an index directory that cannot be written only loses
 * the table (it is rebuilt at every open).
 * @param settings - the index settings (for the corpus path)
 * @param reader - the open index (whose documents the matcher may return)
 * @param indexDir - the index directory (where the table is kept); none: no table
 */
export async function corpusCitationMatcher(
  settings: IndexSettings,
  reader: IndexReader,
  indexDir?: string,
): Promise<CitationMatcher | undefined> {
  const manifestFile = join(settings.corpus, MANIFEST_FILE)
  if (!existsSync(manifestFile)) {
    return undefined
  }
  const key = await corpusSegmentsKey(manifestFile)
  const tag =
    key === undefined
      ? undefined
      : `corpus ${key}, generation ${reader.generation}, ${reader.docCount} documents`
  const tableFile = indexDir === undefined ? undefined : join(indexDir, CITATION_TABLE_FILE)
  if (tableFile !== undefined && tag !== undefined && existsSync(tableFile)) {
    try {
      // checked in steps that let a serving thread answer in between
      const table = await openCitationTableInSteps(await readFile(tableFile), nextTurn)
      if (table.tag === tag) {
        return table
      }
    } catch {
      // a damaged table (unreadable, not a table of this version) is rebuilt
    }
  }
  const cacheFile = indexDir === undefined ? undefined : join(indexDir, CITATIONS_CACHE_FILE)
  let records: CitationRecord[] | undefined
  if (cacheFile !== undefined && key !== undefined && existsSync(cacheFile)) {
    try {
      const cached = await readJsonFile(cacheFile, CITATIONS_CACHE, { code: 'INDEX_CORRUPTED' })
      if (cached.corpusSegments === key) {
        records = cached.records
      }
    } catch {
      // a damaged cache (unreadable, not JSON, not of its shape): the corpus is read instead
    }
  }
  if (records === undefined) {
    const store = await openCorpus(settings.corpus, { readOnly: true })
    records = []
    for await (const article of store.articles()) {
      records.push(citationRecordOf(article))
    }
  }
  const bytes = encodeCitationTable(
    records.filter((record) => reader.docNumber(record.id) !== undefined),
    tag === undefined ? {} : { tag },
  )
  if (tableFile !== undefined && tag !== undefined) {
    try {
      await writeFileAtomic(tableFile, bytes)
      // the table replaces the records of an older pubmatch
      if (cacheFile !== undefined) {
        await rm(cacheFile, { force: true })
      }
    } catch {
      // an index directory that cannot be written: the table is rebuilt at the next open
    }
  }
  return openCitationTable(bytes)
}
