/**
 * `@pubmatch/lightgbm-wasm/testing`: deterministic synthetic ranking data for tests, examples
 * and benchmarks. Not a stable API: it may change with the tests that use it.
 */
export { createSyntheticRankingSet } from './synthetic.ts'
export type { SyntheticRankingOptions, SyntheticRankingSet } from './synthetic.ts'
