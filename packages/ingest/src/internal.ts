/**
 * `@pubmatch/ingest/internal`: helpers other pubmatch packages share with this one. Unstable: not
 * part of the public API, for pubmatch's own packages and benchmarks only; apps use the public
 * entry points.
 */

// A descriptor's MeSH entry terms from a corpus's MeSH records, for an index's `meshEntryTerms` (engine, solr)
export { meshEntryTermLookup } from './mesh/vocabulary.ts'
