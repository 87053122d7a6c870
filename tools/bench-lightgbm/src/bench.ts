// `pnpm bench` for @pubmatch/lightgbm-wasm (issue 4): LambdaMART training wall time and peak
// memory, WebAssembly against native LightGBM built from the same sources, in one run; then
// prediction throughput for 100k rows (WebAssembly predict and the TypeScript scorer).
//   node dist/bench.js [--variants] [--rounds N] [--skip-native]
// --variants also trains with every build in packages/lightgbm-wasm/build/variants/
// (make them with `node scripts/build-wasm.mjs --variant NAME` there).
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadLightGbm, parseLightGbmModel, scoreRows, type FeatureMatrix, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { BENCH_SHAPE, benchData, writeDataFile } from './data.ts'
import { buildNative } from './native.ts'
import { benchDir, buildDir, packageDir } from './paths.ts'

interface TrainRun {
  name: string
  setupMs: number
  trainMs: number
  peakRssKb: number
  wasmMemoryBytes?: number
  layout?: string
  model: string
}

const args = process.argv.slice(2)
const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 300) || 300
const withVariants = args.includes('--variants')
const skipNative = args.includes('--skip-native')
const params = (threads: number): LightGbmParams => ({
  objective: 'lambdarank',
  num_leaves: 31,
  learning_rate: 0.1,
  num_threads: threads,
  seed: 1,
  verbosity: 1,
})
const paramString = (p: LightGbmParams): string =>
  Object.entries(p)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ')

function lastJson(stdout: string): Record<string, unknown> {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'))
  if (line === undefined) {
    throw new Error(`no result line in:\n${stdout.slice(-2000)}`)
  }
  return JSON.parse(line) as Record<string, unknown>
}

