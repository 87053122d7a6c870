/**
 * `@pubmatch/bm25f/internal`: what other pubmatch packages reuse of the first stage, and
 * benchmarks that measure it: the BM25 and TF-IDF formulas of one term for packages that score
 * outside the searcher (`feedback`, `fulltext`), Xapian's BM25 (the Xapian comparison), and the
 * pieces of query evaluation that a translation of the query tree to another engine must share
 * (`solr`: date fields and bounds, MeSH mapping, `[sh]`'s subheading explosion, the scored fields of a tag, Best Match's field
 * weights), and the citation sensor's compact table (`engine` keeps one beside an index).
 * Unstable: it changes with the first stage, without notice. Apps use the package's
 * entry point only.
 */
// Scoring formulas
export { bm25LengthNorm, lucene6Bm25 } from './scoring/bm25.ts'
export { classicIdf, luceneIdf } from './scoring/idf.ts'
export { xapianBm25 } from './scoring/xapian.ts'
export { BEST_MATCH_FIELD_WEIGHTS } from './scoring/bestmatch-s1.ts'
// Query evaluation
export { isDateField } from './query/fields.ts'
export { resolveMeshTerm } from './query/mesh.ts'
export { subheadingValues } from './query/subheadings.ts'
export { dateLowerBound, dateTermBounds, dateUpperBound } from './search/dates.ts'
export { NOT_IN_ALL_FIELDS, TAG_SCORE_FIELDS } from './search/compile.ts'
// Ovid MEDLINE detection (parseQuery refuses what it finds; benchmarks tell strategies apart)
export { detectOvidSyntax } from './query/ovid.ts'
export type { OvidDetection, OvidSignal } from './query/ovid.ts'
// The citation sensor's records as a compact table (the engine keeps one beside an index)
export { encodeCitationTable, openCitationTable, openCitationTableInSteps } from './citation/citation-table.ts'
export type { CitationTable, CitationTableOptions } from './citation/citation-table.ts'
