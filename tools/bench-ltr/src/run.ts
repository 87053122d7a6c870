/**
 * `pnpm --filter @pubmatch/bench-ltr bench`: the second stage on NFCorpus — training time,
 * rerank latency for 500 candidates (features + 500 trees), and feature extraction in piscina
 * workers against in-thread. Writes RESULTS.md beside the package and the raw figures to
 * `.cache/results/<time>.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createSearcher, QUESTION_STOPWORDS, type SearchResult } from '@pubmatch/bm25f'
import { loadLightGbm, scoreRows } from '@pubmatch/lightgbm-wasm'
import {
  buildTrainingSet,
  bestMatchExtractor,
  createReranker,
  loadModel,
  type FeatureExtractor,
  type FeatureSchema,
  type ModelManifest,
  type TrainingSet,
} from '@pubmatch/ltr'
import {
  createQueryMemory,
  memoryQueries,
  MODEL_FORMAT,
  saveModel,
  trainRanker,
  withQueryMemory,
  type TrainedRanker,
} from '@pubmatch/ltr/internal'
import { Piscina } from 'piscina'
import { measurePhase, measurePhaseAsync, type PhaseFigures } from './phase.ts'
import { encodeTask, joinReplies, type ExtractReply, type ExtractWorkerData } from './protocol.ts'
import { fmt, LATENCY_HEADER, latencyRow, markdownTable, ratio } from './render.ts'
import { buildCollection, readLabelledQueries, sharedDataDir } from './setup.ts'
import { countDistribution, perSecond, splitRanges, summarize, type Summary } from './stats.ts'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'throughput-rounds': { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    depth: { type: 'string', default: '100' },
    'memory-k': { type: 'string', default: '20' },
    'train-limit': { type: 'string' },
    out: { type: 'string' },
  },
})
const ROUNDS = Number(args.rounds)
const THROUGHPUT_ROUNDS = Number(args['throughput-rounds'])
const WORKERS = Number(args.workers)
const DEPTH = Number(args.depth)
const MEMORY_K = Number(args['memory-k'])
const CANDIDATES = 500
const COMPARE_TREES = 162

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const cacheDir = join(packageDir, '.cache')
const outFile = args.out ?? join(packageDir, 'RESULTS.md')
const log = (line: string): void => {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')

const startedAt = new Date()
const loadBefore = load()
log(`load average before: ${loadBefore}`)
const shared = sharedDataDir()

// 1. corpus, index, forward store
const built = await measurePhaseAsync(() => buildCollection(shared, cacheDir))
const { reader, forward } = built.value
log(`index + forward store: ${reader.docCount} documents in ${built.figures.wallS.toFixed(1)} s`)
const searcher = createSearcher(reader, { match: 'any', syntax: 'plain' })
const allTrain = await readLabelledQueries(join(shared, 'nfcorpus/train/q-titles.queries'), join(shared, 'nfcorpus/train/s-3.qrel'))
const trainQueries = args['train-limit'] === undefined ? allTrain : allTrain.slice(0, Number(args['train-limit']))
const devQueries = await readLabelledQueries(join(shared, 'nfcorpus/dev/q-titles.queries'), join(shared, 'nfcorpus/dev/s-3.qrel'))
// the extractor and the memory exactly as `trainBestMatch` and `openReranker` make them
const base = bestMatchExtractor({ reader, forward, syntax: 'plain' })
const memory = createQueryMemory({ queries: memoryQueries(trainQueries), analyzer: reader.analyzer('title'), k: MEMORY_K })
const withMemory = withQueryMemory(base, memory)
const schema: FeatureSchema = withMemory.schema

// 2. training time
let extractMs = 0
const timed = (extractor: FeatureExtractor): FeatureExtractor => ({
  schema: extractor.schema,
  extract(query, result) {
    const started = performance.now()
    const matrix = extractor.extract(query, result)
    extractMs += performance.now() - started
    return matrix
  },
})
const trainSet = measurePhase(() =>
  buildTrainingSet({ searcher, extractor: (query) => timed(withQueryMemory(base, memory, query.id)), queries: trainQueries, depth: DEPTH }),
)
const trainExtractMs = extractMs
log(`train set: ${trainSet.value.stats.queries} queries, ${trainSet.value.features.numRows} rows in ${trainSet.figures.wallS.toFixed(1)} s`)
extractMs = 0
const validSet = measurePhase(() => buildTrainingSet({ searcher, extractor: timed(withMemory), queries: devQueries, depth: DEPTH }))
const validExtractMs = extractMs
log(`dev set: ${validSet.value.stats.queries} queries, ${validSet.value.features.numRows} rows`)

const lightgbm = await loadLightGbm()
const featureNames = schema.features.map((f) => f.id)
const early = measurePhase(() => trainRanker({ lightgbm, train: trainSet.value, valid: validSet.value, featureNames }))
log(`early stopping: ${early.value.iterations} trees in ${early.figures.wallS.toFixed(1)} s, ndcg@20 ${early.value.validMetrics['ndcg@20']}`)
const fixed = measurePhase(() => trainRanker({ lightgbm, train: trainSet.value, numBoostRound: 500, featureNames }))
log(`fixed: ${fixed.value.iterations} trees in ${fixed.figures.wallS.toFixed(1)} s`)

const manifestOf = (trained: TrainedRanker, set: TrainingSet): ModelManifest => ({
  format: MODEL_FORMAT,
  createdAt: new Date().toISOString(),
  schema: { version: schema.version, features: featureNames },
  training: {
    queries: 'nfcorpus/train/q-titles.queries',
    qrels: 'nfcorpus/train/s-3.qrel',
    validation: 'nfcorpus/dev/q-titles.queries',
    usageLog: null,
    depth: DEPTH,
    trainQueries: set.stats.queries,
    trainRows: set.features.numRows,
    validQueries: validSet.value.stats.queries,
    testQueries: 0,
    seconds: 0,
    seed: 1,
    memory: { queries: trainQueries.length, k: MEMORY_K },
  },
  lightgbm: { params: trained.params, iterations: trained.iterations },
  metrics: trained.validMetrics,
  firstStage: {
    ranker: 'bm25f',
    params: {},
    analyzer: reader.analyzer('title').name,
    fieldSet: 'test-collection',
    fields: reader.schema.fields.filter((f) => !f.keyword).map((f) => f.name),
    match: 'any',
    syntax: 'plain',
    depth: DEPTH,
  },
})
await saveModel(join(cacheDir, 'model-500'), manifestOf(fixed.value, trainSet.value), fixed.value.modelText)
await saveModel(join(cacheDir, 'model-early'), manifestOf(early.value, trainSet.value), early.value.modelText)
const model500 = await loadModel(join(cacheDir, 'model-500'), schema)
const modelEarly = await loadModel(join(cacheDir, 'model-early'), schema)
const reranker = createReranker(withMemory, model500)

// 3. rerank latency over the dev queries
interface Sample {
  readonly metric: string
  /** Wall milliseconds. */
  readonly ms: number
  /** Process CPU milliseconds (user + system; no other thread of ours runs during this section). */
  readonly cpuMs: number
  readonly full: boolean
}
/** A point in time: wall ms and process CPU µs. */
type Mark = readonly [number, number]
const mark = (): Mark => {
  const cpu = process.cpuUsage()
  return [performance.now(), cpu.user + cpu.system]
}
const samples: Sample[] = []
const candidateCounts = new Map<string, number>()
for (let round = 0; round <= ROUNDS; round++) {
  for (const query of devQueries) {
    const t0 = mark()
    const result = searcher.search(query.text, { limit: CANDIDATES })
    const t1 = mark()
    candidateCounts.set(query.id, result.hits.length)
    if (result.hits.length === 0) {
      continue
    }
    base.extract(query.text, result)
    const t2 = mark()
    const mMem = withMemory.extract(query.text, result)
    const t3 = mark()
    scoreRows(model500.model, mMem, { raw: true })
    const t4 = mark()
    scoreRows(model500.model, mMem, { raw: true, numIteration: COMPARE_TREES })
    const t5 = mark()
    scoreRows(modelEarly.model, mMem, { raw: true })
    const t6 = mark()
    reranker.rerank(query.text, result)
    const t7 = mark()
    scoreRows(model500.model, mMem, { raw: true, engine: 'interpreter' })
    const t8 = mark()
    if (round === 0) {
      continue // warm-up round
    }
    const full = result.hits.length === CANDIDATES
    const add = (metric: string, ...spans: Array<readonly [Mark, Mark]>): void => {
      let ms = 0
      let cpuMs = 0
      for (const [a, b] of spans) {
        ms += b[0] - a[0]
        cpuMs += (b[1] - a[1]) / 1000
      }
      samples.push({ metric, ms, cpuMs, full })
    }
    add('first stage (BM25F top 500)', [t0, t1])
    add('features: 179', [t1, t2])
    add('features: 179 + memory', [t2, t3])
    add('scoring: 500 trees', [t3, t4])
    add(`scoring: first ${COMPARE_TREES} of the 500 trees`, [t4, t5])
    add(`scoring: early-stopped model (${modelEarly.model.trees.length} trees)`, [t5, t6])
    add('scoring: 500 trees, interpreter (no WebAssembly compilation)', [t7, t8])
    add('rerank: features + 500 trees + sort', [t6, t7])
    add('first stage + rerank', [t0, t1], [t6, t7])
  }
  log(`latency round ${round}${round === 0 ? ' (warm-up)' : ''} done`)
}
const metrics = [...new Set(samples.map((s) => s.metric))]
const summaryOf = (metric: string, filter: (s: Sample) => boolean = () => true, cpu = false): Summary | undefined => {
  const ms = samples.filter((s) => s.metric === metric && filter(s)).map((s) => (cpu ? s.cpuMs : s.ms))
  return ms.length === 0 ? undefined : summarize(ms)
}

