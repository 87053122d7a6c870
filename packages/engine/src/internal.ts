/**
 * `@pubmatch/engine/internal`: an engine's parts (index reader, first-stage searcher, forward
 * store, highlighter) and the pieces the engine is built from, for other pubmatch packages and
 * for benchmarks that measure them (the reranker's phases, feature extraction, PRF candidates).
 * Unstable: it changes with the engine, without notice. Apps use the package's entry point only.
 */
export { engineInternals } from './search-engine.ts'
export type { EngineInternals } from './search-engine.ts'
export { applyPrf, PRF_CANDIDATES, prfOptions } from './prf.ts'
export type { PrfResult } from './prf.ts'
export { corpusMeshLookup, openForwardStore } from './corpus-data.ts'
