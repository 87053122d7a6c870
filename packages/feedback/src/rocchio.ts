/**
 * Query vectors and how feedback changes them (Niesink 2017): the initial vector of a query,
 * document vectors of feedback documents, Rocchio's update for pseudo feedback (the top documents
 * taken as relevant) and for graded explicit feedback (non-relevant, relevant, highly relevant),
 * and the few unstemmed words a remote (Entrez) query is expanded with.
 */
import type { Analyzer } from '@pubmatch/analysis'
import { bm25LengthNorm, classicIdf, lucene6Bm25, luceneIdf } from '@pubmatch/bm25f/internal'
import { PubmatchError } from '@pubmatch/core'
import type { CandidateSet } from './candidates.ts'
import type { IdfMode, QueryVector, RerankerName } from './rerank.ts'

/**
 * The vector of a query: its analysed (stemmed) terms, each weighted twice its TF-IDF in the query
 * (`2 · √qtf · (1 + ln(N/(df+1)))`): a heavier start, so that feedback terms drift it slowly.
 * @param text - the query text
 * @param analyzer - the index's analyzer
 * @param set - the candidates (for IDF)
 * @param idf - IDF source. Defaults to `global`.
 */
export function initialQueryVector(text: string, analyzer: Analyzer, set: CandidateSet, idf: IdfMode = 'global'): Map<string, number> {
  const counts = new Map<string, number>()
  for (const token of analyzer.analyze(text)) {
    counts.set(token.term, (counts.get(token.term) ?? 0) + 1)
  }
  const out = new Map<string, number>()
  for (const [term, qtf] of counts) {
    const [n, df] = idf === 'local' ? [set.size, set.localDocFreq(term)] : [set.collectionSize, set.globalDocFreq(term)]
    out.set(term, 2 * Math.sqrt(qtf) * classicIdf(n, df))
  }
  return out
}

/** Options of {@link documentVector}. */
export interface DocumentVectorOptions {
  /** Which per-term score weighs the terms. Defaults to `tfidf`. */
  readonly scoring?: RerankerName
  /** IDF source. Defaults to `global`. */
  readonly idf?: IdfMode
  /** Terms shorter than this (analysed) are left out. Defaults to `3`. */
  readonly minTermLength?: number
  /**
   * Terms whose score is below this are left out. Defaults to `2.0` for `tfidf` and `0.3` for
   * `bm25` (the thesis's tuned thresholds).
   */
  readonly minScore?: number
}

/**
 * A feedback document as a vector: each of its analysed terms (length ≥ 3) weighted by the term's
 * own score in it — Lucene TF-IDF `√tf · idf² / √|d|`, or BM25 `idf · tf·(k1+1)/(tf + k1·(1−b+b·|d|/avgdl))`
 * — keeping the terms that score at least `minScore`.
 * @param set - the candidates
 * @param i - the document's position in the set
 * @param options - see {@link DocumentVectorOptions}
 */
export function documentVector(set: CandidateSet, i: number, options: DocumentVectorOptions = {}): Map<string, number> {
  const scoring = options.scoring ?? 'tfidf'
  const idf = options.idf ?? 'global'
  const minLength = options.minTermLength ?? 3
  const minScore = options.minScore ?? (scoring === 'tfidf' ? 2.0 : 0.3)
  const length = set.lengths[i]!
  const out = new Map<string, number>()
  for (const [term, tf] of set.document(i).terms) {
    if ([...term].length < minLength) {
      continue
    }
    const [n, df] = idf === 'local' ? [set.size, set.localDocFreq(term)] : [set.collectionSize, set.globalDocFreq(term)]
    let score: number
    if (scoring === 'tfidf') {
      const w = classicIdf(n, df)
      score = (Math.sqrt(tf) * w * w) / Math.sqrt(length)
    } else {
      // BM25 with the re-ranker's k1 1.2 and b 0.75
      score = lucene6Bm25(luceneIdf(n, df), tf, 1.2, bm25LengthNorm(1.2, 0.75, (0.75 * length) / (set.avgLength || 1)))
    }
    if (score >= minScore) {
      out.set(term, score)
    }
  }
  return out
}

/** A class of feedback documents and its weight in Rocchio's sum. */
export interface FeedbackClass {
  /** The documents' vectors. */
  readonly vectors: ReadonlyArray<ReadonlyMap<string, number>>
  /** The weight of the class centroid; negative subtracts it. */
  readonly weight: number
}

/** Options of {@link rocchio}. */
export interface RocchioOptions {
  /** The weight of the query. Defaults to `1`. */
  readonly alpha?: number
  /** Most terms kept (the original query's terms are kept while positive). Defaults to `30`. */
  readonly maxTerms?: number
}

/**
 * Rocchio's update: `α·q + Σ_c weight_c · centroid(c)`, negative weights dropped, then the
 * `maxTerms` heaviest terms (the query's own terms always, while their weight stays positive).
 * @param query - the current query vector
 * @param classes - feedback classes with their centroid weights
 * @param options - α and the term limit
 */
export function rocchio(query: QueryVector, classes: readonly FeedbackClass[], options: RocchioOptions = {}): Map<string, number> {
  const alpha = options.alpha ?? 1
  const maxTerms = options.maxTerms ?? 30
  if (!Number.isInteger(maxTerms) || maxTerms < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `maxTerms must be a positive integer, got ${maxTerms}`)
  }
  const sum = new Map<string, number>()
  for (const [term, weight] of query) {
    sum.set(term, alpha * weight)
  }
  for (const { vectors, weight } of classes) {
    if (vectors.length === 0 || weight === 0) {
      continue
    }
    const share = weight / vectors.length
    for (const vector of vectors) {
      for (const [term, value] of vector) {
        sum.set(term, (sum.get(term) ?? 0) + share * value)
      }
    }
  }
  const positive = [...sum].filter(([, weight]) => weight > 0)
  const own = positive.filter(([term]) => query.has(term))
  const others = positive
    .filter(([term]) => !query.has(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(0, maxTerms - own.length))
  return new Map([...own, ...others])
}

