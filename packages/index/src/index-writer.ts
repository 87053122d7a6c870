import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError, toPubmatchError, truncateForMessage, type Article } from '@pubmatch/core'
import { createSegmentBuilder, runSegmentBuild, type SegmentBuildRunner } from './build/segment-build.ts'
import { MANIFEST_FILE, readManifest, writeManifest, type Manifest } from './commit/manifest.ts'
import { acquireWriteLock } from './commit/write-lock.ts'
import { extractDocument, type ExtractedDocument } from './document/extract.ts'
import { writeNewFile } from '@pubmatch/core/node'
import { FORMAT_VERSION, finishFile, startFile } from './io/file-format.ts'
import { MergeSource } from './merge/merge-source.ts'
import type { IndexConfig } from './schema/config.ts'
import { assertSameSchema, resolveConfig, type IndexSchema, type ResolvedConfig } from './schema/schema.ts'
import { LiveDocs } from './segment/live-docs.ts'
import { liveDocsFileName, segmentFileName, segmentFiles, type SegmentMeta } from './segment/segment-meta.ts'
import { DocIdsReader } from './segment/doc-ids.ts'
import { SegmentReader, readLiveDocs, readVerifiedFile } from './segment/segment-reader.ts'
import type { SegmentBuilder } from './segment/segment-builder.ts'
import { writeSegment } from './segment/segment-writer.ts'

/** Where the writer is, for progress displays. */
export interface IndexProgress {
  /** `adding` while documents stream in, then `flushing`, `merging`, `committing`. */
  readonly phase: 'adding' | 'flushing' | 'merging' | 'committing'
  /** Documents added (or replaced) through this writer. */
  readonly docsAdded: number
  /** Documents whose segment has been written. */
  readonly docsFlushed: number
  /** Deletions requested through this writer. */
  readonly docsDeleted: number
  /** Segments written by flushes. */
  readonly segmentsFlushed: number
  /** Merges finished. */
  readonly merges: number
}

/** Options of {@link createIndexWriter}. */
export interface IndexWriterOptions {
  /** Documents buffered before they are flushed as a segment. Defaults to `10000`. */
  maxBufferedDocs?: number
  /**
   * Builds flushed segments, e.g. `(task) => pool.run(task)` for a piscina pool running
   * `@pubmatch/index/worker`. Defaults to building in this thread.
   */
  runSegmentBuild?: SegmentBuildRunner
  /** Segment builds in flight before `addArticle` waits for the oldest. Defaults to `1`. */
  maxConcurrentBuilds?: number
  /** Called after each flushed segment and merge, and every `progressInterval` added documents. */
  onProgress?: (progress: IndexProgress) => void
  /** Added documents between two `adding` progress reports. Defaults to `1000`. */
  progressInterval?: number
}

/** What a commit did. */
export interface CommitInfo {
  /** The manifest generation now on disk. */
  readonly generation: number
  /** Segments in the index. */
  readonly segments: number
  /** Live documents. */
  readonly docCount: number
  /** Deleted documents still held by segments (until merged away). */
  readonly deletedCount: number
  /** Merges run by this commit. */
  readonly merges: number
}

/**
 * Adds, replaces and deletes documents of an index directory. One writer per directory (a
 * `write.lock` file keeps others out); readers may open the index at any time and see the
 * last commit.
 *
 * Changes are buffered and flushed into new segments; nothing is visible to readers until
 * {@link IndexWriter.commit}, which writes the new segments' files and deletions, merges
 * segments as the merge policy says, then atomically replaces the manifest.
 */