// 4. workers
const results: Array<{ text: string; result: SearchResult; full: boolean }> = []
for (const query of devQueries) {
  const result = searcher.search(query.text, { limit: CANDIDATES })
  if (result.hits.length > 0) {
    results.push({ text: query.text, result, full: result.hits.length === CANDIDATES })
  }
}
const workerData: ExtractWorkerData = {
  indexDir: built.value.indexDir,
  forwardFile: built.value.forwardFile,
  queryStopwords: QUESTION_STOPWORDS,
  memory: trainQueries.map((q) => [q.id, q.text, [...q.judgements]] as const),
  memoryK: MEMORY_K,
}
const poolStarted = performance.now()
const pool = new Piscina<ReturnType<typeof encodeTask>, ExtractReply>({
  filename: new URL('./workers/extract.worker.js', import.meta.url).href,
  minThreads: WORKERS,
  maxThreads: WORKERS,
  idleTimeout: 600_000,
  workerData,
})
const splitExtract = async (text: string, result: SearchResult): Promise<{ data: Float64Array; computeMs: number }> => {
  const replies = await Promise.all(splitRanges(result.hits.length, WORKERS).map(([a, b]) => pool.run(encodeTask(text, result, a, b))))
  return { data: joinReplies(replies).data, computeMs: Math.max(...replies.map((r) => r.computeMs)) }
}
// warm-up, and a check that the split rows equal the in-thread rows
let mismatches = 0
for (const { text, result } of results) {
  const split = await splitExtract(text, result)
  const local = withMemory.extract(text, result).data
  if (split.data.length !== local.length || split.data.some((v, i) => !Object.is(v, local[i]))) {
    mismatches++
  }
}
const poolReadyS = (performance.now() - poolStarted) / 1000
log(`pool of ${WORKERS} warm (${poolReadyS.toFixed(1)} s incl. one pass), ${mismatches} mismatching queries`)
interface WorkerSample {
  readonly full: boolean
  readonly inThreadMs: number
  readonly inThreadCpuMs: number
  readonly splitMs: number
  readonly splitCpuMs: number
  readonly splitComputeMs: number
  readonly splitOverheadMs: number
}
const workerSamples: WorkerSample[] = []
for (let round = 0; round < ROUNDS; round++) {
  for (const { text, result, full } of results) {
    const t0 = mark()
    withMemory.extract(text, result)
    const t1 = mark()
    const split = await splitExtract(text, result)
    const t2 = mark()
    workerSamples.push({
      full,
      inThreadMs: t1[0] - t0[0],
      inThreadCpuMs: (t1[1] - t0[1]) / 1000,
      splitMs: t2[0] - t1[0],
      splitCpuMs: (t2[1] - t1[1]) / 1000,
      splitComputeMs: split.computeMs,
      splitOverheadMs: t2[0] - t1[0] - split.computeMs,
    })
  }
}
interface ThroughputRound {
  readonly inThread: number
  readonly wholeQueries: number
  readonly splitSequential: number
  readonly inThreadCpuS: number
  readonly wholeQueriesCpuS: number
}
const throughput: ThroughputRound[] = []
for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
  const a = measurePhase(() => {
    for (const { text, result } of results) {
      withMemory.extract(text, result)
    }
  })
  const b = await measurePhaseAsync(() => Promise.all(results.map(({ text, result }) => pool.run(encodeTask(text, result)))))
  const c = await measurePhaseAsync(async () => {
    for (const { text, result } of results) {
      await splitExtract(text, result)
    }
  })
  throughput.push({
    inThread: perSecond(results.length, a.figures.wallS * 1000),
    wholeQueries: perSecond(results.length, b.figures.wallS * 1000),
    splitSequential: perSecond(results.length, c.figures.wallS * 1000),
    inThreadCpuS: a.figures.cpuS,
    wholeQueriesCpuS: b.figures.cpuS,
  })
  log(`throughput round ${round + 1}: ${throughput.at(-1)!.inThread.toFixed(0)} / ${throughput.at(-1)!.wholeQueries.toFixed(0)} q/s`)
}
await pool.destroy()
const loadAfter = load()
log(`load average after: ${loadAfter}`)

