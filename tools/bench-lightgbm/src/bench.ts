// `pnpm bench` for @pubmatch/lightgbm-wasm: LambdaMART training wall time, CPU time
// and peak memory, WebAssembly (single-threaded and threaded builds) against native LightGBM
// built from the same sources with 1 and T threads, in one run; then prediction throughput
// for 100k rows (WebAssembly predict with 1 and T threads, and scoreRows compiled and interpreted).
//   node dist/bench.js [--rounds N] [--threads T] [--runs LIST] [--repeat R]
//                      [--max-load L] [--max-wait-min M] [--variants [LIST]] [--skip-native]
//                      [--spin-polls N]
// --runs: comma-separated, in order, from native1, nativeT, nativeT-passive (OMP_WAIT_POLICY=
//   passive), wasm1 (release build), wasmT (threaded build), wasm1-threaded (threaded build,
//   1 thread). Defaults to nativeT,native1,wasm1,wasmT.
// --repeat R runs the list R times round-robin and reports the median of each run.
// --max-load L waits before each run (up to M minutes, default 20) until the 1-minute load
//   average is at most L; what it saw is recorded.
// --spin-polls N: the threaded builds' LoadWasmOptions.spinPolls (polls before a waiting thread
//   sleeps; default 1,000,000).
// --variants also trains with every build in packages/lightgbm-wasm/build/variants/ (or, with
//   a comma-separated LIST such as wasm-eh-simd-o2,wasm-eh-simd-lto, with those), after the
//   other runs; make them with `node scripts/build-wasm.mjs --variant NAME` there.
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { json, parseJson, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { loadLightGbm, parseLightGbmModel, prepareModel, scoreRows, type FeatureMatrix, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { BENCH_SHAPE, benchData, writeDataFile } from './data.ts'
import { buildNative } from './native.ts'
import { benchDir, buildDir, packageDir } from './paths.ts'

interface RunSpec {
  /** Key in --runs and in the model file name. */
  key: string
  name: string
  kind: 'native' | 'wasm'
  threads: number
  wasmDir?: string
  env?: Record<string, string>
}

interface TrainRun {
  key: string
  name: string
  threads: number
  setupMs: number
  trainMs: number
  trainCpuMs: number
  peakRssKb: number
  wasmMemoryBytes?: number
  parallelRegions?: number
  layout?: string
  model: string
  loadBefore: number
  loadAfter: number
  waitedS: number
}

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const rounds = Number(option('--rounds') ?? 300) || 300
const threads = Number(option('--threads') ?? 2) || 2
const repeat = Number(option('--repeat') ?? 1) || 1
const maxLoad = option('--max-load') === undefined ? undefined : Number(option('--max-load'))
const maxWaitMs = (Number(option('--max-wait-min') ?? 20) || 20) * 60_000
const withVariants = args.includes('--variants')
const variantsOption = option('--variants')
const variantFilter =
  variantsOption === undefined || variantsOption.startsWith('--') ? undefined : new Set(variantsOption.split(','))
const skipNative = args.includes('--skip-native')
const spinPolls = option('--spin-polls') ?? ''
const T = String(threads)
const runKeys = (option('--runs') ?? 'nativeT,native1,wasm1,wasmT')
  .split(',')
  .map((key) => key.replace('T', T))
  .filter((key) => !(skipNative && key.startsWith('native')))

const params = (n: number): LightGbmParams => ({
  objective: 'lambdarank',
  num_leaves: 31,
  learning_rate: 0.1,
  num_threads: n,
  seed: 1,
  verbosity: 1,
})
const paramString = (p: LightGbmParams): string =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ')

/** What a training child prints (the native program after LightGBM's own log lines, so the last line that is an object). */
type TrainOutput = Pick<TrainRun, 'setupMs' | 'trainMs' | 'trainCpuMs' | 'peakRssKb' | 'wasmMemoryBytes' | 'parallelRegions' | 'layout'>

const TRAIN_OUTPUT: JsonShape<TrainOutput> = json.object({
  setupMs: json.number,
  trainMs: json.number,
  trainCpuMs: json.number,
  peakRssKb: json.number,
  wasmMemoryBytes: json.optional(json.number),
  parallelRegions: json.optional(json.number),
  layout: json.optional(json.string),
})

function lastJson(stdout: string, what: string): TrainOutput {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'))
  if (line === undefined) {
    throw new Error(`no result line in:\n${stdout.slice(-2000)}`)
  }
  return parseJson(line, TRAIN_OUTPUT, { file: `the result line of ${what}` })
}

const plural = (n: number): string => `${n} thread${n > 1 ? 's' : ''}`
const releaseDir = join(packageDir, 'wasm')
const threadedDir = join(packageDir, 'wasm', 'threaded')

function spec(key: string): RunSpec {
  if (key === 'native1' || key === `native${T}`) {
    const n = key === 'native1' ? 1 : threads
    return { key, name: `native, ${plural(n)}`, kind: 'native', threads: n }
  }
  if (key === `native${T}-passive`) {
    return { key, name: `native, ${plural(threads)}, OMP_WAIT_POLICY=passive`, kind: 'native', threads, env: { OMP_WAIT_POLICY: 'passive' } }
  }
  if (key === 'wasm1') {
    return { key, name: 'wasm release, 1 thread', kind: 'wasm', threads: 1, wasmDir: releaseDir }
  }
  if (key === `wasm${T}`) {
    return { key, name: `wasm threaded, ${plural(threads)}`, kind: 'wasm', threads, wasmDir: threadedDir }
  }
  if (key === 'wasm1-threaded') {
    return { key, name: 'wasm threaded, 1 thread', kind: 'wasm', threads: 1, wasmDir: threadedDir }
  }
  throw new Error(`unknown run "${key}"`)
}

/** Waits (if --max-load) for a quiet machine; returns the seconds waited. */
async function waitForQuiet(): Promise<number> {
  if (maxLoad === undefined) {
    return 0
  }
  const started = Date.now()
  while ((loadavg()[0] ?? 0) > maxLoad && Date.now() - started < maxWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, 10_000))
  }
  return Math.round((Date.now() - started) / 1000)
}

