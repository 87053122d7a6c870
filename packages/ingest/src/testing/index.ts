/**
 * `@pubmatch/ingest/testing`: the loopback E-utilities replay server for other packages' tests, with
 * real citations to serve EFetch from and answer ESearch word queries with, a clock on which every
 * sleep returns at once, and request timeouts that expire only when a test says so. Never imported
 * by production code.
 */
export { startReplayServer } from './replay-server.ts'
export type { ReplayServer, ReplayServerOptions } from './replay-server.ts'
export { loadCitationStore } from './citation-store.ts'
export type { CitationStore } from './citation-store.ts'
export { citationTextSearchResponder } from './citation-text-search.ts'
export { createInstantClock } from './clocks.ts'
export { installManualTimeouts } from './timeouts.ts'
export type { ManualTimeouts } from './timeouts.ts'