// 5. the report
const median = (values: readonly number[]): number => summarize(values).p50
const phaseRow = (label: string, f: PhaseFigures, extra: string): string[] => [
  label,
  fmt(f.wallS, 1),
  fmt(f.cpuS, 1),
  fmt(f.peakRssMb, 0),
  extra,
]
const counts = [...candidateCounts.values()]
const distribution = countDistribution(counts, [
  [500, 500],
  [250, 499],
  [100, 249],
  [1, 99],
  [0, 0],
])
const latencyTable = (filter?: (s: Sample) => boolean, cpu = false): string =>
  markdownTable(
    cpu ? ['CPU ms per query', ...LATENCY_HEADER.slice(1)] : LATENCY_HEADER,
    metrics.flatMap((metric) => {
      const summary = summaryOf(metric, filter, cpu)
      return summary === undefined ? [] : [latencyRow(metric, summary)]
    }),
  )
const rerankFull = summaryOf('rerank: features + 500 trees + sort', (s) => s.full)!
const rerankFullCpu = summaryOf('rerank: features + 500 trees + sort', (s) => s.full, true)!
const score500Cpu = summaryOf('scoring: 500 trees', (s) => s.full, true)!
const featuresMemCpu = summaryOf('features: 179 + memory', (s) => s.full, true)!
const rerankAll = summaryOf('rerank: features + 500 trees + sort')!
const features179 = summaryOf('features: 179', (s) => s.full)!
const featuresMem = summaryOf('features: 179 + memory', (s) => s.full)!
const score500 = summaryOf('scoring: 500 trees', (s) => s.full)!
const scoreInterp = summaryOf('scoring: 500 trees, interpreter (no WebAssembly compilation)', (s) => s.full)!
const score162 = summaryOf(`scoring: first ${COMPARE_TREES} of the 500 trees`, (s) => s.full)!
const workerSummary = (key: Exclude<keyof WorkerSample, 'full'>, fullOnly: boolean): Summary =>
  summarize(workerSamples.filter((w) => w.full || !fullOnly).map((w) => w[key]))
