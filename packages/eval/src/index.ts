// Retrieval evaluation that agrees with trec_eval: runs and qrels, trec_eval's measures, infAP and
// infNDCG over sampled qrels, significance tests, folds, reports. The per-measure functions and the
// measure table stay in their modules (`evaluate` takes trec_eval's measure names); the seeded
// generator other pubmatch packages share is `@pubmatch/eval/internal` (src/internal.ts).

// evaluation: trec_eval's measures over a run and its qrels
export { evaluate } from './evaluate.ts'
export type { EvaluateOptions, EvaluationResult } from './evaluate.ts'

// runs and qrels (TREC formats; `.gz` files are decompressed)
export type { ReadOptions, TextSource } from './io/lines.ts'
export { dedupeRun, formatRun, parseRun, readRun, writeRun } from './io/run.ts'
export type { ReadRunOptions, WriteRunOptions } from './io/run.ts'
export { formatQrels, parseQrels, readQrels } from './io/qrels.ts'
export { formatTrecEval, parseTrecEvalOutput } from './io/trec-eval-output.ts'
export type { FormatTrecEvalOptions, TrecEvalOutput } from './io/trec-eval-output.ts'

// sampled qrels: infAP and infNDCG as NIST's sample_eval.pl computes them
export { parseSampledQrels, readSampledQrels, sampledToQrels } from './io/qrels.ts'
export type { SampledQrels } from './io/qrels.ts'
export { evaluateSampled } from './sampled.ts'
export type { SampledEvaluation, SampledOptions } from './sampled.ts'

// significance tests, folds, seeded order
export { pairedTTest, randomisationTest } from './stats/significance.ts'
export type {
  RandomisationOptions,
  RandomisationResult,
  TTestResult,
} from './stats/significance.ts'
export { kFold, mod5Folds, topicFold } from './folds.ts'
export type { Fold, KFoldOptions } from './folds.ts'
export { shuffle } from './stats/prng.ts'

// comparisons and reports
export { compareRuns } from './compare.ts'
export type { CompareOptions, ComparisonCell, RunComparison } from './compare.ts'
export { formatCell, formatPValue, formatTable } from './report/text.ts'
export type { FormatTableOptions } from './report/text.ts'
export { renderHtmlReport } from './report/html.ts'
export type { HtmlReportInput } from './report/html.ts'
