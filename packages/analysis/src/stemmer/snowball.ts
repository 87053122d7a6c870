import { createRequire } from 'node:module'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { createCachedStemmer, type Stemmer } from './stemmer.ts'

/** The part of the untyped `snowball-stemmers` 0.6.0 package (CommonJS) that we use. */
interface SnowballStemmers {
  /** Creates a stemmer for one of `algorithms()`; throws a TypeError for unknown names. */
  newStemmer: (language: string) => { stem(word: string): string }
  /** The supported algorithm names. */
  algorithms: () => string[]
}

// Loaded through `require` so that no ambient module declaration has to travel with the
// package to every consumer's type-check.
const { algorithms, newStemmer } = createRequire(import.meta.url)('snowball-stemmers') as SnowballStemmers

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
      `unknown Snowball language "${truncateForMessage(String(language))}" (known: ${algorithms().join(', ')})`,
    )
  }
  const snowball = newStemmer(language)
  return createCachedStemmer((word) => snowball.stem(word), options.cacheSize ?? 100_000)
}
