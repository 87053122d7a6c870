import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { createInterface } from 'node:readline'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import {
  checkJson,
  json,
  parseJson,
  PubmatchError,
  articleId,
  isPubmatchError,
  type Article,
  type JsonShape,
  type JsonShapeType,
  type ErrorDetails,
  type FullTextDocument,
  type PubmatchErrorCode,
} from '@pubmatch/core'
import type { IngestRecord, MeshEntry } from '../records.ts'
import { temporaryPathFor } from '@pubmatch/core/internal'
import { writeFileAtomic } from '@pubmatch/core/node'
import { normalisePmcid } from '../bioc/to-fulltext.ts'

/** The manifest's file name inside a corpus directory. */
export const MANIFEST_FILE = 'CORPUS.json'
const FORMAT = 'pubmatch-corpus'
const FORMAT_VERSION = 1
const LOCK_FILE = '.lock'

/** A source that was ingested completely. */
export interface SourceEntry {
  /** Identifies the source: an absolute path, or `entrez:…` for a batch of an Entrez query. */
  key: string
  /** Changes when the source's content changes (size + mtime + head hash for files). */
  fingerprint: string
  /** The segment it wrote, or `null` when nothing changed. */
  segment: string | null
  completedAt: string
  counts: SourceCounts
}

/** A segment file in the manifest. */
export interface SegmentEntry {
  /** File name under `segments/`, e.g. `000001.jsonl.gz`. */
  file: string
  /** SHA-256 of the file's bytes, checked whenever it is read. */
  sha256: string
  bytes: number
  /** Lines (operations) in the segment. */
  operations: number
}

/** What one source did to the store. */
export interface SourceCounts {
  /** Articles that were not in the store before (a citation that takes the place of a record derived from a full text counts here). */
  added: number
  /** Articles whose content or version changed. */
  updated: number
  /** Articles already stored with the same version and content (idempotent re-ingest). */
  unchanged: number
  /** Articles older (lower version) than the stored one, so ignored. */
  stale: number
  /** Stored articles removed by a `DeleteCitation`. */
  deleted: number
  /** Deletions of ids the store did not hold (recorded, so a later older copy stays out). */
  deletedUnknown: number
  /** Full texts added or changed. */
  fullTexts: number
  /**
   * Article records derived from full texts (their front matter) written because the store
   * held no citation for them: new, or changed with their full text.
   */
  derived: number
  /** MeSH records added or changed. */
  mesh: number
  /** Records that could not be read. */
  errors: number
}

/** The manifest as stored (see {@link SOURCE_COUNTS}). */
type StoredManifest = Omit<Manifest, 'sources'> & { sources: Array<Omit<SourceEntry, 'counts'> & { counts: JsonShapeType<typeof SOURCE_COUNTS> }> }

interface Manifest {
  format: typeof FORMAT
  version: typeof FORMAT_VERSION
  createdAt: string
  updatedAt: string
  segments: SegmentEntry[]
  sources: SourceEntry[]
}

/** The counts as stored: `derived` is absent from sources ingested before records were derived from full texts. */
const SOURCE_COUNTS: JsonShape<Omit<SourceCounts, 'derived'> & { derived?: number | undefined }> = json.object({
  added: json.count,
  updated: json.count,
  unchanged: json.count,
  stale: json.count,
  deleted: json.count,
  deletedUnknown: json.count,
  fullTexts: json.count,
  derived: json.optional(json.count),
  mesh: json.count,
  errors: json.count,
})

const MANIFEST: JsonShape<StoredManifest> = json.object({
  format: json.literal(FORMAT),
  version: json.literal(FORMAT_VERSION),
  createdAt: json.string,
  updatedAt: json.string,
  segments: json.array(json.object({ file: json.string, sha256: json.string, bytes: json.count, operations: json.count })),
  sources: json.array(
    json.object({ key: json.string, fingerprint: json.string, segment: json.nullable(json.string), completedAt: json.string, counts: SOURCE_COUNTS }),
  ),
})

