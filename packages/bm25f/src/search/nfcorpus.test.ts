/**
 * The searcher on NFCorpus (real data): the reference scores of shared/data/reference/nfcorpus-bm25
 * through the whole pipeline (index → query → top-k), and pruned top-k = exhaustive top-k for every
 * dev query and every ranker.
 */
import { readFileSync } from 'node:fs'
import type { Article } from '@pubmatch/core'
import { testCollectionFields, type IndexReader } from '@pubmatch/index'
// eslint-disable-next-line no-restricted-imports -- test only: reads the real corpus and queries
import { readNfcorpusDocs, readQueries } from '@pubmatch/ingest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { SCORER_NAMES, type ScorerConfig } from '../scoring/scorer.ts'
import { createSearcher } from './searcher.ts'
import type { SearchOptions } from './types.ts'

async function corpus(): Promise<Article[]> {
  const articles: Article[] = []
  for await (const record of readNfcorpusDocs(sharedDataPath('nfcorpus', 'corpus.docs'))) {
    if (record.kind === 'article') {
      articles.push(record.article)
    }
  }
  return articles
}

/** The reference variants as scorer configurations (README of the reference folder). */
const VARIANTS: Readonly<Record<string, ScorerConfig>> = {
  bestmatch: { name: 'bestmatch-s1' },
  'rz-rsj': { name: 'bm25f', params: { idf: 'rsj' } },
  'rz-lucene': { name: 'bm25f' },
  'bm25-lucene': { name: 'bm25' },
  xapian: { name: 'xapian' },
}

