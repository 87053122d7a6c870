/**
 * The synthetic corpus both engines index: the articles `0 … docs − 1` of one seed, in order.
 */
import type { Article } from '@pubmatch/core'
import { createArticleGenerator, loadCorpusModel } from '@pubmatch/synth'

/**
 * The synthetic articles `0 … docs − 1` of `seed`, generated lazily with tools/synth's committed
 * model (the same articles `generateCorpus({ size: docs, seed })` gives).
 * @param docs - articles
 * @param seed - the corpus seed
 */
export function* syntheticArticles(
  docs: number,
  seed: number,
): Generator<Article, void, undefined> {
  const generator = createArticleGenerator(loadCorpusModel())
  for (let i = 0; i < docs; i++) {
    yield generator.article(seed, i)
  }
}
