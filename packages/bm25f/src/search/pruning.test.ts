/**
 * Property test: on random indexes (several blocks per common term, several segments, deleted
 * documents), the pruned top k equals the exhaustive top k for random queries, rankers, parameters,
 * limits and tie-breaks.
 */
import { emptyArticle, type Article } from '@pubmatch/core'
import { createIndexWriter, openIndex, type FieldConfig, type IndexReader } from '@pubmatch/index'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import type { ScorerConfig } from '../scoring/scorer.ts'
import { createSearcher } from './searcher.ts'
import type { SearchOptions } from './types.ts'

const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i}`)

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Zipf-like words: w0 is in most documents, w39 in few. */
function words(next: () => number, count: number): string {
  return Array.from(
    { length: count },
    () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2.5)]!,
  ).join(' ')
}

function randomArticles(seed: number, count: number): Article[] {
  const next = random(seed)
  return Array.from({ length: count }, (_, i) => {
    const a = emptyArticle(`d${String(i).padStart(4, '0')}`, 'test-collection')
    a.title = words(next, 1 + Math.floor(next() * 8))
    // Some documents have no abstract (length 0 in that field).
    if (next() < 0.9) {
      a.abstract = [{ text: words(next, Math.floor(next() * 60)) }]
    }
    a.keywords = next() < 0.5 ? [{ text: words(next, 2), majorTopic: false }] : []
    return a
  })
}

const FIELDS: FieldConfig[] = [
  { name: 'title', analyzer: 'whitespace', source: (a) => a.title },
  { name: 'abstract', analyzer: 'whitespace', source: (a) => a.abstract.map((s) => s.text) },
  { name: 'keywords', analyzer: 'whitespace', source: (a) => a.keywords.map((k) => k.text) },
]

const rankerArbitrary: fc.Arbitrary<ScorerConfig> = fc.oneof(
  fc.record({
    name: fc.constant('bm25f' as const),
    params: fc.record({
      k1: fc.double({ min: 0.1, max: 3, noNaN: true }),
      b: fc.double({ min: 0, max: 1, noNaN: true }),
      fieldWeights: fc.record({
        title: fc.double({ min: 0, max: 10, noNaN: true }),
        keywords: fc.constantFrom(0, 1, 3),
      }),
      idf: fc.constantFrom('lucene' as const, 'rsj' as const),
    }),
  }),
  fc.record({
    name: fc.constant('bestmatch-s1' as const),
    params: fc.record({
      k1: fc.double({ min: 0.1, max: 3, noNaN: true }),
      b: fc.double({ min: 0, max: 1, noNaN: true }),
      fieldWeights: fc.record({ title: fc.double({ min: 0.5, max: 10, noNaN: true }) }),
    }),
  }),
  fc.record({
    name: fc.constant('bm25' as const),
    params: fc.record({
      k1: fc.double({ min: 0.1, max: 3, noNaN: true }),
      b: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  }),
  fc.record({
    name: fc.constant('xapian' as const),
    params: fc.record({
      k1: fc.double({ min: 0.1, max: 3, noNaN: true }),
      b: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  }),
  fc.record({
    name: fc.constant('dfr' as const),
    params: fc.record({ c: fc.double({ min: 0.1, max: 8, noNaN: true }) }),
  }),
  fc.record({
    name: fc.constant('tfidf' as const),
    params: fc.record({
      coord: fc.boolean(),
      norms: fc.constantFrom('exact' as const, 'byte315' as const, 'byte4' as const),
    }),
  }),
)

const word = fc.constantFrom(...VOCABULARY)
/** Bags of words, and Boolean shapes over them (phrases, tags, NOT, OR). */
const queryArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' ')),
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), word)
    .map(([ws, w]) => `(${ws.join(' OR ')}) NOT ${w}`),
  fc.tuple(word, word, word).map(([a, b, c]) => `"${a} ${b}" OR ${c}`),
  fc.tuple(word, word, word).map(([a, b, c]) => `${a}[ti] OR ${b}[tiab] OR ${c}`),
  fc.tuple(word, word).map(([a, b]) => `${a} AND ${b}`),
)

describe('pruned top k', () => {
  let single: IndexReader
  let segmented: IndexReader

  beforeAll(async () => {
    single = await suiteIndex(randomArticles(7, 700), { fields: FIELDS }, { forceMergeTo: 1 })
    const reader = await suiteIndex(
      randomArticles(11, 900),
      { fields: FIELDS },
      { maxBufferedDocs: 250 },
    )
    // Delete every seventh document (left in their segments until a merge).
    const writer = await createIndexWriter(reader.dir, { fields: FIELDS })
    for (let i = 0; i < 900; i += 7) {
      await writer.deleteArticle(`d${String(i).padStart(4, '0')}`)
    }
    await writer.close()
    segmented = await openIndex(reader.dir)
    expect(segmented.segments.length).toBeGreaterThan(1)
    expect(segmented.deletedCount).toBeGreaterThan(0)
  })

  it('equals the exhaustive top k on random queries, rankers and limits', () => {
    fc.assert(
      fc.property(
        queryArbitrary,
        rankerArbitrary,
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom('any' as const, 'all' as const),
        fc.constantFrom('docNumber' as const, 'idDescending' as const),
        fc.boolean(),
        (query, ranker, limit, match, tieBreak, useSegmented) => {
          const options: SearchOptions = { ranker, limit, match, tieBreak }
          const searcher = createSearcher(useSegmented ? segmented : single, options)
          const pruned = searcher.search(query)
          const exhaustive = searcher.search(query, { pruning: false })
          expect(pruned.hits).toEqual(exhaustive.hits)
          if (match === 'all') {
            expect(pruned.total).toBe(exhaustive.total)
          } else {
            expect(pruned.total).toBeLessThanOrEqual(exhaustive.total)
            expect(pruned.total).toBeGreaterThanOrEqual(pruned.hits.length)
          }
        },
      ),
      { numRuns: 300, seed: 20261122 },
    )
  })

  it('ranks term at a time exactly as the exhaustive loop (BM25F, large limits, truncation)', () => {
    const bm25fRanker = rankerArbitrary.filter((ranker) => ranker.name === 'bm25f')
    const truncated = fc
      .array(fc.oneof(word, fc.constantFrom('w1*', 'w2*', 'w3*')), { minLength: 1, maxLength: 5 })
      .map((ws) => ws.join(' '))
    let termAtATime = 0
    fc.assert(
      fc.property(
        fc.oneof(queryArbitrary, truncated),
        bm25fRanker,
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('docNumber' as const, 'idDescending' as const),
        fc.boolean(),
        (query, ranker, limit, tieBreak, useSegmented) => {
          const options: SearchOptions = { ranker, limit, match: 'any', tieBreak, parse: { minWildcardPrefix: 2 } }
          const searcher = createSearcher(useSegmented ? segmented : single, options)
          const fast = searcher.search(query)
          const exhaustive = searcher.search(query, { pruning: false })
          expect(fast.hits).toEqual(exhaustive.hits)
          if (fast.stats.strategy === 'termAtATime') {
            termAtATime++
            expect(fast.total).toBe(exhaustive.total)
            expect(fast.totalRelation).toBe('eq')
          }
        },
      ),
      { numRuns: 300, seed: 20261128 },
    )
    expect(termAtATime).toBeGreaterThan(100)
  })

  it('ranks conjunctions by intersection exactly as the exhaustive loop (BM25F, any limit, truncation)', () => {
    const bm25fRanker = rankerArbitrary.filter((ranker) => ranker.name === 'bm25f')
    const bag = fc
      .array(fc.oneof(word, word, fc.constantFrom('w1*', 'w2*', 'w3*')), { minLength: 1, maxLength: 5 })
      .map((ws) => ws.join(' '))
    let intersection = 0
    fc.assert(
      fc.property(
        fc.oneof(bag, bag, queryArbitrary),
        bm25fRanker,
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('docNumber' as const, 'idDescending' as const),
        fc.boolean(),
        fc.boolean(),
        (query, ranker, limit, tieBreak, exactTotal, useSegmented) => {
          const options: SearchOptions = {
            ranker,
            limit,
            match: 'all',
            tieBreak,
            exactTotal,
            parse: { minWildcardPrefix: 2 },
          }
          const searcher = createSearcher(useSegmented ? segmented : single, options)
          const fast = searcher.search(query)
          const exhaustive = searcher.search(query, { pruning: false })
          expect(fast.hits.map((h) => h.id)).toEqual(exhaustive.hits.map((h) => h.id))
          fast.hits.forEach((hit, i) => expect(Object.is(hit.score, exhaustive.hits[i]!.score)).toBe(true))
          if (fast.stats.strategy === 'intersection') {
            intersection++
            expect(fast.total).toBe(exhaustive.total)
            expect(fast.totalRelation).toBe('eq')
          } else if (exactTotal) {
            expect(fast.total).toBe(exhaustive.total)
          }
        },
      ),
      { numRuns: 400, seed: 20261128 },
    )
    expect(intersection).toBeGreaterThan(100)
  })

  it('counts the exact total of any query as the exhaustive loop does (deleted documents, truncation, Booleans)', () => {
    const truncated = fc
      .array(fc.oneof(word, fc.constantFrom('w1*', 'w2*', 'w3*')), { minLength: 1, maxLength: 5 })
      .map((ws) => ws.join(' '))
    fc.assert(
      fc.property(
        fc.oneof(queryArbitrary, truncated),
        fc.constantFrom('any' as const, 'all' as const),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        (query, match, limit, useSegmented) => {
          const options: SearchOptions = { limit, match, parse: { minWildcardPrefix: 2 } }
          const searcher = createSearcher(useSegmented ? segmented : single, options)
          const exact = searcher.search(query, { exactTotal: true })
          const exhaustive = searcher.search(query, { pruning: false })
          expect(exact.total).toBe(exhaustive.total)
          expect(exact.totalRelation).toBe('eq')
          expect(exact.hits).toEqual(exhaustive.hits)
        },
      ),
      { numRuns: 300, seed: 20261128 },
    )
  })

  it('skips blocks and scores fewer postings than the exhaustive loop', () => {
    const searcher = createSearcher(single, { match: 'any', limit: 10 })
    const query = 'w0 w1 w2 w30 w35'
    const pruned = searcher.search(query)
    const exhaustive = searcher.search(query, { pruning: false })
    expect(pruned.hits).toEqual(exhaustive.hits)
    expect(pruned.stats.blocksSkipped + pruned.stats.windows).toBeGreaterThan(0)
    expect(pruned.stats.postingsScored).toBeLessThan(exhaustive.stats.postingsScored)
    expect(pruned.totalRelation).toBe('gte')
    expect(exhaustive.totalRelation).toBe('eq')
    expect(searcher.search(query, { exactTotal: true }).total).toBe(exhaustive.total)
  })
})