/** One line of a segment. */
type Operation =
  | { op: 'put'; hash: string; article: Article }
  /**
   * A `DeleteCitation`; or, with `by`, a record derived from a full text (keyed by its PMCID)
   * giving way to the citation `by` that names the same PMCID: that leaves no tombstone.
   */
  | { op: 'delete'; id: string; version?: number; by?: string }
  | { op: 'fulltext'; hash: string; document: FullTextDocument }
  | { op: 'mesh'; hash: string; entry: MeshEntry }
  | { op: 'error'; source: string; error: StoredError }

/** A per-record error as stored in the corpus. */
export interface StoredError {
  code: PubmatchErrorCode
  message: string
  details: ErrorDetails
}

/** A per-record error with the source that produced it. */
export interface CorpusError extends StoredError {
  source: string
}

interface LiveEntry {
  /** Index into `manifest.segments`. */
  segment: number
  line: number
  version: number
  hash: string
  /** An article record derived from a full text (`Article.derivedFrom`). */
  derived?: boolean
  /** The article's PMCID (`PMC…`), when it names one. */
  pmcid?: string
}

/** One entry of {@link CorpusStore.changes}. */
export type CorpusChange =
  | { kind: 'article'; article: Article; segment: string }
  | { kind: 'delete'; id: string; version?: number; segment: string }

/** Counts of what a corpus holds now. */
export interface CorpusStats {
  articles: number
  /** Of the articles, those derived from a full text's front matter (no citation in the store). */
  derived: number
  fullTexts: number
  /** MeSH vocabulary records. */
  mesh: number
  /** Ids removed by DeleteCitation that are not in the store. */
  deleted: number
  segments: number
  sources: number
  errors: number
}

/** Options of {@link openCorpus}. */
export interface OpenCorpusOptions {
  /** Create the directory and an empty corpus when there is none. Defaults to `false`. */
  create?: boolean
  /** Open without taking the write lock (reads only). Defaults to `false`. */
  readOnly?: boolean
}

/**
 * A local corpus directory: the articles, deletions and full texts that `pubmatch ingest`
 * wrote, which later stages index. Writes go to new segment files that become visible by an
 * atomic manifest rename, so an interrupted ingest leaves the store as it was before the
 * source that was being written, and resumes there.
 *
 * Articles are keyed by id (the PMID). A full text brings the article record derived from its
 * front matter (`Article.derivedFrom`), keyed by its PMID, or by its PMCID when it names no PMID;
 * the store keeps it only where it holds no citation: a citation for the same PMID (or one that
 * names that PMCID) replaces it whenever it comes, and a derived record never replaces a
 * citation nor brings back an id a `DeleteCitation` removed. So the order of ingestion does not
 * matter.
 */
export interface CorpusStore {
  readonly dir: string
  /** What the corpus holds now. */
  stats(): CorpusStats
  /** The completed source with this key, if its fingerprint matches (so it can be skipped). */
  completedSource(key: string, fingerprint: string): SourceEntry | undefined
  /** Every completed source, in ingestion order. */
  sources(): readonly SourceEntry[]
  /**
   * Writes one source's records as a new segment and records the source as complete.
   * Per-record errors are stored with it, never thrown.
   */
  writeSource(
    source: { key: string; fingerprint: string },
    records: AsyncIterable<IngestRecord> | Iterable<IngestRecord>,
    onRecord?: (record: IngestRecord) => void,
  ): Promise<SourceEntry>
  /** Every live article, in segment order. */
  articles(): AsyncGenerator<Article>
  /** Every live full text. */
  fullTexts(): AsyncGenerator<FullTextDocument>
  /** Every MeSH vocabulary record (descriptors, qualifiers, supplementary concepts). */
  mesh(): AsyncGenerator<MeshEntry>
  /** Every per-record error stored by past ingests. */
  errors(): AsyncGenerator<CorpusError>
  /**
   * Every article write and deletion in segments after `after` (all segments when it is
   * undefined), in the order they were written — what an index that has seen the store up
   * to segment `after` must apply to catch up. Superseded writes come too; applying them in
   * order gives the current state.
   */
  changes(after?: string): AsyncGenerator<CorpusChange>
  /** The newest segment's file name (the position {@link CorpusStore.changes} resumes from). */
  lastSegment(): string | undefined
  /** One article by id. */
  getArticle(id: string): Promise<Article | undefined>
  /** Whether the id is live. */
  has(id: string): boolean
  /** Rewrites all live records into one segment and drops the others. */
  compact(): Promise<void>
  /** Releases the write lock. */
  close(): Promise<void>
}

