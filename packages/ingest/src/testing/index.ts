export { startReplayServer, esearchErrorBody, escapeXml } from './replay-server.ts'
export type {
  RecordedRequest,
  ReplayContext,
  ReplayResponse,
  ReplayRoute,
  ReplayServer,
  ReplayServerOptions,
} from './replay-server.ts'
export { createFaultPlan } from './fault-plan.ts'
export type { FaultPlan, PlannedFault, ReplayFault } from './fault-plan.ts'
export { createHistoryServer } from './history-server.ts'
export type { HistoryServer } from './history-server.ts'
export {
  citationPubDate,
  createCitationStore,
  cutCitations,
  loadCitationStore,
} from './citation-store.ts'
export type { CitationStore, StoredCitation } from './citation-store.ts'
export { citationSearchResponder } from './citation-search.ts'
export type { CitationSearchOptions } from './citation-search.ts'
export { EUTILS_ROUTES, articleSetPmids } from './eutils-routes.ts'
export { createInstantClock, createManualClock } from './clocks.ts'
export type { InstantClock, ManualClock } from './clocks.ts'
export { installManualTimeouts } from './timeouts.ts'
export type { ManualTimeouts } from './timeouts.ts'
export { citationTextSearchResponder } from './citation-text-search.ts'
