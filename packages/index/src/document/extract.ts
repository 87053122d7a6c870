import { PubmatchError, truncateForMessage, type Article } from '@pubmatch/core'
import type { FieldValue, StoredDocument } from '../schema/config.ts'
import type { ResolvedConfig } from '../schema/schema.ts'

/**
 * An article reduced to what the index stores, in schema order: the raw text values of each
 * field, the doc values and the stored record. Plain data, so it can be sent to a worker.
 */
export interface ExtractedDocument {
  readonly id: string
  /** Per field, its values (not yet analyzed). */
  readonly fields: readonly (readonly string[])[]
  /** Per numeric doc value, the value or `null`. */
  readonly numeric: readonly (number | null)[]
  /** Per sorted-set doc value, the distinct values. */
  readonly sets: readonly (readonly string[])[]
  readonly stored: StoredDocument
}

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

function values(value: FieldValue): readonly string[] {
  if (value === null || value === undefined) {
    return []
  }
  return typeof value === 'string' ? [value] : value
}

/**
 * Runs a config's extractors over an article. Pure function.
 * @param article - the article
 * @param config - the resolved config
 * @throws PubmatchError `INVALID_ARGUMENT` for an empty id or a doc value that is not an int32
 */
export function extractDocument(article: Article, config: ResolvedConfig): ExtractedDocument {
  const id = article.id
  if (typeof id !== 'string' || id === '') {
    throw new PubmatchError('INVALID_ARGUMENT', 'an article without an id cannot be indexed', {
      details: { record: truncateForMessage(String(article.title)) },
    })
  }
  const numeric = config.numericDocValues.map((dv) => {
    const value = dv.source(article)
    if (value === null || value === undefined) {
      return null
    }
    if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `document ${truncateForMessage(id)}: numeric doc value "${dv.name}" must be a 32-bit integer, got ${truncateForMessage(String(value))}`,
        { details: { record: id } },
      )
    }
    return value
  })
  return {
    id,
    fields: config.fields.map((field) => values(field.source(article))),
    numeric,
    sets: config.sortedSetDocValues.map((dv) => [...new Set(dv.source(article))]),
    stored: config.storedFields(article),
  }
}