export interface IndexWriter {
  /** The index directory. */
  readonly dir: string
  /** The schema (fields and doc values) of the index. */
  readonly schema: IndexSchema
  /**
   * Adds an article, replacing any document with the same id (a new PMID version replaces
   * the old one; the last one added wins).
   * @param article - the article
   * @throws PubmatchError `INVALID_ARGUMENT` for an article without an id or with a bad doc
   *   value (the writer stays usable)
   */
  addArticle(article: Article): Promise<void>
  /**
   * Deletes the document with this id (e.g. a `DeleteCitation`), if there is one.
   * @param id - the external id
   * @returns whether a document was deleted
   */
  deleteArticle(id: string): Promise<boolean>
  /** Makes all changes durable and visible to newly opened readers. */
  commit(): Promise<CommitInfo>
  /**
   * Commits and merges the index down to at most `maxSegments` segments without deleted
   * documents, which makes every statistic exact.
   * @param maxSegments - the most segments to leave. Defaults to `1`.
   */
  forceMerge(maxSegments?: number): Promise<CommitInfo>
  /** Commits pending changes and releases the lock. */
  close(): Promise<void>
  /** Discards uncommitted changes (their files are removed) and releases the lock. */
  rollback(): Promise<void>
}

interface Location {
  segment: string
  doc: number
}

/**
 * Stored blocks being deflated on the thread pool before adding waits for some to finish (each
 * holds a zlib stream of about 256 KiB until this thread handles its completion).
 */
const MAX_DEFLATING_BLOCKS = 16

const SEGMENT_OF = /^(_[0-9a-z]+)[._]/
const OWN_FILE = /^(_[0-9a-z]+(?:_[0-9a-z]+)?\.(?:tdx|pst|pos|nrm|dv|sto|ids|del)|\.tmp-.*)$/

class Writer implements IndexWriter {
  readonly dir: string
  readonly schema: IndexSchema
  private readonly config: ResolvedConfig
  private readonly options: Required<Omit<IndexWriterOptions, 'onProgress'>> & Pick<IndexWriterOptions, 'onProgress'>
  private readonly release: () => Promise<void>
  private committed: Manifest | null
  private segments: SegmentMeta[]
  private readonly liveDocs = new Map<string, LiveDocs>()
  private readonly ids = new Map<string, Location>()
  private readonly deletions = new Map<string, Set<number>>()
  private nextSegment: number
  /** Documents of the batch being collected (the next flushed segment). */
  private batch: ExtractedDocument[] = []
  private batchDocs = 0
  private batchName: string | null = null
  /**
   * Without a `runSegmentBuild` option, segments are built in this thread: each document is
   * analyzed and inverted as it is added (so no batch of extracted documents waits in memory)
   * and the batch's builder is written at the flush.
   */
  private readonly inThread: boolean
  private builder: SegmentBuilder | null = null
  private inFlight: { name: string; docs: number; build: Promise<SegmentMeta> }[] = []
  private flushed: SegmentMeta[] = []
  private chain: Promise<unknown> = Promise.resolve()
  private failure: unknown = undefined
  private closed = false
  private progress = { docsAdded: 0, docsFlushed: 0, docsDeleted: 0, segmentsFlushed: 0, merges: 0 }

  constructor(
    dir: string,
    config: ResolvedConfig,
    options: IndexWriterOptions,
    manifest: Manifest | null,
    release: () => Promise<void>,
  ) {
    this.dir = dir
    this.config = config
    this.schema = config.schema
    this.release = release
    this.committed = manifest
    this.segments = manifest === null ? [] : [...manifest.segments]
    this.nextSegment = manifest?.nextSegment ?? 0
    const maxBufferedDocs = options.maxBufferedDocs ?? 10_000
    if (!Number.isInteger(maxBufferedDocs) || maxBufferedDocs < 1) {
      throw new PubmatchError('INVALID_ARGUMENT', `maxBufferedDocs must be a positive integer, got ${maxBufferedDocs}`)
    }
    this.inThread = options.runSegmentBuild === undefined
    this.options = {
      maxBufferedDocs,
      runSegmentBuild: options.runSegmentBuild ?? ((task) => runSegmentBuild(task, config.analyzers)),
      maxConcurrentBuilds: Math.max(1, options.maxConcurrentBuilds ?? 1),
      onProgress: options.onProgress,
      progressInterval: Math.max(1, options.progressInterval ?? 1000),
    }
  }

