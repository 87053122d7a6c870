/**
 * Past usage from a search log (Best Match F2–F3): how often each document was opened from
 * search results, overall and without one query's own actions (so that a training query never
 * learns from the clicks that made its labels).
 */
import { existsSync } from 'node:fs'
import { PubmatchError } from '@pubmatch/core'
import type { DocumentUsage } from '../types.ts'
import type { LogEvent } from './log-format.ts'
import { createLogStore } from './log-store.ts'
import { documentUsage, normalizeQuery } from './pipeline.ts'

/** Past usage from a click log, overall and per (normalised) query. */
export interface UsageCounts {
  /** Every action of the log. */
  readonly total: DocumentUsage
  /** The documents with any action in the log, in the order first acted on. */
  readonly ids: readonly string[]
  /**
   * The usage without the actions on searches of this query (normalised as `normalizeQuery` does).
   * @param queryText - the query as typed
   */
  without(queryText: string): DocumentUsage
}

/**
 * Counts past usage from log events.
 * @param events - a log's events (searches and the actions on their results)
 */
export function usageCounts(events: readonly LogEvent[]): UsageCounts {
  const total = documentUsage(events)
  const queryOf = new Map<string, string>()
  const own = new Map<string, LogEvent[]>()
  for (const event of events) {
    if (event.type === 'search') {
      queryOf.set(event.id, normalizeQuery(event.query))
    } else {
      const key = queryOf.get(event.search)
      if (key !== undefined) {
        const list = own.get(key) ?? []
        list.push(event)
        own.set(key, list)
      }
    }
  }
  const cache = new Map<string, DocumentUsage>()
  return {
    total,
    ids: total.ids,
    without(queryText) {
      const key = normalizeQuery(queryText)
      const cached = cache.get(key)
      if (cached !== undefined) {
        return cached
      }
      const mine = documentUsage(own.get(key) ?? [])
      const usage: DocumentUsage = {
        abstractClicks: (id) => total.abstractClicks(id) - mine.abstractClicks(id),
        fullTextRequests: (id) => total.fullTextRequests(id) - mine.fullTextRequests(id),
      }
      cache.set(key, usage)
      return usage
    },
  }
}

/**
 * Reads a log directory's past usage. Lines that cannot be used are skipped (`problems` says which).
 * @param dir - the log directory
 * @throws PubmatchError `NOT_FOUND` when there is no log there
 */
export async function readUsage(dir: string): Promise<UsageCounts> {
  if (!existsSync(dir)) {
    throw new PubmatchError('NOT_FOUND', `no click log at ${dir}`)
  }
  const { events } = await createLogStore(dir).readAll()
  return usageCounts(events)
}