/** All-zero {@link SourceCounts}. */
export const emptyCounts = (): SourceCounts => ({
  added: 0,
  updated: 0,
  unchanged: 0,
  stale: 0,
  deleted: 0,
  deletedUnknown: 0,
  fullTexts: 0,
  mesh: 0,
  derived: 0,
  errors: 0,
})

/**
 * Opens (or creates) a corpus directory.
 * @param dir - the corpus directory
 * @param options - see {@link OpenCorpusOptions}
 */
export async function openCorpus(dir: string, options: OpenCorpusOptions = {}): Promise<CorpusStore> {
  const manifestPath = join(dir, MANIFEST_FILE)
  let manifest: Manifest
  const existing = await readManifest(manifestPath)
  if (existing) {
    manifest = existing
  } else if (options.create) {
    await mkdir(join(dir, 'segments'), { recursive: true })
    const now = new Date().toISOString()
    manifest = { format: FORMAT, version: FORMAT_VERSION, createdAt: now, updatedAt: now, segments: [], sources: [] }
    await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  } else {
    throw new PubmatchError('NOT_FOUND', `no corpus at ${dir} (no ${MANIFEST_FILE}); ingest articles into it first: \`pubmatch ingest -c ${shellWord(dir)} FILE…\``, {
      details: { file: dir },
    })
  }
  if (!options.readOnly) {
    await acquireLock(dir)
    await sweepTemporaryFiles(dir)
  }
  const state = await replay(dir, manifest)
  return createStore(dir, manifest, state, options.readOnly ?? false)
}

interface State {
  articles: Map<string, LiveEntry>
  fullTexts: Map<string, LiveEntry>
  /** Keyed by `type:ui`. */
  mesh: Map<string, LiveEntry>
  /** Ids deleted and not re-added, with the version that was deleted (or 0 for all). */
  tombstones: Map<string, number>
  /** PMCID → the id of the live citation (not a derived record) that names it. */
  pmcids: Map<string, string>
  /** Live articles derived from full texts. */
  derived: number
  errors: number
}

/** What the store keeps in memory of a live article (besides where it is). */
type Live = Omit<LiveEntry, 'segment' | 'line'>

function liveOf(article: Article, hash: string): Live {
  const pmcid = normalisePmcid(articleId(article, 'pmc'))
  return {
    version: article.version,
    hash,
    ...(article.derivedFrom === undefined ? {} : { derived: true }),
    ...(pmcid === undefined ? {} : { pmcid }),
  }
}

/** Makes an article live: its tombstone goes, and a citation becomes the owner of its PMCID. */
function setArticle(state: State, id: string, entry: LiveEntry): void {
  removeArticle(state, id, undefined)
  state.articles.set(id, entry)
  state.tombstones.delete(id)
  if (entry.derived === true) {
    state.derived++
  } else if (entry.pmcid !== undefined && !state.pmcids.has(entry.pmcid)) {
    state.pmcids.set(entry.pmcid, id)
  }
}

/** Removes a live article, leaving a tombstone with the deleted version (0 for all) when one is given. */
function removeArticle(state: State, id: string, tombstone: number | undefined): void {
  const before = state.articles.get(id)
  if (before !== undefined) {
    if (before.derived === true) {
      state.derived--
    } else if (before.pmcid !== undefined && state.pmcids.get(before.pmcid) === id) {
      state.pmcids.delete(before.pmcid)
    }
    state.articles.delete(id)
  }
  if (tombstone !== undefined) {
    state.tombstones.set(id, tombstone)
  }
}

