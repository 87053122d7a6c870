// Types for the untyped `snowball-stemmers` 0.6.0 package (CommonJS, UMD wrapper).
declare module 'snowball-stemmers' {
  /** A Snowball stemmer instance (stateful; not re-entrant). */
  export interface SnowballStemmerInstance {
    stem(word: string): string
  }
  /** Creates a stemmer for one of `algorithms()`; throws a TypeError for unknown names. */
  export function newStemmer(language: string): SnowballStemmerInstance
  /** The supported algorithm names. */
  export function algorithms(): string[]
}