  /** Loads the committed segments' ids and deletions, and removes files no commit refers to. */
  async load(): Promise<void> {
    for (const meta of this.segments) {
      const live = meta.delGen > 0 ? await readLiveDocs(this.dir, meta) : null
      if (live !== null) {
        this.liveDocs.set(meta.name, live)
      }
      const file = await readVerifiedFile(this.dir, segmentFileName(meta.name, 'ids'), 'ids', meta.files.ids)
      new DocIdsReader(file.bytes, file.body).ids().forEach((id, doc) => {
        if (live === null || live.isLive(doc)) {
          this.ids.set(id, { segment: meta.name, doc })
        }
      })
    }
    await this.removeUnreferencedFiles()
  }

  addArticle(article: Article): Promise<void> {
    let doc: ExtractedDocument
    try {
      // Pure, and outside `serial`: a bad article is rejected without failing the writer.
      doc = extractDocument(article, this.config)
    } catch (error) {
      return Promise.reject(toPubmatchError(error))
    }
    return this.serial(async () => {
      this.markDeleted(doc.id)
      if (this.batchName === null) {
        this.batchName = this.newSegmentName()
      }
      this.ids.set(doc.id, { segment: this.batchName, doc: this.batchDocs })
      if (this.inThread) {
        this.builder ??= createSegmentBuilder(this.schema, this.config.analyzers)
        this.builder.add(doc)
        await this.builder.drainStored(MAX_DEFLATING_BLOCKS)
      } else {
        this.batch.push(doc)
      }
      this.batchDocs++
      this.progress.docsAdded++
      if (this.progress.docsAdded % this.options.progressInterval === 0) {
        this.report('adding')
      }
      if (this.batchDocs >= this.options.maxBufferedDocs) {
        await this.dispatchBatch()
      }
    })
  }

  deleteArticle(id: string): Promise<boolean> {
    return this.serial(() => {
      const deleted = this.markDeleted(id)
      if (deleted) {
        this.progress.docsDeleted++
      }
      return Promise.resolve(deleted)
    })
  }

  commit(): Promise<CommitInfo> {
    return this.serial(() => this.commitNow(null))
  }

  forceMerge(maxSegments = 1): Promise<CommitInfo> {
    if (!Number.isInteger(maxSegments) || maxSegments < 1) {
      return Promise.reject(
        new PubmatchError('INVALID_ARGUMENT', `forceMerge needs maxSegments ≥ 1, got ${maxSegments}`),
      )
    }
    return this.serial(() => this.commitNow(maxSegments))
  }

  async close(): Promise<void> {
    if (this.closed) {
      return
    }
    await this.serial(async () => {
      if (this.hasChanges() || this.committed === null) {
        await this.commitNow(null)
      }
    })
    this.closed = true
    await this.release()
  }

  async rollback(): Promise<void> {
    if (this.closed) {
      return
    }
    this.closed = true
    await this.chain.catch(() => undefined)
    await Promise.allSettled(this.inFlight.map((flight) => flight.build))
    this.inFlight = []
    this.batch = []
    this.builder = null
    this.batchDocs = 0
    this.flushed = []
    await this.removeUnreferencedFiles()
    await this.release()
  }