function createStore(dir: string, manifest: Manifest, state: State, readOnly: boolean): CorpusStore {
  const manifestPath = join(dir, MANIFEST_FILE)
  const segmentsDir = join(dir, 'segments')

  const assertWritable = (): void => {
    if (readOnly) {
      throw new PubmatchError('INVALID_ARGUMENT', `corpus ${dir} was opened read-only`)
    }
  }

  const saveManifest = async (): Promise<void> => {
    manifest.updatedAt = new Date().toISOString()
    await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  }

  const nextSegmentName = (): string => {
    const last = manifest.segments.reduce((max, s) => Math.max(max, Number.parseInt(s.file, 10) || 0), 0)
    return `${String(last + 1).padStart(6, '0')}.jsonl.gz`
  }

  async function* liveRecords<T>(
    kind: 'put' | 'fulltext' | 'mesh',
    live: Map<string, LiveEntry>,
  ): AsyncGenerator<T> {
    if (live.size === 0) {
      return
    }
    const wanted = new Map<number, Set<number>>()
    for (const entry of live.values()) {
      let lines = wanted.get(entry.segment)
      if (!lines) {
        lines = new Set()
        wanted.set(entry.segment, lines)
      }
      lines.add(entry.line)
    }
    for (const [index, segment] of manifest.segments.entries()) {
      const lines = wanted.get(index)
      if (!lines) {
        continue
      }
      for await (const { line, op } of readSegment(segmentsDir, segment)) {
        if (op.op === kind && lines.has(line)) {
          yield (op.op === 'put' ? op.article : op.op === 'fulltext' ? op.document : op.op === 'mesh' ? op.entry : undefined) as T
        }
      }
    }
  }

  const store: CorpusStore = {
    dir,
    stats: () => ({
      articles: state.articles.size,
      derived: state.derived,
      fullTexts: state.fullTexts.size,
      mesh: state.mesh.size,
      deleted: state.tombstones.size,
      segments: manifest.segments.length,
      sources: manifest.sources.length,
      errors: state.errors,
    }),
    completedSource: (key, fingerprint) =>
      manifest.sources.find((s) => s.key === key && s.fingerprint === fingerprint),
    sources: () => manifest.sources,

    async writeSource(source, records, onRecord) {
      assertWritable()
      const counts = emptyCounts()
      const segmentIndex = manifest.segments.length
      // Changes are staged and applied to the live state only once the segment is durable.
      const staged: Array<() => void> = []
      /** This source's article writes and deletions so far: `null` for a deletion that leaves a tombstone, `undefined` for one that does not. */
      const pending = new Map<string, Live | null | undefined>()
      /** This source's changes to `state.pmcids`: `null` for a PMCID no citation names any more. */
      const pendingOwners = new Map<string, string | null>()
      const pendingFull = new Map<string, string>()
      const current = (id: string): Live | null | undefined => (pending.has(id) ? pending.get(id) : state.articles.get(id))
      const tombstoned = (id: string): boolean => (pending.has(id) ? pending.get(id) === null : state.tombstones.has(id))
      const owner = (pmcid: string): string | undefined => (pendingOwners.has(pmcid) ? (pendingOwners.get(pmcid) ?? undefined) : state.pmcids.get(pmcid))
      const forget = (id: string, before: Live | null | undefined): void => {
        if (before?.pmcid !== undefined && owner(before.pmcid) === id) {
          pendingOwners.set(before.pmcid, null)
        }
      }

      const writer = createSegmentWriter(segmentsDir, nextSegmentName())
      const write = async (article: Article, digest: string): Promise<void> => {
        const before = current(article.id)
        const live = liveOf(article, digest)
        const at = await writer.write({ op: 'put', hash: digest, article })
        forget(article.id, before)
        pending.set(article.id, live)
        if (live.pmcid !== undefined && live.derived !== true && owner(live.pmcid) === undefined) {
          pendingOwners.set(live.pmcid, article.id)
        }
        staged.push(() => setArticle(state, article.id, { segment: segmentIndex, line: at, ...live }))
      }
      /**
       * One article: a citation replaces an older version of itself and any record derived from
       * a full text (by id, or by the PMCID a derived record is keyed by when its full text named
       * no PMID); a derived record is written only where no citation is, or was deleted.
       */
      const putArticle = async (article: Article): Promise<void> => {
        const digest = contentHash(article)
        const before = current(article.id)
        if (article.derivedFrom !== undefined) {
          const pmcid = normalisePmcid(articleId(article, 'pmc'))
          const cited = (before !== undefined && before !== null && before.derived !== true) || (pmcid === article.id && owner(pmcid) !== undefined)
          if (cited || before === null || (before === undefined && tombstoned(article.id)) || before?.hash === digest) {
            return
          }
          counts.derived++
          await write(article, digest)
          return
        }
        if (before && before.derived !== true) {
          if (before.version > article.version) {
            counts.stale++
            return
          }
          if (before.version === article.version && before.hash === digest) {
            counts.unchanged++
            return
          }
          counts.updated++
        } else {
          counts.added++
        }
        await write(article, digest)
        const pmcid = normalisePmcid(articleId(article, 'pmc'))
        const derived = pmcid === undefined || pmcid === article.id ? undefined : current(pmcid)
        if (pmcid !== undefined && derived?.derived === true) {
          await writer.write({ op: 'delete', id: pmcid, by: article.id })
          pending.set(pmcid, undefined)
          staged.push(() => removeArticle(state, pmcid, undefined))
        }
      }

      try {
        for await (const record of records) {
          onRecord?.(record)
          switch (record.kind) {
            case 'article': {
              await putArticle(record.article)
              break
            }
            case 'delete': {
              for (const { id, version } of record.deleted) {
                const before = current(id)
                if (before && version !== undefined && before.version > version) {
                  continue // a deletion of an older version leaves the newer one in place
                }
                counts[before ? 'deleted' : 'deletedUnknown']++
                await writer.write(version === undefined ? { op: 'delete', id } : { op: 'delete', id, version })
                forget(id, before)
                pending.set(id, null)
                staged.push(() => removeArticle(state, id, version ?? 0))
              }
              break
            }
            case 'fulltext': {
              const document = record.document
              if (record.article !== undefined) {
                // checked apart from the full text, so that re-ingesting a full text stored
                // before records were derived writes its record
                await putArticle(record.article)
              }
              const digest = contentHash(document)
              const before = pendingFull.get(document.pmcid) ?? state.fullTexts.get(document.pmcid)?.hash
              if (before === digest) {
                counts.unchanged++
                break
              }
              counts.fullTexts++
              const at = await writer.write({ op: 'fulltext', hash: digest, document })
              pendingFull.set(document.pmcid, digest)
              staged.push(() => {
                state.fullTexts.set(document.pmcid, { segment: segmentIndex, line: at, version: 1, hash: digest })
              })
              break
            }
            case 'mesh': {
              const entry = record.entry
              const key = meshKey(entry)
              const digest = contentHash(entry)
              const before = pendingFull.get(key) ?? state.mesh.get(key)?.hash
              if (before === digest) {
                counts.unchanged++
                break
              }
              counts.mesh++
              const at = await writer.write({ op: 'mesh', hash: digest, entry })
              pendingFull.set(key, digest)
              staged.push(() => {
                state.mesh.set(key, { segment: segmentIndex, line: at, version: 1, hash: digest })
              })
              break
            }
            case 'error': {
              counts.errors++
              await writer.write({ op: 'error', source: source.key, error: storedError(record.error) })
              staged.push(() => {
                state.errors++
              })
              break
            }
          }
        }
      } catch (error) {
        await writer.abort()
        throw error
      }
      const segment = await writer.finish()
      if (segment) {
        manifest.segments.push(segment)
      }
      const entry: SourceEntry = {
        key: source.key,
        fingerprint: source.fingerprint,
        segment: segment?.file ?? null,
        completedAt: new Date().toISOString(),
        counts,
      }
      manifest.sources = manifest.sources.filter((s) => s.key !== source.key)
      manifest.sources.push(entry)
      await saveManifest()
      for (const apply of staged) {
        apply()
      }
      return entry
    },

    articles: () => liveRecords<Article>('put', state.articles),
    fullTexts: () => liveRecords<FullTextDocument>('fulltext', state.fullTexts),
    mesh: () => liveRecords<MeshEntry>('mesh', state.mesh),

    async *errors() {
      for (const segment of manifest.segments) {
        for await (const { op } of readSegment(segmentsDir, segment)) {
          if (op.op === 'error') {
            yield { source: op.source, ...op.error }
          }
        }
      }
    },

    async *changes(after) {
      for (const segment of manifest.segments) {
        if (after !== undefined && segment.file <= after) {
          continue
        }
        for await (const { op } of readSegment(segmentsDir, segment)) {
          if (op.op === 'put') {
            yield { kind: 'article', article: op.article, segment: segment.file }
          } else if (op.op === 'delete') {
            yield op.version === undefined
              ? { kind: 'delete', id: op.id, segment: segment.file }
              : { kind: 'delete', id: op.id, version: op.version, segment: segment.file }
          }
        }
      }
    },

    lastSegment: () => manifest.segments.at(-1)?.file,

    async getArticle(id) {
      const entry = state.articles.get(id)
      const segment = entry ? manifest.segments[entry.segment] : undefined
      if (!entry || !segment) {
        return undefined
      }
      for await (const { line, op } of readSegment(segmentsDir, segment)) {
        if (line === entry.line && op.op === 'put') {
          return op.article
        }
      }
      throw new PubmatchError('CORPUS_CORRUPTED', `article ${id} is missing from segment ${segment.file}`, {
        details: { file: join(segmentsDir, segment.file), record: id },
      })
    },

    has: (id) => state.articles.has(id),

    async compact() {
      assertWritable()
      const old = manifest.segments.map((s) => s.file)
      const writer = createSegmentWriter(segmentsDir, nextSegmentName())
      try {
        for await (const article of store.articles()) {
          await writer.write({ op: 'put', hash: contentHash(article), article })
        }
        for await (const document of store.fullTexts()) {
          await writer.write({ op: 'fulltext', hash: contentHash(document), document })
        }
        for await (const entry of store.mesh()) {
          await writer.write({ op: 'mesh', hash: contentHash(entry), entry })
        }
        for (const [id, version] of state.tombstones) {
          await writer.write(version === 0 ? { op: 'delete', id } : { op: 'delete', id, version })
        }
        for await (const { source, ...error } of store.errors()) {
          await writer.write({ op: 'error', source, error })
        }
      } catch (error) {
        await writer.abort()
        throw error
      }
      const segment = await writer.finish()
      manifest.segments = segment ? [segment] : []
      for (const source of manifest.sources) {
        source.segment = segment?.file ?? null
      }
      await saveManifest()
      Object.assign(state, await replay(dir, manifest))
      for (const file of old) {
        await rm(join(segmentsDir, file), { force: true })
      }
    },

    async close() {
      if (!readOnly) {
        await rm(join(dir, LOCK_FILE), { force: true })
      }
    },
  }
  return store
}

