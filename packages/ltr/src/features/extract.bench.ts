/**
 * Feature extraction time for 500 first-stage candidates on NFCorpus (3,394 documents,
 * biomedical analyzer, dev title queries with a full top 500).
 * Run: `pnpm --filter @pubmatch/ltr exec vitest bench --run src/features/extract.bench.ts`
 * (needs the shared data set at ../shared/data).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSearcher, type SearchResult } from '@pubmatch/bm25f'
import { emptyArticle } from '@pubmatch/core'
import { createIndexWriter, openIndex, testCollectionFields } from '@pubmatch/index'
import { afterAll, bench, describe } from 'vitest'
import { createFeatureExtractor } from './extract.ts'
import { buildForwardIndex, type ForwardDocument } from './forward.ts'

const DATA = join(import.meta.dirname, '../../../../../shared/data/nfcorpus')

async function setup(): Promise<{ extract: () => void; queryCount: number; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'pubmatch-features-bench-'))
  const docs: ForwardDocument[] = []
  for (const line of (await readFile(join(DATA, 'corpus.docs'), 'utf8')).split('\n')) {
    const [id, text] = line.split('\t')
    if (id === undefined || text === undefined) {
      continue
    }
    const cut = ` ${text} `.indexOf(' abstract ')
    const title = cut < 0 ? text : text.slice(0, Math.max(0, cut - 1))
    const abstract = cut < 0 ? '' : text.slice(cut + 9)
    docs.push({ id, title, abstract })
  }
  const writer = await createIndexWriter(dir, { fields: testCollectionFields({ analyzer: 'biomedical' }) })
  for (const doc of docs) {
    const article = emptyArticle(doc.id, 'test-collection')
    article.title = doc.title
    article.abstract = doc.abstract === '' ? [] : [{ text: doc.abstract }]
    await writer.addArticle(article)
  }
  await writer.commit()
  await writer.close()
  const reader = await openIndex(dir)
  const forward = buildForwardIndex(docs, { analyzer: reader.analyzer('title') })
  const searcher = createSearcher(reader, { match: 'any', syntax: 'plain', limit: 500 })
  const queries: { text: string; result: SearchResult }[] = []
  for (const line of (await readFile(join(DATA, 'dev/q-titles.queries'), 'utf8')).split('\n')) {
    const text = line.split('\t')[1]
    if (text !== undefined) {
      const result = searcher.search(text)
      if (result.hits.length === 500) {
        queries.push({ text, result })
      }
    }
  }
  const extractor = createFeatureExtractor({ reader, forward })
  let next = 0
  return {
    extract: () => {
      const { text, result } = queries[next++ % queries.length]!
      extractor.extract(text, result)
    },
    queryCount: queries.length,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  }
}

const state = await setup()
afterAll(state.cleanup)

// Per-call latency distribution (tinybench reports no median): 5 rounds after a warm-up round.
{
  const times: number[] = []
  for (let i = 0; i < state.queryCount * 6; i++) {
    const start = performance.now()
    state.extract()
    if (i >= state.queryCount) {
      times.push(performance.now() - start)
    }
  }
  times.sort((a, b) => a - b)
  const at = (q: number): string => times[Math.floor(q * (times.length - 1))]!.toFixed(3)
  console.log(`extract × 500 candidates over ${state.queryCount} queries: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`)
}

describe('feature extraction, NFCorpus dev, 500 candidates', () => {
  bench('extract 179 features × 500 candidates', state.extract, { time: 3000 })
})
