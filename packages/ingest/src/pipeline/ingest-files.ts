import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { PubmatchError, isPubmatchError, toPubmatchError } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import { emptyCounts, type CorpusStore, type SourceCounts, type SourceEntry } from '../store/corpus-store.ts'
import { detectFormat, expectsArticles, type InputFormat } from './detect-format.ts'

/**
 * Reads one file of a known format. `onBytes` reports how many bytes of the (possibly
 * compressed) file have been consumed so far, for progress bars.
 */
export type FileReader = (path: string, onBytes: (bytesRead: number) => void) => AsyncIterable<IngestRecord>

/** A reader for each input format. */
export type FileReaders = Record<InputFormat, FileReader>

/** What happens during an ingest, for progress bars and logs. */
export type IngestEvent =
  | { type: 'plan'; files: number; bytes: number }
  | { type: 'source-start'; key: string; format: InputFormat; bytes: number }
  | { type: 'source-progress'; key: string; bytesRead: number; records: number }
  | { type: 'source-done'; key: string; entry: SourceEntry }
  /** Already ingested with the same content: resumed past it. */
  | { type: 'source-unchanged'; key: string }
  /** Holds no articles (README, DTD, qrels…). */
  | { type: 'source-skipped'; key: string; reason: string }
  /** Could not be read at all. */
  | { type: 'source-failed'; key: string; error: PubmatchError }

/** The totals of an ingest run. */
export interface IngestSummary extends SourceCounts {
  /** Sources written in this run. */
  sources: number
  /** Sources skipped because they were already ingested with the same content. */
  resumed: number
  /** Files that hold no articles. */
  skipped: number
  /** Files that could not be read at all (each also counts in `errors`). */
  failedSources: number
}

/**
 * How an ingest went, for exit statuses and summaries:
 * - `complete`: every input was read (files that hold no articles are skipped, not failed);
 * - `partial`: something was stored or was already there, but some records or files failed;
 * - `failed`: errors, and nothing usable: no record stored or already ingested;
 * - `empty`: no errors, but nothing to ingest either (every file was skipped).
 */
export type IngestOutcome = 'complete' | 'partial' | 'failed' | 'empty'

/**
 * The {@link IngestOutcome} of a summary.
 * @param summary - the totals of an ingest run
 */
export function ingestOutcome(summary: IngestSummary): IngestOutcome {
  const stored =
    summary.added +
    summary.updated +
    summary.unchanged +
    summary.stale +
    summary.deleted +
    summary.deletedUnknown +
    summary.fullTexts +
    summary.derived +
    summary.mesh
  const usable = stored > 0 || summary.resumed > 0
  if (summary.errors === 0) {
    return usable ? 'complete' : 'empty'
  }
  return usable ? 'partial' : 'failed'
}

/** Options of {@link ingestFiles}. */
export interface IngestFilesOptions {
  /** How to read each format. */
  readers: FileReaders
  /** Forces a format instead of detecting it per file. */
  format?: InputFormat
  /** Called for every {@link IngestEvent}. */
  onEvent?: (event: IngestEvent) => void
  /** Re-read sources even if they were ingested with the same content. Defaults to `false`. */
  force?: boolean
  /** Stops between sources when aborted. */
  signal?: AbortSignal
}

/** An empty {@link IngestSummary}. */
export function emptySummary(): IngestSummary {
  return {
    ...emptyCounts(),
    sources: 0,
    resumed: 0,
    skipped: 0,
    failedSources: 0,
  }
}

/**
 * Adds one source's counts to a summary.
 * @param summary - the running totals (modified)
 * @param counts - one source's counts
 */
export function addCounts(summary: IngestSummary, counts: SourceCounts): void {
  for (const key of Object.keys(counts) as Array<keyof SourceCounts>) {
    summary[key] += counts[key]
  }
}

/**
 * Ingests files and directories (walked recursively, in sorted order) into a corpus. Each
 * file is one source: written completely or not at all, and skipped on the next run when its
 * content has not changed, so an interrupted ingest resumes where it stopped. A file that
 * cannot be read is reported and the others carry on; so is each bad record.
 * @param store - the corpus to write
 * @param paths - files and directories
 * @param options - readers, format override, progress
 */