interface SegmentWriter {
  /** Appends one operation and returns its line number. */
  write(op: Operation): Promise<number>
  /** Makes the segment durable under its final name; `null` when nothing was written. */
  finish(): Promise<SegmentEntry | null>
  /** Drops the temporary file. */
  abort(): Promise<void>
}

/** Writes a gzip'd JSON-lines segment to a temporary file, renamed into place on finish. */
function createSegmentWriter(segmentsDir: string, name: string): SegmentWriter {
  const finalPath = join(segmentsDir, name)
  const tmpPath = temporaryPathFor(finalPath)
  const gzip = createGzip({ level: 6 })
  const done = pipeline(gzip, createWriteStream(tmpPath))
  const hash = createHash('sha256')
  let bytes = 0
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk)
    bytes += chunk.length
  })
  let lines = 0
  return {
    async write(op) {
      if (!gzip.write(`${JSON.stringify(op)}\n`)) {
        await new Promise<void>((resolve) => gzip.once('drain', resolve))
      }
      return lines++
    },
    async finish() {
      gzip.end()
      await done
      if (lines === 0) {
        await rm(tmpPath, { force: true })
        return null
      }
      const handle = await open(tmpPath, 'r+')
      await handle.sync()
      await handle.close()
      await rename(tmpPath, finalPath)
      return { file: name, sha256: hash.digest('hex'), bytes, operations: lines }
    },
    async abort() {
      gzip.destroy()
      await done.catch(() => undefined)
      await rm(tmpPath, { force: true })
    },
  }
}

