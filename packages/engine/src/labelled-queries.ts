import type { Qrels } from '@pubmatch/core'
import { readQrels } from '@pubmatch/eval'
import { readQueries } from '@pubmatch/ingest'
import type { LabelledQuery } from '@pubmatch/ltr'

/**
 * Queries with their judgements: every query of a `QID<TAB>text` file, with its qrels (a query
 * the qrels do not mention, or no qrels at all, gets no judgements).
 * @param queriesFile - QID<TAB>text lines
 * @param qrelsFile - TREC qrels. Defaults to none.
 */
export async function readLabelledQueries(queriesFile: string, qrelsFile?: string): Promise<LabelledQuery[]> {
  const queries = await readQueries(queriesFile)
  const qrels: Qrels = qrelsFile === undefined ? new Map<string, Map<string, number>>() : await readQrels(qrelsFile)
  return queries.map((query) => ({ id: query.id, text: query.text, judgements: qrels.get(query.id) ?? new Map<string, number>() }))
}