export async function ingestFiles(
  store: CorpusStore,
  paths: readonly string[],
  options: IngestFilesOptions,
): Promise<IngestSummary> {
  const summary = emptySummary()
  const emit = options.onEvent ?? (() => undefined)
  const files: Array<{ path: string; explicit: boolean; size: number }> = []
  for (const path of paths) {
    const absolute = resolve(path)
    let info
    try {
      info = await stat(absolute)
    } catch (error) {
      throw new PubmatchError('NOT_FOUND', `cannot read ${path}: ${(error as Error).message}`, {
        cause: error,
        details: { file: absolute },
      })
    }
    if (info.isDirectory()) {
      for (const file of await walk(absolute)) {
        files.push({ path: file, explicit: false, size: (await stat(file)).size })
      }
    } else {
      files.push({ path: absolute, explicit: true, size: info.size })
    }
  }
  emit({ type: 'plan', files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) })

  for (const file of files) {
    if (options.signal?.aborted) {
      throw new PubmatchError('ABORTED', 'interrupted; run the same command again to resume')
    }
    const key = file.path
    try {
      const detection = options.format ? { format: options.format } : await detectFormat(file.path)
      if (detection.format === null) {
        // A file named on the command line must be readable; inside a directory, a file whose
        // extension promises articles but whose content is unreadable is an error, while
        // recognised non-article data (E-utilities answers, qrels, README…) is skipped.
        if (file.explicit || (expectsArticles(file.path) && !detection.known)) {
          const code = detection.empty ? 'EMPTY_INPUT' : 'UNSUPPORTED_FORMAT'
          throw new PubmatchError(code, `${file.path}: ${detection.reason}`, { details: { file: file.path } })
        }
        summary.skipped++
        emit({ type: 'source-skipped', key, reason: detection.reason })
        continue
      }
      const format = detection.format
      const fingerprint = await fingerprintFile(file.path)
      if (!options.force && store.completedSource(key, fingerprint)) {
        summary.resumed++
        emit({ type: 'source-unchanged', key })
        continue
      }
      emit({ type: 'source-start', key, format, bytes: file.size })
      let bytesRead = 0
      let records = 0
      let lastReport = 0
      const reader = options.readers[format]
      const entry = await store.writeSource({ key, fingerprint }, reader(file.path, (n) => (bytesRead = n)), () => {
        records++
        if (records - lastReport >= 500) {
          lastReport = records
          emit({ type: 'source-progress', key, bytesRead, records })
        }
      })
      emit({ type: 'source-progress', key, bytesRead: file.size, records })
      addCounts(summary, entry.counts)
      if (records === 0) {
        // well-formed, but no record in it (an empty <PubmedArticleSet>): recorded as done, so
        // that a re-run skips it, and counted with the files that hold no articles
        summary.skipped++
        emit({ type: 'source-skipped', key, reason: 'the file holds no records' })
        continue
      }
      summary.sources++
      emit({ type: 'source-done', key, entry })
    } catch (error) {
      if (isPubmatchError(error, 'ABORTED')) {
        throw error
      }
      const failure = isPubmatchError(error)
        ? error
        : toPubmatchError(error, (error as NodeJS.ErrnoException).code ? 'IO' : 'INTERNAL')
      summary.failedSources++
      summary.errors++
      emit({ type: 'source-failed', key, error: failure })
      await keepFailure(store, key, file.path, failure, options.force === true)
    }
  }
  return summary
}

/**
 * Keeps a file that could not be read at all in the corpus's error list, like a bad record: as
 * a source holding one error, marked with the file's fingerprint so that running the same ingest
 * again reports it again but does not store it twice. A file that cannot even be read for its
 * fingerprint is only reported.
 */
async function keepFailure(store: CorpusStore, key: string, path: string, failure: PubmatchError, force: boolean): Promise<void> {
  let fingerprint: string
  try {
    fingerprint = `failed:${await fingerprintFile(path)}`
  } catch {
    return
  }
  if (!force && store.completedSource(key, fingerprint)) {
    return
  }
  const error =
    failure.details.file === undefined
      ? new PubmatchError(failure.code, failure.message, { cause: failure, details: { ...failure.details, file: path } })
      : failure
  await store.writeSource({ key, fingerprint }, [{ kind: 'error', error }])
}

/**
 * Identifies a file's content: SHA-1 of its bytes and its size. Re-ingesting a file with
 * the same fingerprint is skipped.
 * @param path - the file
 */
export async function fingerprintFile(path: string): Promise<string> {
  const hash = createHash('sha1')
  let size = 0
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return `sha1:${hash.digest('hex')}:${size}`
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = []
  const entries = await readdir(dir, { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    if (entry.name.startsWith('.')) {
      continue
    }
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      out.push(...(await walk(path)))
    } else if (entry.isFile()) {
      out.push(path)
    }
  }
  return out
}