function runOne(run: RunSpec, dataFile: string, exe: string | undefined): Omit<TrainRun, 'loadBefore' | 'loadAfter' | 'waitedS'> {
  const model = join(buildDir, 'models', `${run.key}.txt`)
  const result =
    run.kind === 'native'
      ? spawnSync(exe ?? '', [dataFile, String(rounds), model, paramString(params(run.threads))], {
          encoding: 'utf8',
          maxBuffer: 1 << 26,
          env: { ...process.env, ...run.env },
        })
      : spawnSync(
          process.execPath,
          [
            fileURLToPath(new URL('./wasm-train.js', import.meta.url)),
            run.wasmDir ?? '',
            String(rounds),
            model,
            JSON.stringify(params(run.threads)),
            String(run.threads),
            spinPolls,
          ],
          { encoding: 'utf8', maxBuffer: 1 << 26 },
        )
  if (result.status !== 0) {
    throw new Error(`${run.name} failed (${String(result.status)}): ${result.stderr.slice(-4000)}`)
  }
  const output = lastJson(result.stdout, run.name)
  const layout =
    run.kind === 'native'
      ? (result.stdout.split('\n').find((l) => l.includes('Auto-choosing') || l.includes('force_')) ?? '')
      : output.layout
  return { ...output, key: run.key, name: run.name, threads: run.threads, layout, model }
}

function firstRows(features: FeatureMatrix, rows: number): FeatureMatrix {
  return { data: features.data.subarray(0, rows * features.numFeatures), numRows: rows, numFeatures: features.numFeatures }
}

function bestOf<V>(times: number, fn: () => V): { ms: number; value: V } {
  let best = Number.POSITIVE_INFINITY
  let value: V | undefined
  for (let i = 0; i < times; i += 1) {
    const t = performance.now()
    value = fn()
    best = Math.min(best, performance.now() - t)
  }
  return { ms: best, value: value as V }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}
const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')

const started = new Date()
const loadAtStart = loads()
mkdirSync(join(buildDir, 'models'), { recursive: true })
console.log(
  `bench-lightgbm: ${BENCH_SHAPE.numQueries} queries × ${BENCH_SHAPE.docsPerQuery} docs × ${BENCH_SHAPE.numFeatures} features, ${rounds} trees; load ${loadAtStart}`,
)
const data = benchData()
const dataFile = writeDataFile(data)

