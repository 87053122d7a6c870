/**
 * `@pubmatch/engine/internal`: an engine's parts (index reader, first-stage searcher, analyzer,
 * forward store, highlighter, the model's reranker) and the index files beside them, for other
 * pubmatch packages and for benchmarks that measure them (the reranker's phases, feature
 * extraction, feedback sessions over an engine's candidates, copies of an index). Unstable: it
 * changes with the engine, without notice. Apps use the package's entry point only.
 */
export { analyzerOf, engineInternals } from './search-engine.ts'
export type { EngineInternals } from './search-engine.ts'
export { writeIndexSettings } from './settings.ts'
export { FORWARD_FILE } from './corpus-data.ts'
