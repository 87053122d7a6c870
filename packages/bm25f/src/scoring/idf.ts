/**
 * Inverse document frequencies. N is the number of documents, n the number that contain the term.
 */
import { explanation, type Explanation } from './explanation.ts'

/** The idf of the BM25 family: Robertson–Spärck Jones, or Lucene's non-negative variant. */
export type Bm25Idf = 'rsj' | 'lucene'

/** The idf of TF-IDF: Lucene ≤ 6 (`classic`) or Lucene ≥ 7 (`smooth`). */
export type TfIdfIdf = 'classic' | 'smooth'

/** @internal The BM25 idf variants, the default first. */
export const BM25_IDFS: readonly [Bm25Idf, ...Bm25Idf[]] = ['lucene', 'rsj']

/** @internal The TF-IDF idf variants, the default first. */
export const TFIDF_IDFS: readonly [TfIdfIdf, ...TfIdfIdf[]] = ['classic', 'smooth']

/**
 * Robertson–Spärck Jones idf without relevance information: `ln((N − n + 0.5) / (n + 0.5))`.
 * Negative when n > N/2.
 * @param N - documents in the collection
 * @param n - documents that contain the term
 */
export function rsjIdf(N: number, n: number): number {
  return Math.log((N - n + 0.5) / (n + 0.5))
}

/**
 * Lucene's BM25 idf: `ln(1 + (N − n + 0.5) / (n + 0.5))`, never negative.
 * @param N - documents in the collection
 * @param n - documents that contain the term
 */
export function luceneIdf(N: number, n: number): number {
  return Math.log(1 + (N - n + 0.5) / (n + 0.5))
}

/**
 * The idf of the Best Match S1 text and of Lucene ≤ 6 TF-IDF (`DefaultSimilarity`):
 * `1 + ln(N / (n + 1))`.
 * @param N - documents in the collection
 * @param n - documents that contain the term
 */
export function classicIdf(N: number, n: number): number {
  return 1 + Math.log(N / (n + 1))
}

/**
 * The idf of Lucene ≥ 7 `ClassicSimilarity`: `1 + ln((N + 1) / (n + 1))`.
 * @param N - documents in the collection
 * @param n - documents that contain the term
 */
export function smoothIdf(N: number, n: number): number {
  return 1 + Math.log((N + 1) / (n + 1))
}

const formulas = {
  rsj: 'ln((N − n + 0.5) / (n + 0.5))',
  lucene: 'ln(1 + (N − n + 0.5) / (n + 0.5))',
  classic: '1 + ln(N / (n + 1))',
  smooth: '1 + ln((N + 1) / (n + 1))',
} as const

const functions = {
  rsj: rsjIdf,
  lucene: luceneIdf,
  classic: classicIdf,
  smooth: smoothIdf,
} as const

/** @internal The idf function of a variant. */
export function idfFunction(kind: Bm25Idf | TfIdfIdf): (N: number, n: number) => number {
  return functions[kind]
}

/** @internal Explains an idf value already computed with {@link idfFunction}. */
export function explainIdf(
  kind: Bm25Idf | TfIdfIdf,
  N: number,
  n: number,
  value: number,
): Explanation {
  return explanation('idf', value, formulas[kind], [
    explanation('N', N, undefined, []),
    explanation('n', n, undefined, []),
  ])
}