  private serial<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new PubmatchError('INVALID_ARGUMENT', `the writer of ${this.dir} is closed`))
    }
    const run = async (): Promise<T> => {
      if (this.failure !== undefined) {
        throw new PubmatchError(
          'INTERNAL',
          `an earlier flush of ${this.dir} failed; call rollback()`,
          { cause: this.failure },
        )
      }
      try {
        return await operation()
      } catch (error) {
        this.failure ??= error
        throw error
      }
    }
    const result = this.chain.then(run)
    this.chain = result.catch(() => undefined)
    return result
  }

  private hasChanges(): boolean {
    return this.batchDocs > 0 || this.inFlight.length > 0 || this.flushed.length > 0 || this.deletions.size > 0
  }

  private newSegmentName(): string {
    return `_${(this.nextSegment++).toString(36)}`
  }

  private markDeleted(id: string): boolean {
    const location = this.ids.get(id)
    if (location === undefined) {
      return false
    }
    this.ids.delete(id)
    let docs = this.deletions.get(location.segment)
    if (docs === undefined) {
      docs = new Set()
      this.deletions.set(location.segment, docs)
    }
    docs.add(location.doc)
    return true
  }

  private report(phase: IndexProgress['phase']): void {
    this.options.onProgress?.({ phase, ...this.progress })
  }

  private async dispatchBatch(): Promise<void> {
    if (this.batchDocs === 0 || this.batchName === null) {
      return
    }
    const name = this.batchName
    const docs = this.batchDocs
    let build: Promise<SegmentMeta>
    if (this.builder !== null) {
      build = writeSegment(this.dir, name, this.builder, this.config.codec)
    } else {
      build = this.options.runSegmentBuild({
        dir: this.dir,
        name,
        schema: this.schema,
        codec: this.config.codec,
        docs: this.batch,
      })
    }
    this.batch = []
    this.builder = null
    this.batchDocs = 0
    this.batchName = null
    build.catch(() => undefined) // observed in drain(); avoid an unhandled rejection meanwhile
    this.inFlight.push({ name, docs, build })
    while (this.inFlight.length > this.options.maxConcurrentBuilds) {
      await this.drainOne()
    }
  }

  private async drainOne(): Promise<void> {
    const flight = this.inFlight[0]!
    const meta = await flight.build
    this.inFlight.shift()
    this.flushed.push(meta)
    this.progress.docsFlushed += flight.docs
    this.progress.segmentsFlushed++
    this.report('flushing')
  }

  private async commitNow(forceMergeTo: number | null): Promise<CommitInfo> {
    await this.dispatchBatch()
    while (this.inFlight.length > 0) {
      await this.drainOne()
    }
    this.report('committing')
    let segments = await this.applyDeletions([...this.segments, ...this.flushed])
    let merges = 0
    for (let round = 0; round < 64; round++) {
      const groups =
        forceMergeTo === null
          ? this.config.mergePolicy.findMerges(segments)
          : round === 0
            ? forceMergeGroups(segments, forceMergeTo)
            : []
      if (groups.length === 0) {
        break
      }
      segments = await this.runMerges(segments, groups)
      merges += groups.length
    }
    const manifest: Manifest = {
      format: 'pubmatch-index',
      version: FORMAT_VERSION,
      generation: (this.committed?.generation ?? 0) + 1,
      nextSegment: this.nextSegment,
      schema: this.schema,
      segments,
      committedAt: new Date().toISOString(),
    }
    await writeManifest(this.dir, manifest)
    this.committed = manifest
    this.segments = segments
    this.flushed = []
    this.deletions.clear()
    const names = new Set(segments.map((s) => s.name))
    for (const name of this.liveDocs.keys()) {
      if (!names.has(name)) {
        this.liveDocs.delete(name)
      }
    }
    await this.removeUnreferencedFiles()
    const docCount = segments.reduce((sum, s) => sum + s.docCount - s.delCount, 0)
    const deletedCount = segments.reduce((sum, s) => sum + s.delCount, 0)
    return { generation: manifest.generation, segments: segments.length, docCount, deletedCount, merges }
  }

  /** Writes new `.del` generations for segments with new deletions; drops fully deleted segments. */
  private async applyDeletions(segments: SegmentMeta[]): Promise<SegmentMeta[]> {
    const out: SegmentMeta[] = []
    for (const meta of segments) {
      const docs = this.deletions.get(meta.name)
      if (docs === undefined || docs.size === 0) {
        out.push(meta)
        continue
      }
      const live = this.liveDocs.get(meta.name)?.clone() ?? new LiveDocs(meta.docCount)
      for (const doc of docs) {
        live.delete(doc)
      }
      if (live.liveCount === 0) {
        this.liveDocs.delete(meta.name)
        continue
      }
      const delGen = meta.delGen + 1
      const file = startFile('del', 16 + (meta.docCount >>> 3))
      live.write(file)
      const { bytes, checksum } = finishFile(file)
      await writeNewFile(join(this.dir, liveDocsFileName(meta.name, delGen)), bytes)
      this.liveDocs.set(meta.name, live)
      out.push({ ...meta, delGen, delCount: live.deletedCount, del: checksum })
    }
    return out
  }

  private async runMerges(segments: SegmentMeta[], groups: number[][]): Promise<SegmentMeta[]> {
    const replaced = new Map<number, SegmentMeta | null>()
    for (const group of groups) {
      const metas = group.map((i) => segments[i]!)
      const readers = await Promise.all(
        metas.map((meta) => SegmentReader.open(this.dir, meta, this.schema, this.liveDocs.get(meta.name) ?? null)),
      )
      const source = new MergeSource(this.schema, readers)
      let merged: SegmentMeta | null = null
      if (source.docCount > 0) {
        const name = this.newSegmentName()
        merged = await writeSegment(this.dir, name, source, this.config.codec)
        source.ids().forEach((id, doc) => this.ids.set(id, { segment: name, doc }))
      }
      group.forEach((i, k) => replaced.set(i, k === 0 ? merged : null))
      this.progress.merges++
      this.report('merging')
    }
    const out: SegmentMeta[] = []
    segments.forEach((meta, i) => {
      if (!replaced.has(i)) {
        out.push(meta)
      } else {
        const merged = replaced.get(i)
        if (merged !== null && merged !== undefined) {
          out.push(merged)
        }
      }
    })
    return out
  }

  private async removeUnreferencedFiles(): Promise<void> {
    const keep = new Set<string>([MANIFEST_FILE])
    for (const meta of [...this.segments, ...this.flushed]) {
      for (const file of segmentFiles(meta)) {
        keep.add(file)
      }
    }
    const busy = new Set(this.inFlight.map((flight) => flight.name))
    let entries: string[]
    try {
      entries = await readdir(this.dir)
    } catch {
      return
    }
    await Promise.all(
      entries
        .filter((file) => OWN_FILE.test(file) && !keep.has(file) && !busy.has(SEGMENT_OF.exec(file)?.[1] ?? ''))
        .map((file) => rm(join(this.dir, file), { force: true })),
    )
  }
}