const inThread = workerSummary('inThreadMs', true)
const split = workerSummary('splitMs', true)
const workerTable = (fullOnly: boolean): string =>
  markdownTable(LATENCY_HEADER, [
    latencyRow('in-thread (179 + memory)', workerSummary('inThreadMs', fullOnly)),
    latencyRow(`${WORKERS} workers, candidates split in ${WORKERS}: round trip`, workerSummary('splitMs', fullOnly)),
    latencyRow('  of which the slower worker computing', workerSummary('splitComputeMs', fullOnly)),
    latencyRow('  of which messaging and waiting (round trip − compute)', workerSummary('splitOverheadMs', fullOnly)),
    latencyRow('in-thread: process CPU ms', workerSummary('inThreadCpuMs', fullOnly)),
    latencyRow(`${WORKERS} workers: process CPU ms (all threads)`, workerSummary('splitCpuMs', fullOnly)),
  ])
const tpIn = median(throughput.map((t) => t.inThread))
const tpWhole = median(throughput.map((t) => t.wholeQueries))
const tpSplit = median(throughput.map((t) => t.splitSequential))
const paysLatency = split.p50 < inThread.p50
const roundRatios = throughput.map((t) => t.wholeQueries / t.inThread)
const throughputVerdict = roundRatios.every((r) => r >= 1.1)
  ? 'pay off for throughput (every round ≥ 1.1×)'
  : roundRatios.every((r) => r <= 1)
    ? 'do not pay off for throughput either'
    : 'give no consistent throughput gain'