function runNative(exe: string, dataFile: string, threads: number): TrainRun {
  const model = join(buildDir, 'models', `native-${threads}t.txt`)
  const result = spawnSync(exe, [dataFile, String(rounds), model, paramString(params(threads))], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  if (result.status !== 0) {
    throw new Error(`native run failed: ${result.stderr}`)
  }
  const json = lastJson(result.stdout)
  const layout = result.stdout.split('\n').find((l) => l.includes('Auto-choosing') || l.includes('force_')) ?? ''
  return { name: `native, ${threads} thread${threads > 1 ? 's' : ''}`, ...(json as Omit<TrainRun, 'name' | 'model'>), layout, model }
}

function runWasm(name: string, wasmDir: string): TrainRun {
  const model = join(buildDir, 'models', `wasm-${name}.txt`)
  const script = fileURLToPath(new URL('./wasm-train.js', import.meta.url))
  const result = spawnSync(process.execPath, [script, wasmDir, String(rounds), model, JSON.stringify(params(1))], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  if (result.status !== 0) {
    throw new Error(`wasm run ${name} failed: ${result.stderr}`)
  }
  return { name: `wasm ${name}`, ...(lastJson(result.stdout) as Omit<TrainRun, 'name' | 'model'>), model }
}

function firstRows(features: FeatureMatrix, rows: number): FeatureMatrix {
  return { data: features.data.subarray(0, rows * features.numFeatures), numRows: rows, numFeatures: features.numFeatures }
}

function bestOf<T>(times: number, fn: () => T): { ms: number; value: T } {
  let best = Number.POSITIVE_INFINITY
  let value: T | undefined
  for (let i = 0; i < times; i += 1) {
    const t = performance.now()
    value = fn()
    best = Math.min(best, performance.now() - t)
  }
  return { ms: best, value: value as T }
}

const started = new Date()
mkdirSync(join(buildDir, 'models'), { recursive: true })
console.log(`bench-lightgbm: ${BENCH_SHAPE.numQueries} queries × ${BENCH_SHAPE.docsPerQuery} docs × ${BENCH_SHAPE.numFeatures} features, ${rounds} trees`)
const data = benchData()
const dataFile = writeDataFile(data)

const runs: TrainRun[] = []
if (!skipNative) {
  const exe = await buildNative()
  for (const threads of [2, 1]) {
    console.log(`bench-lightgbm: training native, ${threads} thread(s)…`)
    runs.push(runNative(exe, dataFile, threads))
  }
}
// Listed only now, so that a variant whose build finished during the native runs is included.
const wasmDirs: [string, string][] = [['release', join(packageDir, 'wasm')]]
if (withVariants) {
  const variantsDir = join(packageDir, 'build', 'variants')
  for (const name of existsSync(variantsDir) ? readdirSync(variantsDir).sort() : []) {
    if (existsSync(join(variantsDir, name, 'lightgbm.wasm'))) {
      wasmDirs.push([name, join(variantsDir, name)])
    }
  }
}
for (const [name, dir] of wasmDirs) {
  const variant = (JSON.parse(readFileSync(join(dir, 'build-info.json'), 'utf8')) as { variant: string }).variant
  console.log(`bench-lightgbm: training wasm ${name} (${variant})…`)
  runs.push(runWasm(name === 'release' ? `release (${variant})` : name, dir))
}

// Prediction throughput: 100k rows, the release build's model.
const releaseRun = runs.find((run) => run.name.startsWith('wasm release'))
const modelText = readFileSync(releaseRun?.model ?? '', 'utf8')
const rows = firstRows(data.features, 100_000)
const lightgbm = await loadLightGbm()
const booster = lightgbm.loadModel(modelText)
const wasmPredict = bestOf(3, () => booster.predict(rows, { kind: 'raw' }))
const model = parseLightGbmModel(modelText)
const tsPredict = bestOf(3, () => scoreRows(model, rows, { raw: true }))
booster.free()
const identicalScores = wasmPredict.value.every((score, i) => Object.is(score, tsPredict.value[i]))

const native1 = runs.find((run) => run.name === 'native, 1 thread')
const native2 = runs.find((run) => run.name === 'native, 2 threads')
const sameModel = native1 !== undefined && releaseRun !== undefined && readFileSync(native1.model, 'utf8') === modelText

const table = [
  '| run | train (s) | dataset + booster setup (s) | × native 2 threads | × native 1 thread | peak RSS (MB) | wasm memory (MB) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...runs.map((run) => {
    const ratio = (ref: TrainRun | undefined): string => (ref === undefined ? '–' : (run.trainMs / ref.trainMs).toFixed(2))
    return `| ${run.name} | ${(run.trainMs / 1000).toFixed(1)} | ${(run.setupMs / 1000).toFixed(1)} | ${ratio(native2)} | ${ratio(native1)} | ${Math.round(run.peakRssKb / 1024)} | ${run.wasmMemoryBytes === undefined ? '–' : Math.round(run.wasmMemoryBytes / 2 ** 20)} |`
  }),
]
const predictLines = [
  `| scorer | 100k rows (ms) | rows/s |`,
  '|---|---:|---:|',
  `| wasm Booster.predict (raw) | ${wasmPredict.ms.toFixed(0)} | ${Math.round(100_000 / (wasmPredict.ms / 1000)).toLocaleString('en')} |`,
  `| TypeScript scoreRows (raw) | ${tsPredict.ms.toFixed(0)} | ${Math.round(100_000 / (tsPredict.ms / 1000)).toLocaleString('en')} |`,
]
const report = [
  `Date: ${started.toISOString()}; machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; Node ${process.version}`,
  `Command: pnpm bench${args.length > 0 ? ` (node dist/bench.js ${args.join(' ')})` : ''}`,
  '',
  ...table,
  '',
  ...runs.map((run) => `- ${run.name}: ${run.layout ?? ''}`.trimEnd()),
  `- native 1-thread model text identical to the wasm release model text: ${sameModel ? 'yes' : 'no'}`,
  '',
  ...predictLines,
  '',
  `- TypeScript scores identical to wasm predict on all 100k rows: ${identicalScores ? 'yes' : 'no'}`,
].join('\n')
console.log(`\n${report}`)
mkdirSync(join(benchDir, 'results'), { recursive: true })
writeFileSync(join(benchDir, 'results', 'latest.md'), `${report}\n`)
writeFileSync(
  join(benchDir, 'results', 'latest.json'),
  `${JSON.stringify({ date: started.toISOString(), rounds, runs, predict: { wasmMs: wasmPredict.ms, tsMs: tsPredict.ms, identicalScores }, sameModel }, null, 2)}\n`,
)
