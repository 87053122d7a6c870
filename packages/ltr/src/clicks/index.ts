/** Search logs → training labels, the click simulator and NCBI's Best Match sample. */
export { LOG_FORMAT_VERSION, formatLogEvent, parseLogEvent, parseLogLines } from './log-format.ts'
export type {
  ActionEvent,
  ActionKind,
  LogEvent,
  LogLocation,
  LogProblem,
  SearchEvent,
  ShownResult,
} from './log-format.ts'
export { createLogStore } from './log-store.ts'
export type { LogSink, LogStore, LogStoreOptions, ReadLogOptions } from './log-store.ts'
export { goldOverlap, ncbiEligible, ncbiGrade, ncbiJudgements, yeganovaVotes } from './labels.ts'
export type { EligibilityOptions, YeganovaVotes } from './labels.ts'
export { documentUsage, labelQueries, normalizeQuery } from './pipeline.ts'
export type {
  ActionDropReason,
  ClickCounts,
  ClickLabelledQuery,
  LabelQueriesOptions,
  LabelQueriesResult,
  LabelStats,
  Labelling,
  QueryDropReason,
  SearchDropReason,
} from './pipeline.ts'
export { pbmExamination, simulateClicks } from './simulate.ts'
export type {
  ClickModel,
  SimulateClicksOptions,
  SimulatedSearchResult,
  SimulationStats,
} from './simulate.ts'
export { readBestMatchSample } from './best-match-sample.ts'
export type {
  BestMatchSample,
  BestMatchSampleQuery,
  BestMatchSampleStats,
} from './best-match-sample.ts'