/**
 * The error for a corpus with no article to index (empty, MeSH records only, every citation
 * deleted), saying what it holds and what to ingest. A corpus whose full texts were stored
 * before pubmatch derived article records from them is told to read them again with `--force`
 * (their sources are named), which writes the records.
 * @param store - the corpus
 */
export function noArticlesError(store: CorpusStore): PubmatchError {
  const stats = store.stats()
  const dir = shellWord(store.dir)
  if (stats.fullTexts > 0 && stats.deleted === 0) {
    const sources = store.sources().filter((source) => source.counts.fullTexts > 0 && !source.key.startsWith('entrez:'))
    const paths = sources.length <= 3 ? sources.map((source) => source.key) : [commonDirectory(sources.map((source) => source.key))]
    return new PubmatchError(
      'INVALID_ARGUMENT',
      `the corpus ${store.dir} holds ${stats.fullTexts} full texts but no articles: they were stored before pubmatch derived article records from full texts; ` +
        `read them again to add the records: \`pubmatch ingest --force -c ${dir} ${paths.length > 0 ? paths.map(shellWord).join(' ') : 'FILE…'}\``,
      { details: { file: store.dir } },
    )
  }
  const held = [
    stats.mesh > 0 ? `${stats.mesh} MeSH records` : '',
    stats.deleted > 0 ? `${stats.deleted} deletions` : '',
    stats.errors > 0 ? `${stats.errors} per-record errors` : '',
  ].filter((part) => part !== '')
  return new PubmatchError(
    'INVALID_ARGUMENT',
    `the corpus ${store.dir} holds no articles${held.length > 0 ? ` (only ${held.join(', ')})` : ''}; ` +
      `ingest PubMed XML or PMC full texts (BioC, JATS) into it first: \`pubmatch ingest -c ${dir} FILE…\``,
    { details: { file: store.dir } },
  )
}