const verdict =
  `Splitting ${CANDIDATES} candidates over ${WORKERS} workers ${paysLatency ? 'lowers' : 'does not lower'} the p50 extraction latency ` +
  `(${fmt(split.p50, 3)} ms against ${fmt(inThread.p50, 3)} ms in-thread, ${ratio(split.p50, inThread.p50)}): messaging and waiting ` +
  `(round trip − compute, p50 ${fmt(workerSummary('splitOverheadMs', true).p50, 2)} ms) cost more than the work the split saves. Whole queries spread ` +
  `over the pool give ${fmt(tpWhole, 0)} against ${fmt(tpIn, 0)} queries/s in-thread (median ${ratio(tpWhole, tpIn)}; per round ` +
  `${roundRatios.map((r) => `${fmt(r, 2)}×`).join(', ')}). On this shared 2-core machine (load average ${loadBefore.split(' / ')[0]}–${loadAfter.split(' / ')[0]}) ` +
  `workers ${paysLatency ? 'pay off for latency' : 'do not pay off for latency'} and ${throughputVerdict}; ` +
  `extraction is ${fmt((featuresMemCpu.p50 / rerankFullCpu.p50) * 100, 0)} % of the rerank CPU time, the rest is scoring.`

const trainStats = trainSet.value
const report = `# Reranking benchmark

Command: \`pnpm --filter @pubmatch/bench-ltr build && pnpm --filter @pubmatch/bench-ltr bench\`
(options: \`--rounds ${ROUNDS} --throughput-rounds ${THROUGHPUT_ROUNDS} --workers ${WORKERS} --depth ${DEPTH} --memory-k ${MEMORY_K}\`).
Machine: ${cpus().length} vCPU (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 1024 ** 3, 0)} GB, Node ${process.versions.node};
shared with other jobs. Run ${startedAt.toISOString()}; load average (1/5/15 min) before ${loadBefore}, after ${loadAfter}.
The machine is noisy: compare figures within this run (ratios), not across runs.

Data: NFCorpus \`corpus.docs\` (${reader.docCount} documents) read with \`readNfcorpusDocs\`, indexed with
\`testCollectionFields({ analyzer: 'biomedical' })\` (${fmt(built.figures.wallS, 1)} s for index + forward store);
first stage \`createSearcher(reader, { match: 'any', syntax: 'plain' })\` (the CLI's test-collection profile);
features: the 179 with \`queryStopwords: QUESTION_STOPWORDS\` (as the CLI for plain-text queries), plus the
query-memory block M1–M3 (k = ${MEMORY_K}) over the ${trainQueries.length} train title queries.

## Training time (NFCorpus train title queries, s-3.qrel, depth ${DEPTH})

${markdownTable(
  ['phase', 'wall s', 'CPU s', 'peak RSS MB', 'what'],
  [
    phaseRow(
      'training set: first stage + 182 features',
      trainSet.figures,
      `${trainStats.stats.queries} of ${trainQueries.length} queries kept (${trainStats.stats.skipped.length} without a relevant candidate in the top ${DEPTH}), ${fmt(trainStats.features.numRows, 0)} rows; feature extraction alone ${fmt(trainExtractMs / 1000, 1)} s (${fmt(perSecond(trainStats.features.numRows, trainExtractMs), 0)} rows/s)`,
    ),
    phaseRow(
      'validation set (dev)',
      validSet.figures,
      `${validSet.value.stats.queries} queries, ${fmt(validSet.value.features.numRows, 0)} rows; extraction ${fmt(validExtractMs / 1000, 1)} s`,
    ),
    phaseRow(
      '`trainRanker` defaults, early stopping on dev',
      early.figures,
      `${early.value.iterations} trees kept; dev NDCG@20 ${fmt(early.value.validMetrics['ndcg@20'] ?? Number.NaN, 4)}`,
    ),
    phaseRow('`trainRanker` 500 trees, no early stopping', fixed.figures, `${fixed.value.iterations} trees (the latency model)`),
  ],
)}

LightGBM runs in WebAssembly with the defaults (\`num_threads: 1\`, 31 leaves, learning rate 0.05).
CPU s counts every thread of the process; peak RSS is the process's high-water mark so far (monotonic).

## Rerank latency (325 NFCorpus dev title queries, top ${CANDIDATES})

Candidates per query (first stage, top ${CANDIDATES}):

${markdownTable(
  ['candidates', 'queries'],
  distribution.map((b) => [b.label, String(b.count)]),
)}

One warm-up round, then ${ROUNDS} measured rounds; each query's first stage, feature extraction (179, then
179 + memory), scoring (\`scoreRows\`, raw: the model compiled to WebAssembly, and for comparison the
interpreter, \`engine: 'interpreter'\`) and the whole \`Reranker.rerank\` (extract + score + sort into
hits) are timed separately in the same pass. Queries with exactly ${CANDIDATES} candidates:

${latencyTable((s) => s.full)}

The same calls in process CPU time (\`process.cpuUsage()\`, µs resolution; what the work costs, without
the waiting for a core that the load on this shared machine adds to the wall times above):

${latencyTable((s) => s.full, true)}

Queries with fewer than ${CANDIDATES} (but at least one) candidates:

${latencyTable((s) => !s.full)}

All queries with candidates: rerank p50 ${fmt(rerankAll.p50, 3)} ms, p95 ${fmt(rerankAll.p95, 3)} ms, p99 ${fmt(rerankAll.p99, 3)} ms.
Target: rerank p50 ≤ 10 ms for 500 candidates — measured p50 ${fmt(rerankFull.p50, 3)} ms wall (${rerankFull.p50 <= 10 ? 'met' : 'not met'}),
${fmt(rerankFullCpu.p50, 3)} ms CPU (${rerankFullCpu.p50 <= 10 ? 'met' : 'not met'}); of the CPU, scoring 500 trees takes ${fmt(score500Cpu.p50, 3)} ms and the 182 features
${fmt(featuresMemCpu.p50, 3)} ms (p50).
Scoring 500 trees costs ${ratio(score500.p50, score162.p50)} the time of ${COMPARE_TREES} trees (p50); the interpreter takes
${ratio(scoreInterp.p50, score500.p50)} the time of the compiled model (p50); the memory block adds
${fmt(featuresMem.p50 - features179.p50, 3)} ms to the 179 features (p50).

## Feature extraction in piscina workers

A pool of ${WORKERS} workers, each with its own index reader, forward store and query memory (opened once;
pool start + one warm-up pass over the ${results.length} queries ${fmt(poolReadyS, 1)} s). Extraction of the 182
features per query, in-thread against split in ${WORKERS} halves over the pool (latency: the
time from encoding the tasks to joining the replies, including structured cloning of the candidates and the
transfer of the rows). The split rows equal the in-thread rows in ${results.length - mismatches} of ${results.length} queries.

Queries with exactly ${CANDIDATES} candidates (${ROUNDS} rounds, in-thread and pool interleaved query by query):

${workerTable(true)}

All ${results.length} queries with candidates:

${workerTable(false)}

Throughput (queries/s, median of ${THROUGHPUT_ROUNDS} rounds over the ${results.length} dev queries; CPU s per round):

${markdownTable(
  ['mode', 'queries/s', 'vs in-thread', 'rounds'],
  [
    ['in-thread, one query after another', fmt(tpIn, 0), '1.00×', throughput.map((t) => `${fmt(t.inThread, 0)} (${fmt(t.inThreadCpuS, 1)} CPU s)`).join(', ')],
    [
      `${WORKERS} workers, whole queries, all submitted at once`,
      fmt(tpWhole, 0),
      ratio(tpWhole, tpIn),
      throughput.map((t) => `${fmt(t.wholeQueries, 0)} (${fmt(t.wholeQueriesCpuS, 1)} CPU s)`).join(', '),
    ],
    [`${WORKERS} workers, each query split in ${WORKERS}`, fmt(tpSplit, 0), ratio(tpSplit, tpIn), throughput.map((t) => fmt(t.splitSequential, 0)).join(', ')],
  ],
)}

**Verdict.** ${verdict}

## Key figures

${markdownTable(
  ['', 'value'],
  [
    ['rerank 500 candidates (182 features + 500 trees + sort), p50 / p95 / p99', `${fmt(rerankFull.p50, 2)} / ${fmt(rerankFull.p95, 2)} / ${fmt(rerankFull.p99, 2)} ms`],
    ['same, process CPU ms p50 / p95 (load-independent)', `${fmt(rerankFullCpu.p50, 2)} / ${fmt(rerankFullCpu.p95, 2)} ms`],
    ['of which features 179 / 179 + memory, p50', `${fmt(features179.p50, 2)} / ${fmt(featuresMem.p50, 2)} ms`],
    [`scoring 500 trees / ${COMPARE_TREES} trees, p50`, `${fmt(score500.p50, 2)} / ${fmt(score162.p50, 2)} ms`],
    [`training set (${fmt(trainQueries.length, 0)} train queries, depth ${DEPTH}): wall / CPU s`, `${fmt(trainSet.figures.wallS, 1)} / ${fmt(trainSet.figures.cpuS, 1)} s`],
    [`training, early stopping (${early.value.iterations} trees): wall / CPU s`, `${fmt(early.figures.wallS, 1)} / ${fmt(early.figures.cpuS, 1)} s`],
    ['training, 500 trees: wall / CPU s', `${fmt(fixed.figures.wallS, 1)} / ${fmt(fixed.figures.cpuS, 1)} s`],
    ['peak RSS', `${fmt(Math.max(fixed.figures.peakRssMb, early.figures.peakRssMb), 0)} MB`],
    [`extraction in ${WORKERS} workers vs in-thread: p50 latency, throughput`, `${ratio(split.p50, inThread.p50)}, ${ratio(tpWhole, tpIn)}`],
  ],
)}
`

await writeFile(outFile, report)
await mkdir(join(cacheDir, 'results'), { recursive: true })
const stamp = startedAt.toISOString().replaceAll(':', '-')
await writeFile(
  join(cacheDir, 'results', `${stamp}.json`),
  `${JSON.stringify(
    {
      startedAt,
      loadBefore,
      loadAfter,
      training: { trainSet: trainSet.figures, trainExtractMs, validSet: validSet.figures, validExtractMs, early: early.figures, earlyIterations: early.value.iterations, fixed: fixed.figures },
      latency: Object.fromEntries(metrics.map((m) => [m, { full: summaryOf(m, (s) => s.full), partial: summaryOf(m, (s) => !s.full) }])),
      candidates: distribution,
      latencyCpu: Object.fromEntries(metrics.map((m) => [m, { full: summaryOf(m, (s) => s.full, true), partial: summaryOf(m, (s) => !s.full, true) }])),
      workers: { inThread, split, inThreadCpu: workerSummary('inThreadCpuMs', true), splitCpu: workerSummary('splitCpuMs', true), throughput, mismatches, poolReadyS },
    },
    null,
    1,
  )}\n`,
)
process.stdout.write(report)
log(`wrote ${outFile}`)
