/**
 * Pseudo relevance feedback as part of the first stage: the first stage's top candidates ranked
 * again under the query expanded (Rocchio) from their own top documents.
 */
import type { Analyzer } from '@pubmatch/analysis'
import type { Candidate, SearchResult } from '@pubmatch/bm25f'
import { indexCandidates, startSession, type FeedbackSettings, type Ranking } from '@pubmatch/feedback'
import type { IndexReader } from '@pubmatch/index'

/** Pseudo relevance feedback as part of the first stage. */
export interface PrfOptions {
  /** First-stage candidates the expanded query re-ranks. Defaults to `1000`. */
  readonly candidates?: number
  /** How the candidates are re-ranked. Defaults to `borda` (TF-IDF, BM25 and the first stage). */
  readonly ranking?: Ranking
  /** IDF from the whole index or from the candidates. Defaults to `global`. */
  readonly idf?: 'global' | 'local'
  /** Weights of the fused rankings. Defaults to 1 each. */
  readonly weights?: FeedbackSettings['weights']
}

/** First-stage candidates PRF re-ranks by default. */
export const PRF_CANDIDATES = 1000

/** The first stage's result re-ordered by the PRF-expanded query, and the terms it added. */
export interface PrfResult {
  readonly result: SearchResult
  /** The expanded query vector's terms, heaviest first. */
  readonly terms: ReadonlyArray<readonly [string, number]>
}

/**
 * The PRF options a search asked for, or `undefined` for none.
 * @param prf - `true` (the defaults), options, or `false`/`undefined` (off)
 */
export function prfOptions(prf: boolean | PrfOptions | undefined): PrfOptions | undefined {
  return prf === undefined || prf === false ? undefined : prf === true ? {} : prf
}

/**
 * Re-orders a first-stage result by pseudo relevance feedback: the query vector is expanded by
 * Rocchio from the top 10 documents of the re-ranked candidates and the candidates (the first
 * `options.candidates` hits) are ranked again; hits past them follow in first-stage order. Each hit
 * keeps its first-stage score (what a model's features read); ranks are the new order.
 * @param reader - the index the result comes from
 * @param analyzer - the analyzer of its text fields
 * @param query - the query text
 * @param result - the first stage's result (its hits are the candidates)
 * @param options - see {@link PrfOptions}
 */
export function applyPrf(reader: IndexReader, analyzer: Analyzer, query: string, result: SearchResult, options: PrfOptions = {}): PrfResult {
  if (result.hits.length === 0) {
    return { result, terms: [] }
  }
  // exactly the first `candidates` hits, whatever page was asked for: the rest keep first-stage order
  const n = options.candidates ?? PRF_CANDIDATES
  const head = result.hits.slice(0, n)
  const tail = result.hits.slice(n)
  const candidates = indexCandidates(
    reader,
    head.map((hit) => hit.docNumber),
  )
  const session = startSession({
    query,
    candidates,
    analyzer,
    prf: true,
    ranking: options.ranking ?? 'borda',
    idf: options.idf ?? 'global',
    ...(options.weights === undefined ? {} : { weights: options.weights }),
  })
  const byId = new Map(head.map((hit) => [hit.id, hit]))
  const hits: Candidate[] = [...session.ranking().map((entry) => byId.get(entry.id)!), ...tail].map((hit, i) => ({ ...hit, rank: i + 1 }))
  const terms = [...session.vector].sort((a, b) => b[1] - a[1])
  return { result: { ...result, hits }, terms }
}
