export { evaluate, perQueryValues } from './evaluate.ts'
export type { EvaluateOptions, EvaluationResult } from './evaluate.ts'
export { judgeRanking, NOT_IN_POOL, UNJUDGED } from './judged-ranking.ts'
export type { JudgedRanking, JudgeOptions } from './judged-ranking.ts'
export {
  averagePrecision,
  bpref,
  interpolatedPrecision,
  ndcg,
  ndcgAt,
  precisionAt,
  rPrecision,
  recallAt,
  reciprocalRank,
  successAt,
  trecInfAP,
} from './metrics.ts'
export type { NdcgGain, NdcgOptions } from './metrics.ts'
export { ALL_TREC_MEASURES, OFFICIAL_MEASURES, resolveMeasures } from './measures.ts'
export type { Aggregation, ResolvedMeasure } from './measures.ts'
export { compareTrecOrder, sortTrecOrder } from './trec-order.ts'
export type { ReadOptions, TextSource } from './io/lines.ts'
export { dedupeRun, formatRun, parseRun, readRun, writeRun } from './io/run.ts'
export type { ReadRunOptions, WriteRunOptions } from './io/run.ts'
export {
  formatQrels,
  parseQrels,
  parseSampledQrels,
  readQrels,
  readSampledQrels,
  sampledToQrels,
} from './io/qrels.ts'
export type { SampledJudgement, SampledQrels } from './io/qrels.ts'
export { formatTrecEval, parseTrecEvalOutput } from './io/trec-eval-output.ts'
export type { FormatTrecEvalOptions, TrecEvalOutput } from './io/trec-eval-output.ts'
export { evaluateSampled, infAP, infNDCG, sampledMeasures, summariseSample } from './sampled.ts'
export type { SampledEvaluation, SampledMeasures, SampledOptions, TopicSample } from './sampled.ts'
export { pairedTTest, randomisationTest } from './stats/significance.ts'
export type {
  RandomisationOptions,
  RandomisationResult,
  TTestResult,
} from './stats/significance.ts'
export { createRandom, shuffle } from './stats/prng.ts'
export { kFold, mod5Folds, topicFold } from './folds.ts'
export type { Fold, KFoldOptions } from './folds.ts'
export { compareRuns } from './compare.ts'
export type {
  CompareOptions,
  ComparisonCell,
  ComparisonRow,
  RunComparison,
  SignificanceTest,
} from './compare.ts'
export { formatCell, formatPValue, formatTable } from './report/text.ts'
export type { FormatTableOptions } from './report/text.ts'
export { renderHtmlReport } from './report/html.ts'
export type { HtmlReportInput } from './report/html.ts'
