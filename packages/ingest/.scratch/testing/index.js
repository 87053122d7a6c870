export { startReplayServer, esearchErrorBody, escapeXml } from "./replay-server.js";
export { createFaultPlan } from "./fault-plan.js";
export { createHistoryServer } from "./history-server.js";
export { citationPubDate, createCitationStore, cutCitations, loadCitationStore, } from "./citation-store.js";
export { citationSearchResponder } from "./citation-search.js";
export { EUTILS_ROUTES, articleSetPmids } from "./eutils-routes.js";
export { createInstantClock, createManualClock } from "./clocks.js";
export { sharedDataPath } from "./shared-data.js";
export { citationTextSearchResponder } from "./citation-text-search.js";