const specs = runKeys.map(spec)
/** The variant builds to train with, listed when they are due (a build may finish meanwhile). */
function variantSpecs(): RunSpec[] {
  const variantsDir = join(packageDir, 'build', 'variants')
  const names = existsSync(variantsDir) ? readdirSync(variantsDir).sort() : []
  for (const name of variantFilter ?? []) {
    if (!names.includes(name)) {
      throw new Error(`--variants: no build ${name} in ${variantsDir}`)
    }
  }
  return names
    .filter((name) => (variantFilter === undefined || variantFilter.has(name)) && existsSync(join(variantsDir, name, 'lightgbm.wasm')))
    .map((name) => {
      const dir = join(variantsDir, name)
      const info = readJsonFileSync(join(dir, 'build-info.json'), json.object({ threaded: json.optional(json.boolean) }))
      const n = info.threaded === true ? threads : 1
      return { key: `variant-${name}`, name: `wasm ${name}, ${plural(n)}`, kind: 'wasm', threads: n, wasmDir: dir }
    })
}
const exe = specs.some((s) => s.kind === 'native') ? await buildNative() : undefined
const allRuns: TrainRun[] = []
async function train(run: RunSpec, round: number): Promise<void> {
  const waitedS = await waitForQuiet()
  const loadBefore = loadavg()[0] ?? 0
  console.log(`bench-lightgbm: ${run.name} (round ${round + 1}/${repeat}, load ${loadBefore.toFixed(2)})…`)
  const result = runOne(run, dataFile, exe)
  allRuns.push({ ...result, loadBefore, loadAfter: loadavg()[0] ?? 0, waitedS })
  console.log(`bench-lightgbm:   train ${(result.trainMs / 1000).toFixed(1)} s, CPU ${(result.trainCpuMs / 1000).toFixed(1)} s`)
}
const mainRuns = specs.length
for (let round = 0; round < repeat; round += 1) {
  for (const run of specs.slice(0, mainRuns)) {
    await train(run, round)
  }
  if (round === 0 && withVariants) {
    specs.push(...variantSpecs())
  }
  for (const run of specs.slice(mainRuns)) {
    await train(run, round)
  }
}
const runs: TrainRun[] = specs.map((s) => {
  const mine = allRuns.filter((run) => run.key === s.key)
  const first = mine[0] as TrainRun
  return {
    ...first,
    trainMs: median(mine.map((run) => run.trainMs)),
    trainCpuMs: median(mine.map((run) => run.trainCpuMs)),
    setupMs: median(mine.map((run) => run.setupMs)),
    peakRssKb: Math.max(...mine.map((run) => run.peakRssKb)),
  }
})

// Prediction throughput: 100k rows with the release build's model (or the first wasm run's).
const modelRun = runs.find((run) => run.key === 'wasm1') ?? runs.find((run) => run.model.includes('wasm')) ?? runs[0]
const modelText = readFileSync(modelRun?.model ?? '', 'utf8')
const rows = firstRows(data.features, 100_000)
const predictWith = async (n: number): Promise<{ ms: number; value: Float64Array }> => {
  const lightgbm = await loadLightGbm({ threads: n })
  const booster = lightgbm.loadModel(modelText)
  const timed = bestOf(3, () => booster.predict(rows, { kind: 'raw', params: { num_threads: n } }))
  booster.free()
  await lightgbm.terminate()
  return timed
}
const wasmPredict = await predictWith(1)
const wasmPredictThreads = existsSync(join(threadedDir, 'lightgbm.wasm')) ? await predictWith(threads) : undefined
const model = parseLightGbmModel(modelText)
const tsPredict = bestOf(3, () => scoreRows(model, rows, { raw: true }))
const tsInterpreted = bestOf(3, () => scoreRows(model, rows, { raw: true, engine: 'interpreter' }))
const compiled = prepareModel(model) === 'compiled'
const identicalScores =
  wasmPredict.value.every((score, i) => Object.is(score, tsPredict.value[i]) && Object.is(score, tsInterpreted.value[i])) &&
  (wasmPredictThreads?.value.every((score, i) => Object.is(score, tsPredict.value[i])) ?? true)

const byKey = (key: string): TrainRun | undefined => runs.find((run) => run.key === key)
const native1 = byKey('native1')
const nativeT = byKey(`native${T}`)
// The model text records its parameters, so `[num_threads: N]` is left out of the comparison.
const comparableText = (run: TrainRun): string =>
  readFileSync(run.model, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('[num_threads: '))
    .join('\n')
const sameModel = (a: TrainRun | undefined, b: TrainRun | undefined): string =>
  a === undefined || b === undefined ? 'not run' : comparableText(a) === comparableText(b) ? 'yes' : 'no'
const loadAtEnd = loads()