/** The thesis's tuned weights of graded explicit feedback. */
export const ERF_DEFAULTS = { a: 1.0, b: 0.3, c: 0.1, f: 5.0, maxTerms: 30 } as const

/** The thesis's tuned settings of pseudo relevance feedback. */
export const PRF_DEFAULTS = { documents: 10, alpha: 1.0, beta: 0.3, maxTerms: 20 } as const

/** Graded judgements of explicit feedback. */
export type FeedbackGrade = 'non-relevant' | 'relevant' | 'highly-relevant'

/** The grades as words, for forms and files. */
export const FEEDBACK_GRADES: readonly FeedbackGrade[] = ['non-relevant', 'relevant', 'highly-relevant']

/** Options of {@link explicitFeedback}. */
export interface ExplicitFeedbackOptions extends DocumentVectorOptions {
  /** Query weight. Defaults to `1.0`. */
  readonly a?: number
  /** Relevant centroid weight. Defaults to `0.3`. */
  readonly b?: number
  /** Non-relevant centroid weight (subtracted). Defaults to `0.1`. */
  readonly c?: number
  /** The highly relevant centroid weighs `f · b`. Defaults to `5.0`. */
  readonly f?: number
  /** Most terms kept. Defaults to `30`. */
  readonly maxTerms?: number
}

/**
 * Graded explicit feedback: `a·q + b·C(relevant) + f·b·C(highly relevant) − c·C(non-relevant)`.
 * @param query - the current query vector
 * @param set - the candidates
 * @param grades - candidate position → grade
 * @param options - weights and document-vector options; see {@link ExplicitFeedbackOptions}
 */
export function explicitFeedback(
  query: QueryVector,
  set: CandidateSet,
  grades: ReadonlyMap<number, FeedbackGrade>,
  options: ExplicitFeedbackOptions = {},
): Map<string, number> {
  const b = options.b ?? ERF_DEFAULTS.b
  const byGrade = (grade: FeedbackGrade): Array<Map<string, number>> =>
    [...grades].filter(([, g]) => g === grade).map(([i]) => documentVector(set, i, options))
  return rocchio(
    query,
    [
      { vectors: byGrade('relevant'), weight: b },
      { vectors: byGrade('highly-relevant'), weight: (options.f ?? ERF_DEFAULTS.f) * b },
      { vectors: byGrade('non-relevant'), weight: -(options.c ?? ERF_DEFAULTS.c) },
    ],
    { alpha: options.a ?? ERF_DEFAULTS.a, maxTerms: options.maxTerms ?? ERF_DEFAULTS.maxTerms },
  )
}

/** Options of {@link pseudoFeedback}. */
export interface PseudoFeedbackOptions extends DocumentVectorOptions {
  /** Query weight. Defaults to `1.0`. */
  readonly alpha?: number
  /** Centroid weight. Defaults to `0.3`. */
  readonly beta?: number
  /** Most terms kept. Defaults to `20`. */
  readonly maxTerms?: number
}

/**
 * Pseudo relevance feedback: Rocchio with the given top documents taken as relevant.
 * @param query - the current query vector
 * @param set - the candidates
 * @param top - positions of the top documents (the thesis takes 10)
 * @param options - α, β, term limit and document-vector options
 */
export function pseudoFeedback(query: QueryVector, set: CandidateSet, top: readonly number[], options: PseudoFeedbackOptions = {}): Map<string, number> {
  return rocchio(query, [{ vectors: top.map((i) => documentVector(set, i, options)), weight: options.beta ?? PRF_DEFAULTS.beta }], {
    alpha: options.alpha ?? PRF_DEFAULTS.alpha,
    maxTerms: options.maxTerms ?? PRF_DEFAULTS.maxTerms,
  })
}

/** Options of {@link remoteExpansionWords}. */
export interface RemoteExpansionOptions {
  /** Most words added. Defaults to `3`. */
  readonly maxWords?: number
  /** A word must occur at least this often in the top documents. Defaults to `10`. */
  readonly minOccurrences?: number
  /** Words never added (lower case), e.g. PubMed's stop words. */
  readonly stopwords: ReadonlySet<string>
  /** Words shorter than this are not added. Defaults to `3`. */
  readonly minLength?: number
}

/**
 * Words to add to a remote (Entrez) query, from the top documents: unstemmed, lower-cased, not
 * stop words and not already in the query, occurring at least `minOccurrences` times in those
 * documents together; the most frequent first (ties alphabetical), at most `maxWords`.
 * @param set - the candidates
 * @param top - positions of the top documents
 * @param queryText - the query as sent
 * @param options - see {@link RemoteExpansionOptions}
 */
export function remoteExpansionWords(set: CandidateSet, top: readonly number[], queryText: string, options: RemoteExpansionOptions): string[] {
  const minLength = options.minLength ?? 3
  const minOccurrences = options.minOccurrences ?? 10
  const inQuery = new Set(queryText.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu) ?? [])
  const counts = new Map<string, number>()
  for (const i of top) {
    for (const word of set.document(i).words) {
      if ([...word].length >= minLength && !options.stopwords.has(word) && !inQuery.has(word) && !/^\d+$/.test(word)) {
        counts.set(word, (counts.get(word) ?? 0) + 1)
      }
    }
  }
  return [...counts]
    .filter(([, count]) => count >= minOccurrences)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, options.maxWords ?? 3)
    .map(([word]) => word)
}