/** The deepest directory that holds every path. */
function commonDirectory(paths: readonly string[]): string {
  let common = dirname(paths[0] ?? '.')
  for (const path of paths) {
    while (common !== dirname(common) && !path.startsWith(common.endsWith(sep) ? common : `${common}${sep}`)) {
      common = dirname(common)
    }
  }
  return common
}

/** A path or word as it can be pasted into a shell: as it is when it holds only safe characters, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * The content hash that makes re-ingesting idempotent: the same article with the same
 * version hashes the same, so it is counted as unchanged and not written again.
 * @param value - an article or full text
 */
export function contentHash(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 20)
}

function meshKey(entry: MeshEntry): string {
  return `${entry.type}:${entry.record.ui}`
}

function storedError(error: PubmatchError): StoredError {
  return { code: error.code, message: error.message, details: error.details }
}

async function readManifest(path: string): Promise<Manifest | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined
    }
    throw new PubmatchError('IO', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
      details: { file: path },
    })
  }
  const source = { file: path, code: 'CORPUS_CORRUPTED' } as const
  const head = parseJson(text, json.object({ format: json.literal(FORMAT), version: json.unknown }), source)
  if (head.version !== FORMAT_VERSION) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${path} has corpus format version ${String(head.version)}; this pubmatch reads version ${FORMAT_VERSION}`,
      { details: { file: path } },
    )
  }
  const stored = checkJson(head, MANIFEST, source)
  return { ...stored, sources: stored.sources.map((entry) => ({ ...entry, counts: { ...entry.counts, derived: entry.counts.derived ?? 0 } })) }
}

async function* readSegment(
  segmentsDir: string,
  segment: SegmentEntry,
): AsyncGenerator<{ line: number; op: Operation }> {
  const path = join(segmentsDir, segment.file)
  const hash = createHash('sha256')
  let raw: ReturnType<typeof createReadStream>
  try {
    await stat(path)
    raw = createReadStream(path)
  } catch (error) {
    throw new PubmatchError('CORPUS_CORRUPTED', `segment ${segment.file} listed in the manifest is missing`, {
      cause: error,
      details: { file: path },
    })
  }
  raw.on('data', (chunk) => hash.update(chunk as Buffer))
  const gunzip = createGunzip()
  raw.on('error', (error) => gunzip.destroy(error))
  const lines = createInterface({ input: raw.pipe(gunzip), crlfDelay: Infinity })
  let line = 0
  try {
    for await (const text of lines) {
      if (text.length === 0) {
        continue
      }
      let op: Operation
      try {
        op = JSON.parse(text) as Operation
      } catch (error) {
        throw new PubmatchError('CORPUS_CORRUPTED', `segment ${segment.file} line ${line + 1} is not valid JSON`, {
          cause: error,
          details: { file: path, position: line + 1 },
        })
      }
      yield { line: line++, op }
    }
  } catch (error) {
    if (isPubmatchError(error)) {
      throw error
    }
    throw new PubmatchError('CORPUS_CORRUPTED', `segment ${segment.file} cannot be read: ${(error as Error).message}`, {
      cause: error,
      details: { file: path },
    })
  }
  const digest = hash.digest('hex')
  if (digest !== segment.sha256) {
    throw new PubmatchError(
      'CORPUS_CORRUPTED',
      `segment ${segment.file} fails its checksum (sha256 ${digest.slice(0, 12)}…, manifest says ${segment.sha256.slice(0, 12)}…)`,
      { details: { file: path } },
    )
  }
  if (line !== segment.operations) {
    throw new PubmatchError('CORPUS_CORRUPTED', `segment ${segment.file} has ${line} operations, manifest says ${segment.operations}`, {
      details: { file: path },
    })
  }
}

async function replay(dir: string, manifest: Manifest): Promise<State> {
  const state: State = { articles: new Map(), fullTexts: new Map(), mesh: new Map(), tombstones: new Map(), pmcids: new Map(), derived: 0, errors: 0 }
  const segmentsDir = join(dir, 'segments')
  for (const [index, segment] of manifest.segments.entries()) {
    for await (const { line, op } of readSegment(segmentsDir, segment)) {
      switch (op.op) {
        case 'put':
          setArticle(state, op.article.id, { segment: index, line, ...liveOf(op.article, op.hash) })
          break
        case 'delete':
          removeArticle(state, op.id, op.by === undefined ? (op.version ?? 0) : undefined)
          break
        case 'fulltext':
          state.fullTexts.set(op.document.pmcid, { segment: index, line, version: 1, hash: op.hash })
          break
        case 'mesh':
          state.mesh.set(meshKey(op.entry), { segment: index, line, version: 1, hash: op.hash })
          break
        case 'error':
          state.errors++
          break
      }
    }
  }
  return state
}

async function acquireLock(dir: string): Promise<void> {
  const path = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new PubmatchError('IO', `cannot lock ${dir}: ${(error as Error).message}`, { cause: error })
      }
      const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) {
        throw new PubmatchError('IO', `corpus ${dir} is in use by process ${pid} (lock file ${path})`, {
          details: { file: path },
        })
      }
      // A stale lock from a process that died (e.g. an interrupted ingest): take it over.
      await rm(path, { force: true })
    }
  }
  throw new PubmatchError('IO', `cannot lock ${dir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function sweepTemporaryFiles(dir: string): Promise<void> {
  for (const sub of [dir, join(dir, 'segments')]) {
    const names = await readdir(sub).catch(() => [] as string[])
    for (const name of names) {
      if (name.startsWith('.tmp-')) {
        await rm(join(sub, name), { force: true })
      }
    }
  }
}
