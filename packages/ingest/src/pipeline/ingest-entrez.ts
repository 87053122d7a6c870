import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isPubmatchError, json, PubmatchError, toPubmatchError, type JsonShape } from '@pubmatch/core'
import type { EntrezClient } from '../entrez/client.ts'
import { parsePubmedXmlString } from '../pubmed/reader.ts'
import type { IngestRecord } from '../records.ts'
import { readJsonFile, writeFileAtomic } from '@pubmatch/core/node'
import type { CorpusStore } from '../store/corpus-store.ts'
import { addCounts, emptySummary, type IngestEvent, type IngestSummary } from './ingest-files.ts'

/** Options of {@link ingestEntrez}. */
export interface IngestEntrezOptions {
  /** The client (its cache, rate limit and retries apply). */
  client: EntrezClient
  /** A PubMed query in PubMed syntax. */
  query: string
  /** Ingest at most this many records (the first ones ESearch returns). Defaults to all. */
  max?: number
  /** Ids per EFetch request. Defaults to `200`. */
  batchSize?: number
  /**
   * Search again even if this query's id list was saved by an earlier (possibly interrupted)
   * run. Defaults to `false`: a re-run resumes with the same ids.
   */
  refresh?: boolean
  /** Called for every {@link IngestEvent}; each batch is a source. */
  onEvent?: (event: IngestEvent) => void
  /** Stops between batches (and aborts the request in flight). */
  signal?: AbortSignal
}

/** The id list of a query, saved so that a resumed run fetches the same records. */
interface SavedSearch {
  query: string
  db: 'pubmed'
  count: number
  ids: string[]
  split: boolean
  searchedAt: string
}

/**
 * Ingests the results of a PubMed query from NCBI E-utilities: ESearch (split by date when
 * the result set is above ESearch's 9,999-record cap), then EFetch in batches, each batch a
 * source of the corpus. The id list is saved in the corpus (`entrez/<hash>.json`) before the
 * first batch, so an interrupted run resumes at the first batch not yet stored. Ids EFetch
 * does not return are reported as per-record `NOT_FOUND` errors.
 * @param store - the corpus to write
 * @param options - client, query, limits, progress
 * @throws PubmatchError `CORPUS_CORRUPTED` when the saved id list is not JSON or not of its shape
 *   (`refresh` searches again), `ABORTED` when `signal` stops it
 */
export async function ingestEntrez(store: CorpusStore, options: IngestEntrezOptions): Promise<IngestSummary> {
  const summary = emptySummary()
  const emit = options.onEvent ?? (() => undefined)
  const batchSize = options.batchSize ?? 200
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `batch size must be a positive integer, got ${batchSize}`)
  }
  const queryKey = createHash('sha1')
    .update(`pubmed\n${options.query}\n${options.max ?? 'all'}`)
    .digest('hex')
    .slice(0, 16)
  const savedPath = join(store.dir, 'entrez', `${queryKey}.json`)
  let saved = options.refresh ? undefined : await readSavedSearch(savedPath)
  if (!saved) {
    const result = await options.client.searchAll({ db: 'pubmed', term: options.query }, { signal: options.signal })
    const ids = options.max === undefined ? [...result.ids] : result.ids.slice(0, options.max)
    saved = {
      query: options.query,
      db: 'pubmed',
      count: result.count,
      ids,
      split: result.split,
      searchedAt: new Date().toISOString(),
    }
    await mkdir(join(store.dir, 'entrez'), { recursive: true })
    await writeFileAtomic(savedPath, `${JSON.stringify(saved)}\n`)
  }

  const batches: string[][] = []
  for (let start = 0; start < saved.ids.length; start += batchSize) {
    batches.push(saved.ids.slice(start, start + batchSize))
  }
  emit({ type: 'plan', files: batches.length, bytes: saved.ids.length })
  for (const [index, ids] of batches.entries()) {
    if (options.signal?.aborted) {
      throw new PubmatchError('ABORTED', 'interrupted; run the same command again to resume')
    }
    const key = `entrez:pubmed:${queryKey}:${index * batchSize}`
    const fingerprint = `ids:${createHash('sha1').update(ids.join(',')).digest('hex')}`
    if (store.completedSource(key, fingerprint)) {
      summary.resumed++
      emit({ type: 'source-unchanged', key })
      continue
    }
    emit({ type: 'source-start', key, format: 'pubmed-xml', bytes: ids.length })
    try {
      const body = await options.client.efetch({ db: 'pubmed', ids, retmode: 'xml' }, { signal: options.signal })
      const label = `efetch pubmed ${ids[0] ?? ''}…${ids.at(-1) ?? ''} (batch ${index + 1}/${batches.length})`
      const records = withMissing(parsePubmedXmlString(body, { file: label }), ids, label)
      const entry = await store.writeSource({ key, fingerprint }, records)
      addCounts(summary, entry.counts)
      summary.sources++
      emit({ type: 'source-progress', key, bytesRead: ids.length, records: ids.length })
      emit({ type: 'source-done', key, entry })
    } catch (error) {
      if (isPubmatchError(error, 'ABORTED')) {
        throw error
      }
      const failure = isPubmatchError(error) ? error : toPubmatchError(error)
      summary.failedSources++
      summary.errors++
      emit({ type: 'source-failed', key, error: failure })
    }
  }
  return summary
}

/** Appends a `NOT_FOUND` error for every requested id that the answer did not contain. */
function withMissing(records: IngestRecord[], requested: readonly string[], label: string): IngestRecord[] {
  const seen = new Set<string>()
  for (const record of records) {
    if (record.kind === 'article') {
      seen.add(record.article.id)
    } else if (record.kind === 'delete') {
      for (const deleted of record.deleted) {
        seen.add(deleted.id)
      }
    } else if (record.kind === 'error' && typeof record.error.details.record === 'string') {
      seen.add(record.error.details.record)
    }
  }
  const missing = requested.filter((id) => !seen.has(id))
  return [
    ...records,
    ...missing.map(
      (id): IngestRecord => ({
        kind: 'error',
        error: new PubmatchError('NOT_FOUND', `${label}: EFetch returned no record for PMID ${id}`, {
          details: { file: label, record: id },
        }),
      }),
    ),
  ]
}

const SAVED_SEARCH: JsonShape<SavedSearch> = json.object({
  query: json.string,
  db: json.literal('pubmed'),
  count: json.count,
  ids: json.array(json.string),
  split: json.boolean,
  searchedAt: json.string,
})

/** The saved id list of a query; `undefined` before its first run. */
async function readSavedSearch(path: string): Promise<SavedSearch | undefined> {
  try {
    return await readJsonFile(path, SAVED_SEARCH, { code: 'CORPUS_CORRUPTED' })
  } catch (error) {
    if (isPubmatchError(error, 'NOT_FOUND')) {
      return undefined
    }
    if (isPubmatchError(error, 'CORPUS_CORRUPTED')) {
      // searching again silently could fetch other records than the batches already stored
      throw new PubmatchError('CORPUS_CORRUPTED', `${error.message}; search again with \`refresh\` (\`pubmatch ingest --entrez … --refresh\`)`, {
        cause: error,
        details: error.details,
      })
    }
    throw error
  }
}
