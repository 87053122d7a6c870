// Child process of the benchmark: trains the benchmark model with one WebAssembly build
// and prints one JSON line (times, peak memory), so each build's memory is measured alone.
//   node dist/wasm-train.js WASM_DIR ROUNDS MODEL_OUT PARAMS_JSON
import { writeFileSync } from 'node:fs'
import { loadLightGbm, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { benchData } from './data.ts'

const [wasmDir = '', roundsText = '300', modelOut = '', paramsJson = '{}'] = process.argv.slice(2)
const params = JSON.parse(paramsJson) as LightGbmParams
const log: string[] = []
const lightgbm = await loadLightGbm({ wasmDir, onLog: (line) => log.push(line) })
const data = benchData()
const t0 = performance.now()
const dataset = lightgbm.createDataset(data, { params })
const booster = lightgbm.createBooster(dataset, params)
const t1 = performance.now()
const rounds = Number(roundsText)
for (let i = 0; i < rounds; i += 1) {
  if (booster.update()) {
    break
  }
}
const t2 = performance.now()
writeFileSync(modelOut, booster.saveModel())
const memoryBytes = lightgbm.stats().memoryBytes
booster.free()
dataset.free()
console.log(
  JSON.stringify({
    setupMs: Math.round(t1 - t0),
    trainMs: Math.round(t2 - t1),
    peakRssKb: process.resourceUsage().maxRSS,
    wasmMemoryBytes: memoryBytes,
    layout: log.find((line) => line.includes('Auto-choosing') || line.includes('force_')) ?? '',
    variant: lightgbm.build.variant,
  }),
)
