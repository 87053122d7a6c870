/**
 * The engine's tests on the bundled sample corpus (`@pubmatch/sample-data`): real PubMed XML
 * (a 2016 MEDLINE chunk and NLM's 2006 sample, 692 citations), MeSH descriptors and PMC BioC full
 * texts, ingested and indexed as `pubmatch ingest` + `pubmatch index` do.
 */
import { join } from 'node:path'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel } from '@pubmatch/ltr'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import type { LabelledQuery } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import type { SearchEngine } from '../src/search-engine.ts'
import { trainModel } from '../src/training.ts'
import { updateIndex } from '../src/update-index.ts'

/** The sample's PubMed citations and MeSH descriptors. */
export const SAMPLE_PUBMED: readonly string[] = [
  samplePath('pubmed', 'medline16n0902.xml.gz'),
  samplePath('pubmed', 'medsamp2006.xml'),
  samplePath('mesh', 'desc-samples.xml'),
]

/** The sample's PMC full texts (BioC JSON). */
export const SAMPLE_BIOC: readonly string[] = ['PMC10142442', 'PMC10370681', 'PMC10719374', 'PMC11233762', 'PMC11500582'].map((name) =>
  samplePath('bioc', `${name}.json`),
)

/**
 * Ingests files into a corpus store (created if missing).
 * @param corpus - the corpus directory
 * @param paths - the files
 */
export async function ingest(corpus: string, paths: readonly string[]): Promise<void> {
  const store = await openCorpus(corpus, { create: true })
  try {
    await ingestFiles(store, [...paths], { readers: defaultReaders() })
  } finally {
    await store.close()
  }
}

/**
 * A corpus of `paths` in `<dir>/corpus` and its index in `<dir>/index`.
 * @param dir - a work directory
 * @param paths - the files to ingest. Defaults to {@link SAMPLE_PUBMED}.
 */
export async function sampleIndex(dir: string, paths: readonly string[] = SAMPLE_PUBMED): Promise<{ corpus: string; index: string }> {
  const corpus = join(dir, 'corpus')
  const index = join(dir, 'index')
  await ingest(corpus, paths)
  await updateIndex({ corpus, index })
  return { corpus, index }
}

/**
 * Fixture judgements, not an evaluation (the sample has none): one query per MeSH heading that at
 * least `minArticles` articles of the corpus carry, its text the heading's words (punctuation
 * dropped), and every article carrying the heading judged relevant (grade 1). Sorted by heading,
 * ids `mesh-<n>`.
 * @param corpus - the corpus directory
 * @param minArticles - how many articles a heading needs. Defaults to `2`.
 */
export async function meshQueries(corpus: string, minArticles = 2): Promise<LabelledQuery[]> {
  const store = await openCorpus(corpus, { readOnly: true })
  const carriers = new Map<string, string[]>()
  for await (const article of store.articles()) {
    for (const heading of article.mesh) {
      const ids = carriers.get(heading.descriptorName) ?? []
      ids.push(article.id)
      carriers.set(heading.descriptorName, ids)
    }
  }
  return [...carriers]
    .filter(([, ids]) => ids.length >= minArticles)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, ids], i) => ({
      id: `mesh-${i + 1}`,
      text: name.replace(/[^\p{L}\p{N}]+/gu, ' ').trim(),
      judgements: new Map(ids.map((id) => [id, 1])),
    }))
}

/**
 * A small Best Match model trained on fixture judgements (depth 50, 60 trees) and saved as a model
 * folder, as the Solr tests deploy it.
 * @param engine - the engine whose first stage gives the candidates
 * @param queries - the judgements, e.g. {@link meshQueries}
 * @param dir - the model folder to write
 * @param memory - with a query memory of `k` neighbours (M1–M3). Defaults to none.
 * @returns the trained model
 */
export async function trainSampleModel(
  engine: SearchEngine,
  queries: readonly LabelledQuery[],
  dir: string,
  memory?: { readonly k: number },
): Promise<Awaited<ReturnType<typeof trainModel>>> {
  const lightgbm = await loadLightGbm()
  try {
    const trained = await trainModel(engine, {
      lightgbm,
      queries,
      depth: 50,
      trees: 60,
      earlyStopping: 60,
      ...(memory === undefined ? {} : { memory }),
    })
    await saveBestMatchModel(dir, trained)
    return trained
  } finally {
    await lightgbm.terminate()
  }
}
