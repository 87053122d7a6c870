/**
 * The stored records an engine has read lately, kept parsed: reading one from the index inflates
 * its block of 16 compressed records and parses its JSON (the largest part of a result page's
 * cost after the ranking), and the records of popular results are asked for again and again. A
 * generation's records never change, so the cache belongs to the index parts an engine reads: a
 * new model (`withModel`) keeps it, a new generation (`reopenSearch`) starts an empty one.
 */
import { PubmatchError } from '@pubmatch/core'
import type { StoredDocument } from '@pubmatch/index'

/** How many parsed records an engine keeps by default (`recordCache` of `openSearch`). */
export const DEFAULT_RECORD_CACHE = 16_384

/** Stored records by document number, the least recently used dropped first. */
export interface RecordCache {
  /**
   * A document's stored record: the kept one, else read with `read` (and kept).
   * @param doc - the document number
   */
  get(doc: number): StoredDocument
  /** Records kept now. */
  readonly size: number
  /** Reads answered from the cache and from the index since it was made. */
  readonly stats: { readonly hits: number; readonly misses: number }
}

/**
 * A record cache over a reader of stored records.
 * @param read - reads a record from the index (`IndexReader.stored`)
 * @param capacity - records kept at most; `0` keeps none (every read goes to the index)
 * @throws PubmatchError `INVALID_ARGUMENT` when `capacity` is not a non-negative whole number
 */
export function createRecordCache(read: (doc: number) => StoredDocument, capacity: number): RecordCache {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `recordCache must be a non-negative whole number of records, got ${String(capacity)}`)
  }
  // a Map iterates in insertion order: a record read again moves to the end, the first is the oldest
  const kept = new Map<number, StoredDocument>()
  const stats = { hits: 0, misses: 0 }
  return {
    get(doc) {
      const record = kept.get(doc)
      if (record !== undefined) {
        stats.hits++
        kept.delete(doc)
        kept.set(doc, record)
        return record
      }
      stats.misses++
      const fresh = read(doc)
      if (capacity > 0) {
        if (kept.size >= capacity) {
          kept.delete(kept.keys().next().value!)
        }
        kept.set(doc, fresh)
      }
      return fresh
    },
    get size() {
      return kept.size
    },
    stats,
  }
}
