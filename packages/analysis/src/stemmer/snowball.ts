import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { algorithms, newStemmer } from 'snowball-stemmers'
import { createCachedStemmer, type Stemmer } from './stemmer.ts'

/** The Snowball algorithms `snowball-stemmers` 0.6.0 ships. `english` is Porter2. */
export type SnowballLanguage =
  | 'arabic'
  | 'armenian'
  | 'basque'
  | 'catalan'
  | 'czech'
  | 'danish'
  | 'dutch'
  | 'english'
  | 'finnish'
  | 'french'
  | 'german'
  | 'hungarian'
  | 'italian'
  | 'irish'
  | 'norwegian'
  | 'porter'
  | 'portuguese'
  | 'romanian'
  | 'russian'
  | 'spanish'
  | 'slovene'
  | 'swedish'
  | 'tamil'
  | 'turkish'

/** Options of {@link createSnowballStemmer}. */
export interface SnowballStemmerOptions {
  /** The Snowball algorithm. Defaults to `'english'` (Porter2). */
  language?: SnowballLanguage
  /** Words remembered by the bounded stem cache ({@link createCachedStemmer}); `0` disables it. Defaults to `100_000`. */
  cacheSize?: number
}

/**
 * The Snowball stemmer adapter: implements {@link Stemmer} with the `snowball-stemmers` package
 * (a JavaScript port of the Snowball algorithms), behind a bounded cache. The default is English
 * Porter2 (`generalization` → `general`, `running` → `run`).
 * @param options - see {@link SnowballStemmerOptions}
 */
export function createSnowballStemmer(options: SnowballStemmerOptions = {}): Stemmer {
  const language = options.language ?? 'english'
  if (!algorithms().includes(language)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/analysis: unknown Snowball language "${truncateForMessage(String(language))}" (known: ${algorithms().join(', ')})`,
    )
  }
  const snowball = newStemmer(language)
  return createCachedStemmer((word) => snowball.stem(word), options.cacheSize ?? 100_000)
}
