/**
 * The benchmark's NFCorpus, opened through the engine as the CLI opens it (a corpus store, an
 * index with the test-collection fields and the `biomedical` analyzer, the forward store beside
 * it), and the labelled train/dev title queries.
 */
import { join } from 'node:path'
import { engineInternals, FORWARD_FILE } from '@pubmatch/engine/internal'
import { readQrels } from '@pubmatch/eval'
import type { IndexReader } from '@pubmatch/index'
import { readQueries } from '@pubmatch/ingest'
import type { ForwardIndex, LabelledQuery } from '@pubmatch/ltr'
import { openNfcorpus } from './effectiveness.ts'

/** The shared data folder (see @pubmatch/bench-kit). */
export { sharedDataDir } from '@pubmatch/bench-kit'

/** The built collection. */
export interface Collection {
  readonly indexDir: string
  readonly forwardFile: string
  readonly reader: IndexReader
  readonly forward: ForwardIndex
  readonly docCount: number
}

/**
 * NFCorpus as `pubmatch ingest` + `pubmatch index` leave it (`openNfcorpus` of
 * `effectiveness.ts`: a corpus store, `updateIndex`, `openSearch`), with the forward store the
 * engine keeps beside the index.
 * @param shared - the shared data folder
 * @param dir - a work directory
 */
export async function buildCollection(shared: string, dir: string): Promise<Collection> {
  const { engine, indexDir } = await openNfcorpus(shared, dir)
  const { reader, forwardStore } = engineInternals(engine)
  const forward = await forwardStore()
  return { indexDir, forwardFile: join(indexDir, FORWARD_FILE), reader, forward, docCount: reader.docCount }
}

/**
 * Queries with their judgements (queries without any get an empty map).
 * @param queriesFile - QID<TAB>text lines
 * @param qrelsFile - TREC qrels
 */
export async function readLabelledQueries(queriesFile: string, qrelsFile: string): Promise<LabelledQuery[]> {
  const queries = await readQueries(queriesFile)
  const qrels = await readQrels(qrelsFile)
  return queries.map((query) => ({ id: query.id, text: query.text, judgements: qrels.get(query.id) ?? new Map<string, number>() }))
}
