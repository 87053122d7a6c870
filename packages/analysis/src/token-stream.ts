/**
 * Document token streams for Best Match's features: each word of a text as its index term (or
 * none) plus flag bits, with stop words kept in place. `@pubmatch/ltr`'s forward store and
 * `@pubmatch/solr`'s per-document forward field are both built from these streams, so the two
 * hold the same tokens.
 *
 * Stop-word rule: a token is a stop word when its lower-cased surface form (`original`, else
 * the term) is in `PUBMED_STOPWORDS`; `a`/`an` and `the` get their own flags. Stop words must
 * stay in the stream, so the text is analyzed with the stop-word-keeping variant of the index's
 * analyzer: `biomedical` → `biomedical:nostop`, `biomedical:nostem` →
 * `biomedical:nostem:nostop`; `whitespace`, `whitespace:stem` and the `:nostop` analyzers keep
 * every word already. With those variants the terms of non-stop words are the index's terms.
 * When the index analyzer drops stop words, stop-word tokens have no term (the index holds no
 * postings for them, so they never match a query term). Any other (custom) analyzer is run as
 * given and each position it leaves empty is filled with a stop-word token without a term.
 * Joined compound tokens (`cox2` beside `cox`, `2`) are skipped: token i has position i.
 */
import { abstractText, type Article } from '@pubmatch/core'
import type { Analyzer } from './analyzer.ts'
import { isJoinedToken } from './analyzer.ts'
import { getAnalyzer, type AnalyzerRegistry } from './registry.ts'
import { PUBMED_STOPWORDS } from './stopwords/pubmed-stopwords.ts'

/** Token flag: the token is a stop word. */
export const TOKEN_STOPWORD = 1
/** Token flag: the token is `a` or `an`. */
export const TOKEN_INDEFINITE = 2
/** Token flag: the token is `the`. */
export const TOKEN_DEFINITE = 4

const NOSTOP_VARIANTS: Readonly<Record<string, string>> = {
  biomedical: 'biomedical:nostop',
  'biomedical:nostem': 'biomedical:nostem:nostop',
}
const KEEP_STOPWORDS = new Set(['biomedical:nostop', 'biomedical:nostem:nostop', 'whitespace', 'whitespace:stem'])
const STOPWORDS: ReadonlySet<string> = new Set(PUBMED_STOPWORDS)

/**
 * The flag bits of a surface word.
 * @param word - the surface form (any case)
 */
export function tokenFlags(word: string): number {
  const w = word.toLowerCase()
  let flags = STOPWORDS.has(w) ? TOKEN_STOPWORD : 0
  if (w === 'a' || w === 'an') {
    flags |= TOKEN_INDEFINITE
  } else if (w === 'the') {
    flags |= TOKEN_DEFINITE
  }
  return flags
}

/**
 * Receives one token of a stream.
 * @param term - the index term; `null` for a stop word the index analyzer drops
 * @param flags - `TOKEN_STOPWORD | TOKEN_INDEFINITE | TOKEN_DEFINITE` bits
 */
export type TokenSink = (term: string | null, flags: number) => void

/** Turns texts into token streams for documents indexed with one analyzer. */
export interface TokenStreamer {
  /** The index's analyzer name. */
  readonly analyzer: string
  /** The analyzer that produces the tokens (the stop-word-keeping variant, see the module comment). */
  readonly tokenAnalyzer: string
  /**
   * Sends the tokens of one text, in order, to `sink`.
   * @param text - the text
   * @param sink - called once per token
   */
  tokens(text: string, sink: TokenSink): void
}

/**
 * A token streamer for documents indexed with `analyzer`.
 * @param analyzer - the index's text analyzer (e.g. `reader.analyzer('title')`)
 * @param analyzers - where the stop-word-keeping variant is looked up. Defaults to the built-in analyzers.
 * @throws PubmatchError `NOT_FOUND` when the registry lacks the variant
 */
export function createTokenStreamer(analyzer: Analyzer, analyzers?: Pick<AnalyzerRegistry, 'get'>): TokenStreamer {
  const variant = NOSTOP_VARIANTS[analyzer.name]
  const mode = variant !== undefined ? 'variant' : KEEP_STOPWORDS.has(analyzer.name) ? 'keeps' : 'gaps'
  const tokenAnalyzer = variant !== undefined ? (analyzers ?? { get: getAnalyzer }).get(variant) : analyzer
  return {
    analyzer: analyzer.name,
    tokenAnalyzer: tokenAnalyzer.name,
    tokens(text, sink) {
      let next = 0
      for (const token of tokenAnalyzer.analyze(text)) {
        if (isJoinedToken(token)) {
          continue
        }
        if (mode === 'gaps') {
          for (; next < token.position; next++) {
            sink(null, TOKEN_STOPWORD)
          }
          next = token.position + 1
        }
        const flags = tokenFlags(token.original ?? token.term)
        sink(mode === 'variant' && (flags & TOKEN_STOPWORD) !== 0 ? null : token.term, flags)
      }
    },
  }
}

/** The texts of a document's token streams. */
export interface TokenStreamTexts {
  readonly title: string
  /** The abstract as one text (sections joined by spaces, `abstractText`). */
  readonly abstract: string
  /** MeSH descriptor names, each analyzed on its own and appended to one stream. */
  readonly mesh: readonly string[]
}

/**
 * The texts an article's token streams are made of: the title, the abstract as one text and
 * the MeSH descriptor names.
 * @param article - the article
 */
export function tokenStreamTexts(article: Article): TokenStreamTexts {
  return { title: article.title, abstract: abstractText(article), mesh: article.mesh.map((heading) => heading.descriptorName) }
}
