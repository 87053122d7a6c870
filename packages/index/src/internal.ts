/**
 * `@pubmatch/index/internal`: helpers other pubmatch packages share with this one. Unstable: not
 * part of the public API, for pubmatch's own packages only.
 */
export { TermMerge } from './terms/term-merge.ts'
export type { TermKeyed } from './terms/term-merge.ts'
