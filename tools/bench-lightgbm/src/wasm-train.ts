// Child process of the benchmark: trains the benchmark model with one WebAssembly build
// and prints one JSON line (times, CPU time of the training loop, peak memory), so each
// build's memory is measured alone.
//   node dist/wasm-train.js WASM_DIR ROUNDS MODEL_OUT PARAMS_JSON [THREADS] [SPIN_POLLS]
// THREADS > 1 needs a threaded build; LightGBM's num_threads is set to it. SPIN_POLLS is
// LoadWasmOptions.spinPolls ('' or absent: the default).
import { writeFileSync } from 'node:fs'
import { json, parseJson, type JsonShape } from '@pubmatch/core'
import { loadLightGbm, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { benchData } from './data.ts'

const [wasmDir = '', roundsText = '300', modelOut = '', paramsJson = '{}', threadsText = '1', spinText = ''] = process.argv.slice(2)
const threads = Number(threadsText)
const PARAMS: JsonShape<LightGbmParams> = json.record(json.union(json.string, json.number, json.boolean, json.array(json.union(json.string, json.number))))
const params: LightGbmParams = { ...parseJson(paramsJson, PARAMS, { file: 'PARAMS_JSON (argument 4)', code: 'INVALID_ARGUMENT' }), num_threads: threads }
const log: string[] = []
const lightgbm = await loadLightGbm({
  wasmDir,
  threads,
  onLog: (line) => log.push(line),
  ...(spinText === '' ? {} : { spinPolls: Number(spinText) }),
})
const data = benchData()
const t0 = performance.now()
const dataset = lightgbm.createDataset(data, { params })
const booster = lightgbm.createBooster(dataset, params)
const t1 = performance.now()
const cpu1 = process.cpuUsage() // the whole process: every worker thread included
const rounds = Number(roundsText)
for (let i = 0; i < rounds; i += 1) {
  if (booster.update()) {
    break
  }
}
const t2 = performance.now()
const cpu2 = process.cpuUsage(cpu1)
writeFileSync(modelOut, booster.saveModel())
const stats = lightgbm.stats()
booster.free()
dataset.free()
console.log(
  JSON.stringify({
    setupMs: Math.round(t1 - t0),
    trainMs: Math.round(t2 - t1),
    trainCpuMs: Math.round((cpu2.user + cpu2.system) / 1000),
    peakRssKb: process.resourceUsage().maxRSS,
    wasmMemoryBytes: stats.memoryBytes,
    parallelRegions: stats.parallelRegions,
    layout: log.find((line) => line.includes('Auto-choosing') || line.includes('force_')) ?? '',
    variant: lightgbm.build.variant,
  }),
)
await lightgbm.terminate()
