/**
 * Fixtures of the server's tests on the bundled sample (`@pubmatch/sample-data`): a corpus
 * ingested from sample files, its index, and small Best Match models trained on it. The models'
 * judgements are derived from the sample (a query is a MeSH heading; the relevant articles are
 * those indexed with it): they are fixtures that make valid models for the routes to serve, not an
 * evaluation of anything.
 */
import { join } from 'node:path'
import { trainModel as trainEngineModel, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel, type LabelledQuery } from '@pubmatch/ltr'

/**
 * Ingests files into a corpus store (created when missing).
 * @param corpus - the corpus directory
 * @param files - PubMed XML, BioC JSON, MeSH XML, …
 */
export async function ingest(corpus: string, files: readonly string[]): Promise<void> {
  const store = await openCorpus(corpus, { create: true })
  try {
    await ingestFiles(store, [...files], { readers: defaultReaders() })
  } finally {
    await store.close()
  }
}

/**
 * Ingests files into `dir/corpus` and indexes them into `dir/index`.
 * @param dir - the test's directory
 * @param files - what to ingest
 * @returns the index directory
 */
export async function sampleIndex(dir: string, files: readonly string[]): Promise<string> {
  await ingest(join(dir, 'corpus'), files)
  await updateIndex({ corpus: join(dir, 'corpus'), index: join(dir, 'index') })
  return join(dir, 'index')
}

/**
 * Queries derived from a corpus's MeSH indexing: each heading carried by `min` to `max` articles
 * is a query (its name), and those articles are its relevant documents (grade 1). Fixture
 * judgements for training a model, not relevance judgements.
 * @param corpus - the corpus directory
 * @param range - how many articles a heading needs. Defaults to 3 to 30.
 */
export async function meshHeadingQueries(corpus: string, range: { readonly min?: number; readonly max?: number } = {}): Promise<LabelledQuery[]> {
  const articles = new Map<string, Set<string>>()
  const store = await openCorpus(corpus)
  try {
    for await (const article of store.articles()) {
      for (const heading of article.mesh) {
        const ids = articles.get(heading.descriptorName) ?? new Set<string>()
        ids.add(article.id)
        articles.set(heading.descriptorName, ids)
      }
    }
  } finally {
    await store.close()
  }
  const min = range.min ?? 3
  const max = range.max ?? 30
  return [...articles]
    .filter(([, ids]) => ids.size >= min && ids.size <= max)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, ids]) => ({ id: `mesh:${name}`, text: name, judgements: new Map([...ids].map((id) => [id, 1])) }))
}

/**
 * Trains a small Best Match model over an engine's index and first stage and saves it.
 * @param engine - an engine over the index (its first stage is the one the model records)
 * @param queries - the training queries
 * @param dir - the model directory to write
 */
export async function trainModel(engine: SearchEngine, queries: readonly LabelledQuery[], dir: string): Promise<void> {
  const lightgbm = await loadLightGbm()
  try {
    const trained = await trainEngineModel(engine, { lightgbm, queries, depth: 30, trees: 15, earlyStopping: 10 })
    await saveBestMatchModel(dir, trained)
  } finally {
    await lightgbm.terminate()
  }
}