const table = [
  `| run | train (s) | × native ${T} threads | × native 1 thread | train CPU (s) | CPU / wall | setup (s) | peak RSS (MB) | wasm memory (MB) | load before → after |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...runs.map((run) => {
    const ratio = (ref: TrainRun | undefined): string => (ref === undefined ? '–' : (run.trainMs / ref.trainMs).toFixed(2))
    const mine = allRuns.filter((r) => r.key === run.key)
    const loadText = mine.map((r) => `${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}`).join('; ')
    return `| ${run.name} | ${(run.trainMs / 1000).toFixed(1)} | ${ratio(nativeT)} | ${ratio(native1)} | ${(run.trainCpuMs / 1000).toFixed(1)} | ${(run.trainCpuMs / run.trainMs).toFixed(2)} | ${(run.setupMs / 1000).toFixed(1)} | ${Math.round(run.peakRssKb / 1024)} | ${run.wasmMemoryBytes === undefined ? '–' : Math.round(run.wasmMemoryBytes / 2 ** 20)} | ${loadText} |`
  }),
]
const predictLines = [
  `| scorer | 100k rows (ms) | rows/s |`,
  '|---|---:|---:|',
  ...[
    { label: 'wasm Booster.predict (raw), 1 thread', timed: wasmPredict },
    { label: `wasm Booster.predict (raw), threaded build, ${plural(threads)}`, timed: wasmPredictThreads },
    { label: `scoreRows (raw), ${compiled ? 'model compiled to WebAssembly' : 'interpreted: the model cannot be compiled'}`, timed: tsPredict },
    { label: "scoreRows (raw), engine: 'interpreter'", timed: tsInterpreted },
  ].flatMap(({ label, timed }) =>
    timed === undefined
      ? []
      : [`| ${label} | ${timed.ms.toFixed(0)} | ${Math.round(100_000 / (timed.ms / 1000)).toLocaleString('en')} |`],
  ),
]
const report = [
  `Date: ${started.toISOString()}; machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; Node ${process.version}`,
  `Command: node dist/bench.js${args.length > 0 ? ` ${args.join(' ')}` : ''} (${rounds} trees${repeat > 1 ? `, median of ${repeat} rounds` : ''})`,
  `Load average (1, 5, 15 min) at start: ${loadAtStart}; at end: ${loadAtEnd}${maxLoad === undefined ? '' : `; waited for 1-min load ≤ ${maxLoad} before each run (seconds waited: ${allRuns.map((r) => r.waitedS).join(', ')})`}`,
  '',
  ...table,
  '',
  ...runs.map((run) => `- ${run.name}: ${run.layout ?? ''}${run.parallelRegions === undefined ? '' : `; parallel regions on >1 thread: ${run.parallelRegions}`}`.trimEnd()),
  `- model text identical (apart from num_threads), native 1 thread vs wasm release: ${sameModel(native1, byKey('wasm1'))}`,
  `- model text identical (apart from num_threads), native ${T} threads vs wasm threaded ${T} threads: ${sameModel(nativeT, byKey(`wasm${T}`))}`,
  `- model text identical (apart from num_threads), native 1 thread vs native ${T} threads: ${sameModel(native1, nativeT)}`,
  `- model text identical (apart from num_threads), wasm release vs wasm threaded ${T} threads: ${sameModel(byKey('wasm1'), byKey(`wasm${T}`))}`,
  // Each variant build against the shipped build and the native run with its thread count.
  ...runs
    .filter((run) => run.key.startsWith('variant-'))
    .map((run) => {
      const [shipped, native] = run.threads > 1 ? [`wasm${T}`, nativeT] : ['wasm1', native1]
      return `- model text identical (apart from num_threads), ${run.name} vs ${spec(shipped).name}: ${sameModel(run, byKey(shipped))}; vs ${native?.name ?? 'native'}: ${sameModel(run, native)}`
    }),
  '',
  ...predictLines,
  '',
  `- scoreRows scores (compiled and interpreted) identical to wasm predict on all 100k rows: ${identicalScores ? 'yes' : 'no'}`,
].join('\n')
console.log(`\n${report}`)
mkdirSync(join(benchDir, 'results'), { recursive: true })
writeFileSync(join(benchDir, 'results', 'latest.md'), `${report}\n`)
writeFileSync(
  join(benchDir, 'results', 'latest.json'),
  `${JSON.stringify(
    {
      date: started.toISOString(),
      rounds,
      threads,
      repeat,
      loadAtStart,
      loadAtEnd,
      runs,
      allRuns,
      predict: { wasmMs: wasmPredict.ms, wasmThreadsMs: wasmPredictThreads?.ms, tsMs: tsPredict.ms, tsInterpretedMs: tsInterpreted.ms, compiled, identicalScores },
    },
    null,
    2,
  )}\n`,
)
