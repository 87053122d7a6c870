/**
 * `@pubmatch/analysis/internal`: pieces of the analyzers that other pubmatch packages reproduce
 * outside an analyzer: the text normalisation that keyword values and wildcard patterns share
 * with the tokenizer (`index`, `bm25f`), and the Greek letter names that Solr's configset maps
 * (`solr`). Unstable: it changes with the analyzers, without notice. Apps use the package's entry
 * point only.
 */
export { normalizeText } from './normalize.ts'
export { GREEK_LETTER_NAMES } from './greek-letters.ts'