/**
 * Splits segments into at most `max` runs of consecutive segments of similar live size; a
 * run of one segment is rewritten only if it has deletions.
 */
function forceMergeGroups(segments: readonly SegmentMeta[], max: number): number[][] {
  const live = segments.map((s) => s.docCount - s.delCount)
  const total = live.reduce((a, b) => a + b, 0)
  const groups: number[][] = []
  let current: number[] = []
  let size = 0
  const target = total / max
  segments.forEach((_, i) => {
    current.push(i)
    size += live[i]!
    const remainingGroups = max - groups.length - 1
    if (remainingGroups > 0 && size >= target && segments.length - i - 1 >= remainingGroups) {
      groups.push(current)
      current = []
      size = 0
    }
  })
  if (current.length > 0) {
    groups.push(current)
  }
  return groups.filter((group) => group.length > 1 || segments[group[0]!]!.delCount > 0)
}

/**
 * Opens (or creates) an index directory for writing. When the directory already holds an
 * index, `config` must describe the same schema (field names, analyzers, flags and doc
 * value names, in order).
 * @param dir - the index directory (created if missing)
 * @param config - fields, doc values, stored fields, codec, merge policy
 * @param options - buffering, segment builder, progress; see {@link IndexWriterOptions}
 * @throws PubmatchError `SCHEMA_MISMATCH` for another schema, `INDEX_CORRUPTED` for a damaged
 *   index, `INVALID_ARGUMENT` when another writer holds the lock
 */
export async function createIndexWriter(
  dir: string,
  config: IndexConfig,
  options: IndexWriterOptions = {},
): Promise<IndexWriter> {
  const resolved = resolveConfig(config)
  await mkdir(dir, { recursive: true })
  const release = await acquireWriteLock(dir)
  try {
    const manifest = await readManifest(dir)
    if (manifest !== null) {
      assertSameSchema(manifest.schema, resolved.schema, dir)
    }
    const writer = new Writer(dir, resolved, options, manifest, release)
    await writer.load()
    return writer
  } catch (error) {
    await release()
    if (error instanceof PubmatchError) {
      throw error
    }
    throw new PubmatchError('IO', `cannot open ${truncateForMessage(dir)} for writing`, {
      cause: error,
      details: { file: dir },
    })
  }
}
