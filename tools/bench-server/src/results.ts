/**
 * The shapes of the files and answers the benchmark reads back: setup's result and labels,
 * `phases.js`'s result, a whole run's results (`--report`), and the server's `/health`. Each is
 * checked when read; summaries of no values hold `NaN`, which JSON writes as `null`, so the
 * files of measurements are read with `nullAsNaN`.
 */
import { json, type JsonShape } from '@pubmatch/core'
import type { LoadResult } from './load.ts'
import type { PhasesResult } from './phases.ts'
import type { BenchResults, RunRecord } from './report.ts'
import type { SetupResult } from './setup.ts'
import { SUMMARY, type ProcUsage } from './stats.ts'

const MODEL_INFO = json.object({
  name: json.literal('A', 'B'),
  dir: json.string,
  seed: json.integer,
  slice: json.literal('even', 'odd'),
  queries: json.count,
  trainQueries: json.count,
  trainRows: json.count,
  trees: json.count,
  seconds: json.number,
  grades: json.record(json.count),
})

const SETUP_FIELDS = {
  match: json.literal('any', 'all'),
  corpus: json.string,
  index: json.string,
  docCount: json.count,
  generation: json.count,
  queryFile: json.string,
  logQueries: json.count,
  rejected: json.record(json.count),
  matches: json.object({ none: json.count, under500: json.count, atLeast500: json.count }),
  models: json.array(MODEL_INFO),
} as const

/** The shape of setup's result (`setup-<match>.json`). */
export const SETUP_RESULT: JsonShape<SetupResult> = json.object({ ...SETUP_FIELDS, accepted: json.array(json.string) })

/** What setup keeps of a model's labels (`labels-<match>-<slice>.json`). */
export interface SavedLabels {
  readonly grades: Readonly<Record<string, number>>
  readonly queries: ReadonlyArray<{ readonly id: string; readonly text: string; readonly judgements: ReadonlyArray<readonly [string, number]> }>
}

/** The shape of {@link SavedLabels}. */
export const SAVED_LABELS: JsonShape<SavedLabels> = json.object({
  grades: json.record(json.count),
  queries: json.array(json.object({ id: json.string, text: json.string, judgements: json.array(json.tuple(json.string, json.count)) })),
})

/** The shape of `phases.js`'s result. */
export const PHASES_RESULT: JsonShape<PhasesResult> = json.object({
  rounds: json.count,
  model: json.string,
  reranked: json.object({
    queries: json.count,
    firstStage: SUMMARY,
    features: SUMMARY,
    rerank: SUMMARY,
    scoring: SUMMARY,
    engineSearch: SUMMARY,
    engineSearchCpu: SUMMARY,
    records: SUMMARY,
    highlights: SUMMARY,
    candidates: SUMMARY,
  }),
  fallback: json.object({ queries: json.count, engineSearch: SUMMARY }),
  noMatch: json.object({ queries: json.count, engineSearch: SUMMARY }),
})

const LOAD_RESULT: JsonShape<LoadResult> = json.object({
  mode: json.tagged('kind', {
    paced: json.object({ kind: json.literal('paced'), rate: json.number }),
    max: json.object({ kind: json.literal('max'), connections: json.count }),
    burst: json.object({ kind: json.literal('burst'), rate: json.number, connections: json.count }),
  }),
  seconds: json.number,
  wallSeconds: json.number,
  responses: json.array(
    json.object({
      atMs: json.number,
      status: json.integer,
      latencyMs: json.number,
      bytes: json.count,
      query: json.count,
      summary: json.optional(
        json.object({
          total: json.count,
          reranked: json.boolean,
          fallback: json.boolean,
          generation: json.count,
          model: json.optional(json.string),
          tookMs: json.number,
        }),
      ),
    }),
  ),
  errors: json.count,
  timeouts: json.count,
  non2xx: json.count,
  statusCounts: json.record(json.count),
  requestsSent: json.count,
  events: json.array(json.object({ name: json.string, startMs: json.number, endMs: json.number, ok: json.boolean, detail: json.record(json.unknown) })),
})

const PROC_USAGE: JsonShape<ProcUsage> = json.object({
  seconds: json.number,
  cpuSeconds: json.number,
  cpuPercent: json.numberOrNaN,
  cpuPercentPeak: json.number,
  rssPeakMiB: json.number,
  rssMeanMiB: json.number,
  rssFirstMiB: json.number,
  rssLastMiB: json.number,
  samples: json.count,
})

const RUN_RECORD: JsonShape<RunRecord> = json.object({
  name: json.string,
  description: json.string,
  startedAt: json.string,
  loadBefore: json.array(json.number),
  loadAfter: json.array(json.number),
  server: json.object({ script: json.string, startMs: json.number, model: json.string }),
  load: LOAD_RESULT,
  usage: PROC_USAGE,
  metrics: json.optional(json.record(json.numberOrNaN)),
})

/** The shape of a whole run's results (`.cache/results/<stamp>.json`), checked before `--report` renders it. */
export const BENCH_RESULTS: JsonShape<BenchResults> = json.object({
  command: json.string,
  startedAt: json.string,
  finishedAt: json.string,
  machine: json.object({ cpus: json.count, cpuModel: json.string, memGiB: json.number, node: json.string, os: json.string }),
  quiet: json.object({
    threshold: json.optional(json.number),
    waits: json.array(json.object({ before: json.string, waitedS: json.number, load: json.number })),
  }),
  setup: json.object({ ...SETUP_FIELDS, acceptedCount: json.count }),
  modelNames: json.record(json.string),
  runs: json.array(RUN_RECORD),
  phases: json.optional(PHASES_RESULT),
  binCheck: json.optional(json.object({ seconds: json.number, statusCounts: json.record(json.count), first429AtS: json.optional(json.number) })),
  searchWorkers: json.optional(json.count),
})

/** What the benchmark reads of the server's `/health`. */
export interface Health {
  readonly generation: number
  readonly documents: number
  readonly modelDir?: string
}

/** The shape of {@link Health}. */
export const HEALTH: JsonShape<Health> = json.object({ generation: json.count, documents: json.count, modelDir: json.optional(json.string) })
