// labelled review data sets
export type { ScreeningDataset, ScreeningLabel, ScreeningRecord } from './records.ts'
export { parseCohenCsv, readCohenReview } from './readers/cohen.ts'
export { invertedIndexText, openAlexWorkToArticle, parseSynergyReview, readSynergyReview } from './readers/synergy.ts'
export { parseCsv } from './readers/csv.ts'
export type { CsvRow } from './readers/csv.ts'
// simulation metrics (asreview-insights' definitions)
export { cohenWss, recallAt, recordsToRecall, roundHalfEven, screeningMetrics, timesToDiscovery, wssAt } from './metrics.ts'
export type { ScreeningMetrics } from './metrics.ts'
export { listScreeningReviews, readScreeningReview, readScreeningReviewAt } from './readers/datasets.ts'
export type { ScreeningReviewEntry } from './readers/datasets.ts'
// features, models and the ranker
export { articleTerms, buildFeatures, foldSingletons } from './features.ts'
export type { FeatureMatrix, FeatureOptions, FoldedRows, SparseVector } from './features.ts'
export { decision, fitLogistic } from './logistic.ts'
export type { LogisticModel, LogisticOptions } from './logistic.ts'
export { createRanker, RANKERS } from './ranker.ts'
export type { RankerName, RankerOptions, ScreeningRanker } from './ranker.ts'
// simulation
export { drawPriors, simulateScreening } from './simulate.ts'
export type { SimulationOptions, SimulationResult } from './simulate.ts'
// reports
export { recallCurveSvg, recallPoints, simulationHtml } from './report.ts'
export type { RecallCurve } from './report.ts'
// screening projects
export { createScreeningProject, openScreeningProject } from './project.ts'
export type { CreateProjectOptions, Decision, DecisionEvent, DecisionInput, ProjectStatus, ProposedRecord, ScreeningProject } from './project.ts'
export { correctedProbability, estimatedRecall, kneeStop, MIN_EXCLUDED_FOR_ESTIMATE, MIN_INCLUDED_FOR_ESTIMATE, recallEstimateReadiness } from './stopping.ts'
export type { KneeStop } from './stopping.ts'
export { parseCandidateCsv, readCandidates } from './readers/candidates.ts'
export type { CandidateRead } from './readers/candidates.ts'
export { parseRis } from './readers/ris.ts'
export type { RisResult } from './readers/ris.ts'
