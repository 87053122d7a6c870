import { createBooster, loadBooster, type Booster } from './booster.ts'
import { Dataset, type DatasetInput, type DatasetOptions } from './dataset.ts'
import { loadWasmModule, terminateWasmModule, type LoadWasmOptions, type WasmBuildInfo } from './module.ts'
import type { LightGbmParams } from './params.ts'
import { Runtime } from './runtime.ts'
import { trainModel, type TrainOptions, type TrainResult } from './train.ts'

/** Native handles and memory of one WebAssembly instance, for leak checks. */
export interface LightGbmStats {
  /** Datasets created and not yet freed. */
  readonly liveDatasets: number
  /** Boosters created or loaded and not yet freed. */
  readonly liveBoosters: number
  /** Bytes malloc has handed out and not taken back (dlmalloc's `uordblks`). */
  readonly heapInUseBytes: number
  /** Size of the WebAssembly memory (it grows, never shrinks). */
  readonly memoryBytes: number
  /** Parallel regions LightGBM ran on more than one thread so far (0 in the single-threaded build). */
  readonly parallelRegions: number
  /** The largest team of threads a region ran on so far (1 in the single-threaded build). */
  readonly largestTeam: number
}

/**
 * One LightGBM WebAssembly instance (its own memory). Single-threaded unless loaded with
 * `threads` > 1; use it from the thread that loaded it. Everything it creates must be freed
 * through it.
 */
export interface LightGbm {
  /** What the build recorded: configuration, emcc and LightGBM versions. */
  readonly build: WasmBuildInfo
  /** Threads the instance runs LightGBM's parallel loops on (see `LoadWasmOptions.threads`). */
  readonly threads: number
  /**
   * Creates a dataset: bins the features and sets labels, weights and query groups.
   * @param input - features, labels, groups
   * @param options - binning parameters; the training dataset for validation data
   */
  createDataset(input: DatasetInput, options?: DatasetOptions): Dataset
  /**
   * Creates a booster on a training dataset, to be driven with `update()` by hand.
   * @param trainSet - the training dataset
   * @param params - LightGBM parameters
   */
  createBooster(trainSet: Dataset, params: LightGbmParams): Booster
  /**
   * Trains a model with validation sets, per-iteration callbacks and early stopping.
   * @param options - parameters, data and stopping rules
   */
  train(options: TrainOptions): TrainResult
  /**
   * Loads a model saved in LightGBM's text format.
   * @param modelText - the content of a `model.txt`
   */
  loadModel(modelText: string): Booster
  /** Live handles and memory, to check that everything was freed; thread use. */
  stats(): LightGbmStats
  /**
   * Ends the instance's worker threads (a threaded instance's; nothing to end otherwise).
   * They never keep the process alive, but a long-running process that loads many threaded
   * instances should end each one it no longer needs. The instance is unusable afterwards.
   */
  terminate(): Promise<void>
}

/**
 * Instantiates LightGBM compiled to WebAssembly. Each call makes a new instance with its
 * own memory; in worker threads, make one per worker.
 * @param options - threads (defaults to `1`: the single-threaded build), the build folder
 *   (defaults to the package's `wasm/`, or `wasm/threaded/` for more than one thread) and a
 *   log sink (defaults to discarding LightGBM's log lines)
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad `threads`; `NOT_FOUND` without a build
 */
export async function loadLightGbm(options: LoadWasmOptions = {}): Promise<LightGbm> {
  const { module, info, threads, takeFatalMessage } = await loadWasmModule(options)
  const runtime = new Runtime(module, info, threads, takeFatalMessage)
  return {
    build: info,
    threads,
    createDataset: (input, datasetOptions) => new Dataset(runtime, input, datasetOptions),
    createBooster: (trainSet, params) => createBooster(runtime, trainSet, params),
    train: (trainOptions) => trainModel(runtime, trainOptions),
    loadModel: (modelText) => loadBooster(runtime, modelText),
    stats: () => ({
      liveDatasets: runtime.liveDatasets,
      liveBoosters: runtime.liveBoosters,
      heapInUseBytes: runtime.heapInUse(),
      memoryBytes: runtime.heap().u8.length,
      parallelRegions: module._pubmatch_omp_stat?.(0) ?? 0,
      largestTeam: Math.max(1, module._pubmatch_omp_stat?.(2) ?? 1),
    }),
    terminate: () => terminateWasmModule(module),
  }
}
