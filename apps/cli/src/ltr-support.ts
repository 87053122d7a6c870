/**
 * What the second-stage commands share: the forward store kept beside an index, feature
 * extractors with past usage from a click log, and labelled queries from files.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { abstractText, PubmatchError, type Qrels } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { openCorpus, readQueries } from '@pubmatch/ingest'
import type { IndexReader } from '@pubmatch/index'
import { QUESTION_STOPWORDS, type QuerySyntax } from '@pubmatch/bm25f'
import { readQrels } from '@pubmatch/eval'
import {
  createFeatureExtractor,
  createForwardIndexBuilder,
  createLogStore,
  documentUsage,
  loadForwardIndex,
  normalizeQuery,
  type DocumentUsage,
  type FeatureExtractor,
  type ForwardIndex,
  type LabelledQuery,
  type LogEvent,
} from '@pubmatch/ltr'
import type { IndexSettings } from './commands/index.ts'
import type { Progress } from './progress.ts'

const FORWARD_FILE = 'forward.pmf'
const FORWARD_META = 'forward.json'

interface ForwardMeta {
  generation: number
  docCount: number
  analyzer: string
}

/**
 * The forward store (token streams of title, abstract and MeSH) of an index, rebuilt from the
 * index's corpus when missing or older than the index (`forward.pmf` + `forward.json` in the
 * index directory, both written crash-safely).
 * @param indexDir - the index directory
 * @param reader - the open index
 * @param settings - its settings (for the corpus path)
 * @param progress - progress output for a rebuild
 */
export async function openForwardIndex(
  indexDir: string,
  reader: IndexReader,
  settings: IndexSettings,
  progress?: Progress,
): Promise<ForwardIndex> {
  const file = join(indexDir, FORWARD_FILE)
  const metaFile = join(indexDir, FORWARD_META)
  const analyzer = reader.analyzer('title').name
  if (existsSync(file) && existsSync(metaFile)) {
    const meta = JSON.parse(await readFile(metaFile, 'utf8')) as ForwardMeta
    if (meta.generation === reader.generation && meta.docCount === reader.docCount && meta.analyzer === analyzer) {
      return loadForwardIndex(file)
    }
  }
  if (!existsSync(settings.corpus)) {
    throw new PubmatchError(
      'NOT_FOUND',
      `features: the index's corpus ${settings.corpus} is gone; the forward store (document text for the features) is built from it`,
    )
  }
  const store = await openCorpus(settings.corpus, { readOnly: true })
  const builder = createForwardIndexBuilder({ analyzer: reader.analyzer('title') })
  progress?.start(reader.docCount, 'forward store')
  let n = 0
  for await (const article of store.articles()) {
    if (reader.docNumber(article.id) === undefined) {
      continue
    }
    builder.add({
      id: article.id,
      title: article.title,
      abstract: abstractText(article),
      mesh: article.mesh.map((heading) => heading.descriptorName),
    })
    n += 1
    if (n % 1000 === 0) {
      progress?.update(n)
    }
  }
  progress?.update(n)
  progress?.stop()
  const forward = builder.finish()
  await forward.save(file)
  const meta: ForwardMeta = { generation: reader.generation, docCount: reader.docCount, analyzer }
  await writeFileAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`)
  return forward
}

/** Past usage from a click log, overall and per (normalised) query. */
export interface UsageCounts {
  readonly total: DocumentUsage
  /** Usage without one query's own clicks (so a training query does not see its own labels). */
  without(queryText: string): DocumentUsage
}

/**
 * Reads a click log's past-usage counts (Best Match F2–F3).
 * @param dir - the log directory
 */
export async function readUsage(dir: string): Promise<UsageCounts> {
  if (!existsSync(dir)) {
    throw new PubmatchError('NOT_FOUND', `usage: no click log at ${dir}`)
  }
  const { events } = await createLogStore(dir).readAll()
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
  return {
    total,
    without(queryText) {
      const mine = documentUsage(own.get(normalizeQuery(queryText)) ?? [])
      return {
        abstractClicks: (id) => total.abstractClicks(id) - mine.abstractClicks(id),
        fullTextRequests: (id) => total.fullTextRequests(id) - mine.fullTextRequests(id),
      }
    },
  }
}

/**
 * The extractor of the 179 features for an index. With plain-text queries (test collections)
 * the query's question words are dropped as the first stage drops them, so both stages see the
 * same query terms.
 * @param reader - the open index
 * @param forward - its forward store
 * @param syntax - how the first stage reads queries
 * @param usage - past usage (F2–F3); none gives 0
 */
export function featureExtractor(
  reader: IndexReader,
  forward: ForwardIndex,
  syntax: QuerySyntax | undefined,
  usage?: DocumentUsage,
): FeatureExtractor {
  return createFeatureExtractor({
    reader,
    forward,
    ...(syntax === 'plain' ? { queryStopwords: QUESTION_STOPWORDS } : {}),
    ...(usage === undefined ? {} : { usage }),
  })
}

/**
 * Queries with their judgements: every query of the file, with its qrels (none: no judgements).
 * @param queriesFile - QID<TAB>text lines
 * @param qrelsFile - TREC qrels, optional
 */
export async function readLabelledQueries(queriesFile: string, qrelsFile?: string): Promise<LabelledQuery[]> {
  const queries = await readQueries(queriesFile)
  const qrels: Qrels = qrelsFile === undefined ? new Map<string, Map<string, number>>() : await readQrels(qrelsFile)
  return queries.map((query) => ({ id: query.id, text: query.text, judgements: qrels.get(query.id) ?? new Map<string, number>() }))
}
