/**
 * `@pubmatch/bench-kit`: what the benchmarks in tools/ share, so that each measures and reports
 * the same way (see README.md).
 */
export { LATENCY_SUMMARY, quantile, summarize, summarizeLatencies } from './stats.ts'
export type { LatencySummary, SampleSummary, SummarizeOptions } from './stats.ts'
export { listedOrder, markdownTable, replaceSection } from './markdown.ts'
export type { SectionOrder } from './markdown.ts'
export { clockTicksPerSecond, cpuSecondsSince, dirBytes, machineDescription, MIB, parseProcStatTicks, peakRssMiB, timeIterable } from './measure.ts'
export type { TimedIterable, TimeIterableOptions } from './measure.ts'
export { lastJsonLine, runJsonChild } from './child.ts'
export type { JsonChildOptions } from './child.ts'
export { sharedDataDir } from './shared-data.ts'
export { flameGraphSvg, flameTree } from './flame-graph.ts'
export type { CpuProfile, FlameFrame, FlameGraphOptions } from './flame-graph.ts'
