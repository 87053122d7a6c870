/**
 * The benchmark's NFCorpus: `corpus.docs` read with `@pubmatch/ingest`'s NFCorpus reader, an
 * index with `testCollectionFields()` and the `biomedical` analyzer (the CLI's NFCorpus index),
 * the forward store of the same documents (as `pubmatch train` builds it from the corpus), and
 * the labelled train/dev title queries.
 */
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { abstractText, PubmatchError, type Article } from '@pubmatch/core'
import { readQrels } from '@pubmatch/eval'
import { createIndexWriter, openIndex, testCollectionFields, type IndexReader } from '@pubmatch/index'
import { readNfcorpusDocs, readQueries } from '@pubmatch/ingest'
import { createForwardIndexBuilder, type ForwardIndex, type LabelledQuery } from '@pubmatch/ltr'

/**
 * The shared data folder: `PUBMATCH_SHARED`, else `../shared/data/` beside the repository root.
 * @throws PubmatchError `NOT_FOUND` when it does not exist
 */
export function sharedDataDir(): string {
  const dir = process.env['PUBMATCH_SHARED'] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
  if (!existsSync(dir)) {
    throw new PubmatchError('NOT_FOUND', `@pubmatch/bench-ltr: shared data not found at ${dir} (set PUBMATCH_SHARED)`, {
      details: { file: dir },
    })
  }
  return dir
}

/** The built collection. */
export interface Collection {
  readonly indexDir: string
  readonly forwardFile: string
  readonly reader: IndexReader
  readonly forward: ForwardIndex
  readonly docCount: number
}

/**
 * Reads NFCorpus, builds a fresh index in `dir/index` and saves the forward store to
 * `dir/forward.pmf`.
 * @param shared - the shared data folder
 * @param dir - a work directory (its `index` is replaced)
 */
export async function buildCollection(shared: string, dir: string): Promise<Collection> {
  const articles: Article[] = []
  for await (const record of readNfcorpusDocs(join(shared, 'nfcorpus/corpus.docs'))) {
    if (record.kind === 'article') {
      articles.push(record.article)
    }
  }
  const indexDir = join(dir, 'index')
  await rm(indexDir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const writer = await createIndexWriter(indexDir, { fields: testCollectionFields({ analyzer: 'biomedical' }) })
  for (const article of articles) {
    await writer.addArticle(article)
  }
  await writer.commit()
  await writer.close()
  const reader = await openIndex(indexDir)
  const builder = createForwardIndexBuilder({ analyzer: reader.analyzer('title') })
  for (const article of articles) {
    builder.add({
      id: article.id,
      title: article.title,
      abstract: abstractText(article),
      mesh: article.mesh.map((heading) => heading.descriptorName),
    })
  }
  const forward = builder.finish()
  const forwardFile = join(dir, 'forward.pmf')
  await forward.save(forwardFile)
  return { indexDir, forwardFile, reader, forward, docCount: reader.docCount }
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
