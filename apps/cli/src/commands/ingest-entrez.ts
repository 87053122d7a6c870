import { dirname, join, resolve } from 'node:path'
import {
  createEntrezClient,
  createResponseCache,
  ingestEntrez,
  type CorpusStore,
  type IngestSummary,
} from '@pubmatch/ingest'
import { PubmatchError } from '@pubmatch/core'
import type { Progress } from '../progress.ts'

/** The Entrez options of `pubmatch ingest`. */
export interface EntrezCliOptions {
  entrez?: string
  db: string
  max?: number
  batchSize: number
  apiKey?: string
  email?: string
  tool: string
  cache: boolean
  cacheDir?: string
  cacheTtl: number
  eutilsUrl?: string
  refresh?: boolean
}

/**
 * Runs `ingestEntrez` with a client configured from the command line (API key and e-mail
 * also from `$NCBI_API_KEY` / `$NCBI_EMAIL`), with a progress bar over records.
 * @param store - the open corpus
 * @param query - the PubMed query
 * @param options - parsed options
 * @param progress - progress output
 */
export async function ingestEntrezQuery(
  store: CorpusStore,
  query: string,
  options: EntrezCliOptions,
  progress: Progress,
): Promise<IngestSummary> {
  if (options.db !== 'pubmed') {
    throw new PubmatchError('INVALID_ARGUMENT', `ingest: --entrez supports --db pubmed only (got "${options.db}")`)
  }
  const apiKey = options.apiKey ?? process.env['NCBI_API_KEY']
  const email = options.email ?? process.env['NCBI_EMAIL']
  const cacheDir = options.cacheDir ?? join(dirname(resolve(store.dir)), 'entrez-cache')
  const client = createEntrezClient({
    apiKey,
    email,
    tool: options.tool,
    baseUrl: options.eutilsUrl,
    cache: options.cache ? createResponseCache(cacheDir, { ttlMs: options.cacheTtl * 3_600_000 }) : undefined,
    onRetry: (event) => {
      progress.log(
        `entrez: ${event.utility} attempt ${event.attempt} failed (${event.error.code}${event.status ? ` ${event.status}` : ''}); retrying in ${Math.round(event.delayMs)} ms`,
      )
    },
  })
  progress.log(`entrez: searching PubMed for ${JSON.stringify(query)}`)
  let done = 0
  return ingestEntrez(store, {
    client,
    query,
    max: options.max,
    batchSize: options.batchSize,
    refresh: options.refresh,
    onEvent: (event) => {
      switch (event.type) {
        case 'plan':
          progress.start(event.bytes, `entrez ${event.files} batch${event.files === 1 ? '' : 'es'}`)
          break
        case 'source-start':
          break
        case 'source-progress':
          done += event.records
          progress.update(done)
          break
        case 'source-failed':
          progress.log(`error: ${event.error.code}: ${event.error.message}`)
          break
        default:
          break
      }
    },
  })
}