describe('createSearcher on NFCorpus (real data)', { tags: ['real-data'] }, () => {
  let whitespace: IndexReader
  let biomedical: IndexReader

  beforeAll(async () => {
    const articles = await corpus()
    // Several segments, as a real build leaves them.
    whitespace = await suiteIndex(
      articles,
      { fields: testCollectionFields({ analyzer: 'whitespace' }) },
      { maxBufferedDocs: 1000 },
    )
    biomedical = await suiteIndex(articles, {
      fields: testCollectionFields({ analyzer: 'biomedical' }),
    })
  })

  it('reproduces all 225 reference scores with the reference tokenisation', () => {
    const lines = readFileSync(
      sharedDataPath('reference', 'nfcorpus-bm25', 'dev_pairs.tsv'),
      'utf8',
    )
      .trim()
      .split('\n')
      .slice(1)
    const tokens = new Map(
      readFileSync(sharedDataPath('reference', 'nfcorpus-bm25', 'dev_query_tokens.tsv'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split('\t') as [string, string]),
    )
    // variant → qid → [docid, score] by rank
    const reference = new Map<string, Map<string, [string, number][]>>()
    for (const line of lines) {
      const [variant, qid, docId, rank, score] = line.split('\t') as [
        string,
        string,
        string,
        string,
        string,
      ]
      const byQuery = reference.get(variant) ?? new Map<string, [string, number][]>()
      reference.set(variant, byQuery)
      const list = byQuery.get(qid) ?? []
      list[Number(rank) - 1] = [docId, Number(score)]
      byQuery.set(qid, list)
    }
    expect([...reference.keys()].sort()).toEqual(Object.keys(VARIANTS).sort())
    let compared = 0
    let worst = 0
    // The reference tokens are final: no query stop words on top.
    const searcher = createSearcher(whitespace, {
      match: 'any',
      syntax: 'plain',
      limit: 5,
      queryStopwords: false,
    })
    for (const [variant, byQuery] of reference) {
      for (const [qid, expected] of byQuery) {
        const hits = searcher.search(tokens.get(qid)!, { ranker: VARIANTS[variant]! }).hits
        expect(hits).toHaveLength(expected.length)
        hits.forEach((hit, i) => {
          const [docId, score] = expected[i]!
          const error = Math.abs(hit.score - score) / score
          worst = Math.max(worst, error)
          expect(error).toBeLessThan(1e-9)
          // Same document, or a tie (equal reference scores, e.g. MED-5065/MED-4553 for PLAIN-1017).
          if (hit.id !== docId) {
            const tie = expected.find(([id]) => id === hit.id)
            expect(tie?.[1]).toBe(score)
          }
          compared++
        })
      }
    }
    expect(compared).toBe(225)
    expect(worst).toBeLessThan(1e-12)
  })

  it('returns exactly the exhaustive top k for every dev query and every ranker', async () => {
    const queries = await readQueries(sharedDataPath('nfcorpus', 'dev', 'q-titles.queries'))
    expect(queries).toHaveLength(325)
    const base: SearchOptions = { match: 'any', syntax: 'plain' }
    let pruned = 0
    let exhaustive = 0
    let skipped = 0
    const check = (reader: IndexReader, options: SearchOptions): void => {
      const searcher = createSearcher(reader, { ...base, ...options })
      for (const query of queries) {
        const fast = searcher.search(query.text)
        const full = searcher.search(query.text, { pruning: false })
        expect(fast.hits, `${query.id} ${JSON.stringify(options)}`).toEqual(full.hits)
        expect(full.totalRelation).toBe('eq')
        expect(fast.total).toBeLessThanOrEqual(full.total)
        pruned += fast.stats.postingsScored
        exhaustive += full.stats.postingsScored
        skipped += fast.stats.blocksSkipped
      }
    }
    for (const ranker of SCORER_NAMES) {
      check(biomedical, { ranker, limit: 10 })
      check(whitespace, { ranker, limit: 100 })
    }
    check(biomedical, { ranker: 'bm25f', limit: 500 })
    check(biomedical, { ranker: 'bm25f', limit: 20, tieBreak: 'idDescending' })
    check(biomedical, { ranker: { name: 'bm25f', params: { idf: 'rsj' } }, limit: 20 })
    check(biomedical, { ranker: 'tfidf', limit: 20, match: 'all' })
    // Pruning does skip work on this small corpus.
    expect(pruned).toBeLessThan(exhaustive)
    expect(skipped).toBeGreaterThan(0)
  })

  it('ranks term at a time exactly as document at a time: same ids, scores and totals', async () => {
    const queries = await readQueries(sharedDataPath('nfcorpus', 'dev', 'q-titles.queries'))
    let termAtATime = 0
    const others = new Set<string>()
    const check = (reader: IndexReader, options: SearchOptions): void => {
      const searcher = createSearcher(reader, { match: 'any', syntax: 'plain', ...options })
      for (const query of queries) {
        const fast = searcher.search(query.text)
        const full = searcher.search(query.text, { pruning: false })
        if (fast.stats.strategy === 'termAtATime') {
          termAtATime++
        } else {
          others.add(`${query.id} ${fast.stats.strategy} ${fast.total} ${query.text}`)
        }
        expect(full.stats.strategy).not.toBe('termAtATime')
        const label = `${query.id} ${JSON.stringify(options)}`
        expect(fast.hits.map((h) => h.id), label).toEqual(full.hits.map((h) => h.id))
        // Bit for bit: Object.is on every score.
        fast.hits.forEach((hit, i) => expect(Object.is(hit.score, full.hits[i]!.score), label).toBe(true))
        expect(fast.total, label).toBe(full.total)
        expect(fast.totalRelation, label).toBe('eq')
      }
    }
    check(biomedical, { limit: 1000 })
    check(biomedical, { limit: 500, tieBreak: 'idDescending' })
    check(whitespace, { limit: 1000, ranker: { name: 'bm25f', params: { idf: 'rsj', k1Plus1: true } } })
    // Truncated words: several postings of one clause in one field.
    const truncated = createSearcher(biomedical, { match: 'any', limit: 500 })
    for (const query of ['diet* cancer', 'vitamin* suppl*', 'chol* OR eggs']) {
      const fast = truncated.search(query)
      const full = truncated.search(query, { pruning: false })
      expect(fast.stats.strategy).toBe('termAtATime')
      expect(fast.hits).toEqual(full.hits)
      expect(fast.total).toBe(full.total)
    }
    // Every dev query goes term at a time but one whose words are all stop words.
    expect([...others]).toEqual(['PLAIN-164 none 0 down but not out'])
    expect(termAtATime).toBe(3 * (queries.length - 1))
  })

  it('ranks conjunctions by intersection exactly as document at a time: same ids, scores and totals', async () => {
    const queries = await readQueries(sharedDataPath('nfcorpus', 'dev', 'q-titles.queries'))
    let intersection = 0
    const check = (reader: IndexReader, options: SearchOptions): void => {
      const searcher = createSearcher(reader, { match: 'all', syntax: 'plain', ...options })
      for (const query of queries) {
        const fast = searcher.search(query.text)
        const full = searcher.search(query.text, { pruning: false })
        const label = `${query.id} ${JSON.stringify(options)}`
        // Two words or more: by intersection; one: term at a time (a disjunction of its fields).
        const clauses = fast.stats.clauses
        expect(fast.stats.strategy, label).toBe(
          clauses >= 2 ? 'intersection' : clauses === 1 ? 'termAtATime' : 'none',
        )
        if (fast.stats.strategy === 'intersection') {
          intersection++
        }
        expect(full.stats.strategy).toBe(clauses === 0 ? 'none' : 'documentAtATime')
        expect(fast.hits.map((h) => h.id), label).toEqual(full.hits.map((h) => h.id))
        // Bit for bit: Object.is on every score.
        fast.hits.forEach((hit, i) => expect(Object.is(hit.score, full.hits[i]!.score), label).toBe(true))
        expect(fast.total, label).toBe(full.total)
        expect(fast.totalRelation, label).toBe('eq')
      }
    }
    check(biomedical, { limit: 1000 })
    check(biomedical, { limit: 500 })
    check(biomedical, { limit: 1000, tieBreak: 'idDescending' })
    check(biomedical, { limit: 500, tieBreak: 'idDescending' })
    // Without exact totals (the log-bag cell's options) and a large limit, still by intersection.
    check(biomedical, { limit: 500, exactTotal: false })
    // Several segments, another analyzer and idf.
    check(whitespace, { limit: 1000, ranker: { name: 'bm25f', params: { idf: 'rsj', k1Plus1: true } } })
    // Truncated words: several postings of one clause in one field.
    const truncated = createSearcher(biomedical, { match: 'all', limit: 500 })
    for (const query of ['diet* cancer', 'vitamin* suppl*', 'chol* eggs']) {
      const fast = truncated.search(query)
      const full = truncated.search(query, { pruning: false })
      expect(fast.stats.strategy, query).toBe('intersection')
      expect(fast.hits).toEqual(full.hits)
      expect(fast.total).toBe(full.total)
    }
    expect(intersection).toBeGreaterThan(4 * 200)
  })
})
