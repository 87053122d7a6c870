/**
 * `@pubmatch/eval/internal`: helpers other pubmatch packages share with this one: the seeded
 * generator behind `shuffle`, the folds and the randomisation test, which the click simulator of
 * `@pubmatch/ltr` draws from. Unstable: not part of the public API, for pubmatch's own packages and
 * benchmarks only. Apps use the package's entry point.
 */
export { createRandom } from './stats/prng.ts'
