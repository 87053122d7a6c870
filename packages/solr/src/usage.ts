/**
 * Past usage (Best Match F2–F3) in a collection: a click log's per-article counts of abstract
 * views and full-text requests, written into the numeric doc values {@link USAGE_FIELDS} by Solr's
 * in-place updates (`update.partial.requireInPlace=true`: an update Solr could only do by
 * re-indexing the whole article is refused, never done, so no indexed-only field is ever lost).
 * The shards' rank query reads them as the embedded engine reads `openSearch({ usageLog })`.
 */
import { PubmatchError } from '@pubmatch/core'
import type { SolrClient } from './client.ts'
import { ARTICLE_FIELD, USAGE_FIELDS } from './configset.ts'
import { readCollectionState } from './indexer.ts'
import { idSeparator } from './rerank.ts'

/** A click log's past usage: what `readUsage(logDir)` of `@pubmatch/ltr` returns (its `UsageCounts`). */
export interface LogUsage {
  /** The counts of every action of the log. */
  readonly total: {
    abstractClicks(id: string): number
    fullTextRequests(id: string): number
  }
  /** The documents with any action. */
  readonly ids: readonly string[]
}

/** Options of {@link pushUsage}. */
export interface PushUsageOptions {
  readonly client: SolrClient
  readonly collection: string
  /** The counts (`readUsage(logDir)` of `@pubmatch/ltr`). */
  readonly usage: LogUsage
  /** Documents per update request. Defaults to `1000`. */
  readonly batchSize?: number
  /** Called after each batch: documents done of the log's. */
  readonly onProgress?: (done: number, total: number) => void
}

/** What {@link pushUsage} did. */
export interface PushUsageResult {
  /** Documents with any action in the log. */
  readonly documents: number
  /** Of those, the articles of the collection whose counts were written. */
  readonly updated: number
  /** Articles of the collection with usage from an earlier push and none in this log: set to 0. */
  readonly reset: number
  /** Documents of the log the collection does not hold (not written: an update would create them). */
  readonly unknown: number
  /** The first 20 of them. */
  readonly unknownIds: readonly string[]
}

/**
 * Makes a collection's past usage the log's: every article of the log gets its counts, every other
 * article with counts from an earlier push gets 0; then a commit. Run it again after re-indexing
 * articles (a re-indexed article starts at 0).
 * @param options - see {@link PushUsageOptions}
 * @throws PubmatchError `NOT_FOUND` (no indexed collection), `SCHEMA_MISMATCH` (a collection of another
 *   schema version: index it again), `UPSTREAM_HTTP` when Solr refuses an update (e.g. one it could
 *   not do in place)
 */
export async function pushUsage(options: PushUsageOptions): Promise<PushUsageResult> {
  const { client, collection, usage } = options
  const state = await readCollectionState(client, collection)
  if (state === undefined) {
    throw new PubmatchError('NOT_FOUND', `collection ${collection} holds no corpus indexed by pubmatch (pubmatch index --solr)`)
  }
  const batchSize = options.batchSize ?? 1000
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `batchSize must be a whole number ≥ 1, got ${batchSize}`)
  }
  const ids = usage.ids
  let updated = 0
  const unknownIds: string[] = []
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize)
    const present = await existing(client, collection, batch)
    const docs = batch
      .filter((id) => {
        if (!present.has(id)) {
          unknownIds.push(id)
          return false
        }
        return true
      })
      .map((id) => usageUpdate(id, usage.total.abstractClicks(id), usage.total.fullTextRequests(id)))
    if (docs.length > 0) {
      await inPlace(client, collection, docs)
      updated += docs.length
    }
    options.onProgress?.(Math.min(start + batchSize, ids.length), ids.length)
  }
  // articles whose counts came from an earlier log
  const inLog = new Set(ids)
  const stale = (await withUsage(client, collection)).filter((id) => !inLog.has(id))
  for (let start = 0; start < stale.length; start += batchSize) {
    await inPlace(
      client,
      collection,
      stale.slice(start, start + batchSize).map((id) => usageUpdate(id, 0, 0)),
    )
  }
  await client.request({ path: `${collection}/update`, params: { commit: 'true', waitSearcher: 'true' } })
  return { documents: ids.length, updated, reset: stale.length, unknown: unknownIds.length, unknownIds: unknownIds.slice(0, 20) }
}

function usageUpdate(id: string, abstractClicks: number, fullTextRequests: number): Record<string, unknown> {
  return {
    id,
    [USAGE_FIELDS.abstractClicks]: { set: abstractClicks },
    [USAGE_FIELDS.fullTextRequests]: { set: fullTextRequests },
  }
}

async function inPlace(client: SolrClient, collection: string, docs: readonly Record<string, unknown>[]): Promise<void> {
  await client.request({ path: `${collection}/update`, params: { 'update.partial.requireInPlace': 'true' }, body: docs })
}

/** Which of `ids` the collection holds (articles only: the state and vocabulary documents have no usage). */
async function existing(client: SolrClient, collection: string, ids: readonly string[]): Promise<Set<string>> {
  const separator = idSeparator(ids)
  const response = await client.request({
    path: `${collection}/select`,
    body: {
      params: {
        q: '{!terms f=id separator=$pm.idsep v=$pm.ids}',
        fq: `${ARTICLE_FIELD}:1`,
        'pm.ids': ids.join(separator),
        'pm.idsep': separator,
        fl: 'id',
        rows: ids.length,
        wt: 'json',
      },
    },
  })
  return new Set(responseIds(response))
}

/** The articles with any past usage (either count above 0), every page of them. */
async function withUsage(client: SolrClient, collection: string): Promise<string[]> {
  const ids: string[] = []
  let cursor = '*'
  for (;;) {
    const response = await client.request({
      path: `${collection}/select`,
      params: {
        q: '*:*',
        fq: `{!frange l=1}sum(field(${USAGE_FIELDS.abstractClicks}),field(${USAGE_FIELDS.fullTextRequests}))`,
        fl: 'id',
        rows: 1000,
        sort: 'id asc',
        cursorMark: cursor,
        wt: 'json',
      },
    })
    ids.push(...responseIds(response))
    const next = (response as { nextCursorMark?: unknown }).nextCursorMark
    if (typeof next !== 'string' || next === cursor) {
      return ids
    }
    cursor = next
  }
}

function responseIds(response: Record<string, unknown>): string[] {
  const docs = (response as { response?: { docs?: unknown } }).response?.docs
  if (!Array.isArray(docs)) {
    throw new PubmatchError('MALFORMED_JSON', 'Solr answered a select without response.docs')
  }
  return docs.map((doc: unknown) => String((doc as { id?: unknown }).id))
}
