import { withTermStep, type TokenFilter } from '../analyzer.ts'
import { PUBMED_STOPWORDS } from '../stopwords/pubmed-stopwords.ts'

/**
 * Creates a filter that drops tokens whose term is a stop word. The position of a dropped
 * token stays empty, so phrase distances are kept.
 * @param stopwords - the words to drop, compared with the term as is (lower-case them if the
 *   terms are lower-case). Defaults to {@link PUBMED_STOPWORDS}.
 */
export function createStopwordFilter(stopwords: Iterable<string> = PUBMED_STOPWORDS): TokenFilter {
  const set = new Set(stopwords)
  return withTermStep(
    (token) => (set.has(token.term) ? null : token),
    (term) => (set.has(term) ? null : term),
  )
}
