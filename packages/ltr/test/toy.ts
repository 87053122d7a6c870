/**
 * A deterministic toy ranking world for tests of training, models and reranking: each query has
 * candidates whose first-stage order is noisy, and whose relevance depends on two of three
 * document features, so a LambdaMART model can learn to do better than the first stage.
 */
import { parseQuery, type FirstStageRanker, type SearchResult } from '@pubmatch/bm25f'
import { createRandom } from '@pubmatch/eval/internal'
import type { FeatureExtractor, FeatureSchema, LabelledQuery } from '../src/types.ts'

export const TOY_SCHEMA: FeatureSchema = {
  version: 'toy/1',
  features: ['quality', 'topicality', 'noise', 'first_stage'].map((name, column) => ({
    id: `T${column + 1}`,
    column,
    name,
    group: column === 3 ? 'query-document' : 'document',
    description: `toy feature ${name}`,
    neutral: 0,
  })),
}

interface ToyDoc {
  readonly id: string
  readonly quality: number
  readonly topicality: number
  readonly noise: number
}

export interface ToyWorld {
  readonly queries: LabelledQuery[]
  readonly searcher: FirstStageRanker
  readonly extractor: FeatureExtractor
}

/**
 * @param numQueries - queries
 * @param docsPerQuery - candidates per query
 * @param seed - PRNG seed
 */
export function createToyWorld(numQueries: number, docsPerQuery: number, seed: number): ToyWorld {
  const next = createRandom(seed)
  const random = (): number => next() / 2 ** 32
  const docs = new Map<string, ToyDoc>()
  const lists = new Map<string, Array<{ doc: ToyDoc; score: number }>>()
  const queries: LabelledQuery[] = []
  for (let q = 0; q < numQueries; q++) {
    const text = `query${seed}x${q}`
    const judgements = new Map<string, number>()
    const list: Array<{ doc: ToyDoc; score: number }> = []
    for (let d = 0; d < docsPerQuery; d++) {
      const doc: ToyDoc = { id: `D${seed}-${q}-${d}`, quality: random(), topicality: random(), noise: random() }
      docs.set(doc.id, doc)
      const utility = 0.6 * doc.quality + 0.4 * doc.topicality
      const grade = utility > 0.75 ? 2 : utility > 0.55 ? 1 : 0
      if (grade > 0) {
        judgements.set(doc.id, grade)
      }
      // the first stage sees relevance only weakly
      list.push({ doc, score: 0.3 * doc.topicality + 0.7 * random() })
    }
    list.sort((a, b) => b.score - a.score)
    lists.set(text, list)
    queries.push({ id: `q${q}`, text, judgements })
  }
  const searcher: FirstStageRanker = {
    search(query, options = {}): SearchResult {
      const text = typeof query === 'string' ? query : ''
      const list = (lists.get(text) ?? []).slice(0, options.limit ?? 500)
      return {
        hits: list.map((entry, i) => ({ id: entry.doc.id, docNumber: i, score: entry.score, rank: i + 1 })),
        total: list.length,
        totalRelation: 'eq',
        query: parseQuery('toy'),
        warnings: [],
        stats: { docsScored: list.length, postingsScored: list.length, docsMatched: list.length, windows: 0, blocksSkipped: 0, clauses: 1, pruned: false },
      }
    },
  }
  const extractor: FeatureExtractor = {
    schema: TOY_SCHEMA,
    extract(_query, result) {
      const data = new Float64Array(result.hits.length * 4)
      result.hits.forEach((hit, r) => {
        const doc = docs.get(hit.id)!
        data.set([doc.quality, doc.topicality, doc.noise, hit.score], r * 4)
      })
      return { numRows: result.hits.length, numFeatures: 4, data, ids: result.hits.map((hit) => hit.id) }
    },
  }
  return { queries, searcher, extractor }
}
