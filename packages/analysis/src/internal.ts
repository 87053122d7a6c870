/**
 * `@pubmatch/analysis/internal`: pieces of the analyzers that other pubmatch packages reproduce
 * outside an analyzer: the text normalisation that keyword values and wildcard patterns share
 * with the tokenizer (`index`, `bm25f`), the Greek letter names that Solr's configset maps
 * (`solr`), and the document token streams of Best Match's features (`ltr`'s forward store,
 * `solr`'s forward field). Unstable: it changes with the analyzers, without notice. Apps use the package's entry
 * point only.
 */
export { normalizeText } from './normalize.ts'
export { GREEK_LETTER_NAMES } from './greek-letters.ts'
export {
  TOKEN_DEFINITE,
  TOKEN_INDEFINITE,
  TOKEN_STOPWORD,
  createTokenStreamer,
  tokenFlags,
  tokenStreamTexts,
} from './token-stream.ts'
export type { TokenSink, TokenStreamer, TokenStreamTexts } from './token-stream.ts'
