import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'

/** A pointer into the WebAssembly memory (wasm32: a byte offset below 4 GiB). */
export type Pointer = number

/**
 * The Emscripten module that `scripts/build-wasm.mjs` links: LightGBM's C API plus
 * malloc/free and a heap counter. Every `LGBM_*` function returns 0 on success and -1 on
 * failure, when `LGBM_GetLastError` holds LightGBM's message.
 */
export interface LightGbmWasmModule {
  HEAPU8: Uint8Array
  HEAP32: Int32Array
  HEAPU32: Uint32Array
  HEAPF32: Float32Array
  HEAPF64: Float64Array
  UTF8ToString(ptr: Pointer, maxBytesToRead?: number): string
  stringToUTF8(text: string, ptr: Pointer, maxBytesToWrite: number): void
  lengthBytesUTF8(text: string): number
  _malloc(bytes: number): Pointer
  _free(ptr: Pointer): void
  _pubmatch_heap_in_use(): number
  _LGBM_GetLastError(): Pointer
  _LGBM_DatasetCreateFromMat(
    data: Pointer,
    dataType: number,
    numRows: number,
    numCols: number,
    isRowMajor: number,
    parameters: Pointer,
    reference: Pointer,
    out: Pointer,
  ): number
  _LGBM_DatasetSetField(handle: Pointer, field: Pointer, data: Pointer, numElements: number, type: number): number
  _LGBM_DatasetSetFeatureNames(handle: Pointer, names: Pointer, numNames: number): number
  _LGBM_DatasetGetNumData(handle: Pointer, out: Pointer): number
  _LGBM_DatasetGetNumFeature(handle: Pointer, out: Pointer): number
  _LGBM_DatasetFree(handle: Pointer): number
  _LGBM_BoosterCreate(train: Pointer, parameters: Pointer, out: Pointer): number
  _LGBM_BoosterLoadModelFromString(model: Pointer, outNumIterations: Pointer, out: Pointer): number
  _LGBM_BoosterFree(handle: Pointer): number
  _LGBM_BoosterAddValidData(handle: Pointer, valid: Pointer): number
  _LGBM_BoosterUpdateOneIter(handle: Pointer, isFinished: Pointer): number
  _LGBM_BoosterRollbackOneIter(handle: Pointer): number
  _LGBM_BoosterGetCurrentIteration(handle: Pointer, out: Pointer): number
  _LGBM_BoosterNumModelPerIteration(handle: Pointer, out: Pointer): number
  _LGBM_BoosterNumberOfTotalModel(handle: Pointer, out: Pointer): number
  _LGBM_BoosterGetEvalCounts(handle: Pointer, out: Pointer): number
  _LGBM_BoosterGetEvalNames(
    handle: Pointer,
    len: number,
    outLen: Pointer,
    bufferLen: number,
    outBufferLen: Pointer,
    outStrs: Pointer,
  ): number
  _LGBM_BoosterGetEval(handle: Pointer, dataIndex: number, outLen: Pointer, outResults: Pointer): number
  _LGBM_BoosterGetNumFeature(handle: Pointer, out: Pointer): number
  _LGBM_BoosterGetFeatureNames(
    handle: Pointer,
    len: number,
    outLen: Pointer,
    bufferLen: number,
    outBufferLen: Pointer,
    outStrs: Pointer,
  ): number
  _LGBM_BoosterPredictForMat(
    handle: Pointer,
    data: Pointer,
    dataType: number,
    numRows: number,
    numCols: number,
    isRowMajor: number,
    predictType: number,
    startIteration: number,
    numIteration: number,
    parameters: Pointer,
    outLen: Pointer,
    outResult: Pointer,
  ): number
  _LGBM_BoosterSaveModelToString(
    handle: Pointer,
    startIteration: number,
    numIteration: number,
    importanceType: number,
    bufferLen: bigint,
    outLen: Pointer,
    outStr: Pointer,
  ): number
  _LGBM_BoosterFeatureImportance(handle: Pointer, numIteration: number, importanceType: number, out: Pointer): number
  /** Threaded builds: the most threads an OpenMP region may use (csrc/omp/omp.h). */
  _pubmatch_omp_set_thread_limit?: (threads: number) => void
  /** Threaded builds: polls before a waiting thread sleeps. */
  _pubmatch_omp_set_spin?: (polls: number) => void
  /** Threaded builds: 0 regions run by a team, 1 serialised regions, 2 largest team, 3 workers started. */
  _pubmatch_omp_stat?: (which: number) => number
  /** Threaded builds: the shared memory (its buffer changes when any thread grows it). */
  wasmMemory?: { readonly buffer: ArrayBufferLike }
  /** Threaded builds: Emscripten's pthread bookkeeping, holding the Node `Worker`s. */
  PThread?: { readonly unusedWorkers: readonly NodeWorker[]; readonly runningWorkers: readonly NodeWorker[] }
}

/** The part of node:worker_threads' `Worker` used here. */
export interface NodeWorker {
  unref(): void
  terminate(): Promise<number>
}

/** Where the build put the loader and the binary, and what it recorded about itself. */
export interface WasmBuildInfo {
  /** The build configuration, e.g. `wasm-eh-simd-fx`. */
  readonly variant: string
  /** `emcc --version`, first line. */
  readonly emcc: string
  /** LightGBM's own version (`VERSION.txt` of the sources). */
  readonly lightgbm: string
  /** Size of `lightgbm.wasm` in bytes. */
  readonly wasmBytes: number
  /** Whether LightGBM's OpenMP loops run on threads (pthreads); absent in older builds. */
  readonly threaded?: boolean
}

const BUILD_INFO: JsonShape<WasmBuildInfo> = json.object({
  variant: json.string,
  emcc: json.string,
  lightgbm: json.string,
  wasmBytes: json.count,
  threaded: json.optional(json.boolean),
})

/** Options of {@link loadWasmModule}. */
export interface LoadWasmOptions {
  /**
   * Threads LightGBM trains and predicts with: `1` loads the single-threaded build (`wasm/`);
   * more loads the threaded build (`wasm/threaded/`), whose OpenMP runtime starts
   * `threads - 1` worker threads sharing the instance's memory. LightGBM's `num_threads`
   * parameter then defaults to this number (a smaller value uses fewer). An integer from 1
   * to 64. Defaults to `1`.
   */
  readonly threads?: number
  /**
   * The folder holding `lightgbm.cjs` and `lightgbm.wasm` (and, for a threaded build,
   * `lightgbm.worker.cjs`). Defaults to the package's `wasm/` folder, or `wasm/threaded/`
   * when `threads` is more than 1, where `pnpm build` puts them.
   */
  readonly wasmDir?: string | URL
  /** Receives each line LightGBM prints (`[LightGBM] [Info] …`). Defaults to discarding them. */
  readonly onLog?: (line: string) => void
  /**
   * Threaded builds: how many times a waiting OpenMP thread polls (about 1 ns per poll under
   * Node on x86-64) before it sleeps on a futex. LightGBM runs hundreds of short parallel
   * regions per tree; a thread still polling when the next one starts joins it without a
   * wake-up. Defaults to 1,000,000 (about 1 ms; training 100 trees of the LambdaMART
   * benchmark took 9 % less time than with 65,536, see BENCHMARKS.md). `0` sleeps at
   * once, like `OMP_WAIT_POLICY=passive`: for machines whose cores are all busy with other work.
   * Ignored by the single-threaded build.
   */
  readonly spinPolls?: number
}

/** The default of `LoadWasmOptions.spinPolls`. */
export const DEFAULT_SPIN_POLLS = 1_000_000

/** The minimal WebAssembly API this file uses (lib.dom's types are not in scope). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>
  instantiate(module: object, imports: object): Promise<object>
}

type ModuleFactory = (overrides: Record<string, unknown>) => Promise<LightGbmWasmModule>

const DEFAULT_WASM_DIR = new URL('../wasm/', import.meta.url)
const DEFAULT_THREADED_DIR = new URL('../wasm/threaded/', import.meta.url)
/** Threads of one instance, at most (MAX_THREADS of csrc/omp/pubmatch_omp.c). */
const MAX_THREADS = 64

/** One compiled WebAssembly.Module per folder and thread; instances are cheap after it. */
const compiled = new Map<string, { factory: ModuleFactory; module: Promise<object>; info: WasmBuildInfo }>()

function resolveDir(dir: string | URL): string {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir
  return path.endsWith('/') ? path : `${path}/`
}

function prepare(dir: string): { factory: ModuleFactory; module: Promise<object>; info: WasmBuildInfo } {
  const cached = compiled.get(dir)
  if (cached !== undefined) {
    return cached
  }
  const loader = `${dir}lightgbm.cjs`
  const binary = `${dir}lightgbm.wasm`
  if (!existsSync(loader) || !existsSync(binary)) {
    throw new PubmatchError(
      'NOT_FOUND',
      `no WebAssembly build in ${dir} (lightgbm.cjs and lightgbm.wasm); run \`pnpm build\` in packages/lightgbm-wasm (it needs emcc: apt-get install -y emscripten)`,
      { details: { file: dir } },
    )
  }
  const require = createRequire(import.meta.url)
  const factory = require(loader) as ModuleFactory
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
  const module = wasm.compile(readFileSync(binary))
  const infoPath = `${dir}build-info.json`
  const info: WasmBuildInfo = existsSync(infoPath)
    ? readJsonFileSync(infoPath, BUILD_INFO)
    : { variant: 'unknown', emcc: 'unknown', lightgbm: 'unknown', wasmBytes: 0 }
  const entry = { factory, module, info }
  compiled.set(dir, entry)
  return entry
}

/** What LightGBM's `Log::Fatal` prints to stderr just before it throws its message. */
const FATAL_PREFIX = '[LightGBM] [Fatal] '

/** An instance from {@link loadWasmModule}. */
export interface LoadedWasmModule {
  readonly module: LightGbmWasmModule
  readonly info: WasmBuildInfo
  /** Threads the instance was loaded with. */
  readonly threads: number
  /**
   * The message of the last `[LightGBM] [Fatal]` line printed since the previous call, if any
   * (and forgets it). LightGBM prints it before throwing the same text as a C++ exception.
   */
  readonly takeFatalMessage: () => string | undefined
}

function checkThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `threads must be a whole number from 1 to ${MAX_THREADS}, got ${String(threads)}`,
    )
  }
}

/**
 * Instantiates LightGBM's WebAssembly module: a fresh instance with its own memory each
 * call (the binary is compiled once per thread and folder). A threaded build's instance also
 * gets its own `threads - 1` worker threads; they do not keep the process alive.
 * @param options - thread count, where the build is and where LightGBM's log lines go
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad thread count or spin count, or `threads > 1`
 *   with a single-threaded build; `NOT_FOUND` when the build is missing; `MALFORMED_JSON` naming the
 *   file when its `build-info.json` is not JSON or not of its shape
 */
export async function loadWasmModule(
  options: LoadWasmOptions = {},
): Promise<LoadedWasmModule> {
  const threads = options.threads ?? 1
  checkThreads(threads)
  const spinPolls = options.spinPolls ?? DEFAULT_SPIN_POLLS
  if (!Number.isInteger(spinPolls) || spinPolls < 0 || spinPolls > 2 ** 31 - 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `spinPolls must be a whole number from 0 to 2147483647, got ${String(spinPolls)}`,
    )
  }
  const dir = resolveDir(options.wasmDir ?? (threads > 1 ? DEFAULT_THREADED_DIR : DEFAULT_WASM_DIR))
  const { factory, module: compiledModule, info } = prepare(dir)
  const threaded = info.threaded === true
  if (threads > 1 && !threaded) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `threads: ${threads} needs a threaded build, but ${dir} holds the single-threaded build ${info.variant}`,
      { details: { file: dir } },
    )
  }
  const compiledWasm = await compiledModule
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
  const log = options.onLog ?? ((): void => undefined)
  let fatal: string | undefined
  const printErr = (line: string): void => {
    if (line.startsWith(FATAL_PREFIX)) {
      fatal = line.slice(FATAL_PREFIX.length)
    }
    log(line)
  }
  let failInstantiation: (error: unknown) => void = () => undefined
  const instantiationFailed = new Promise<never>((_, reject) => {
    failInstantiation = reject
  })
  const module = await Promise.race([
    factory({
      print: log,
      printErr,
      // The pool size of a threaded build (PTHREAD_POOL_SIZE reads it; one idle worker at
      // least); Emscripten waits for these workers to load before it resolves, so LightGBM
      // never waits for one to start.
      pubmatchWorkers: threaded ? threads - 1 : 0,
      // Emscripten asks for `lightgbm.worker.js`; the build ships it as `.cjs` (CommonJS in an
      // ES-module package).
      locateFile: (path: string): string =>
        path.endsWith('.worker.js') ? `${dir}${path.slice(0, -'.js'.length)}.cjs` : `${dir}${path}`,
      instantiateWasm: (imports: object, receive: (instance: object, module: object) => void): object => {
        wasm.instantiate(compiledWasm, imports).then(
          (instance) => receive(instance, compiledWasm),
          (error: unknown) =>
            failInstantiation(
              new PubmatchError('INTERNAL', `cannot instantiate ${dir}lightgbm.wasm`, { cause: error }),
            ),
        )
        return {}
      },
    }),
    instantiationFailed,
  ])
  if (threaded) {
    module._pubmatch_omp_set_thread_limit?.(threads)
    module._pubmatch_omp_set_spin?.(spinPolls)
    // Idle workers sleep on a futex; unref'd, they do not keep Node running.
    for (const worker of [...(module.PThread?.unusedWorkers ?? []), ...(module.PThread?.runningWorkers ?? [])]) {
      worker.unref()
    }
  }
  const takeFatalMessage = (): string | undefined => {
    const message = fatal
    fatal = undefined
    return message
  }
  return { module, info, threads, takeFatalMessage }
}

/**
 * Ends the worker threads of a threaded instance (nothing to do for a single-threaded one).
 * The instance must not be used afterwards.
 * @param module - an instance from {@link loadWasmModule}
 */
export async function terminateWasmModule(module: LightGbmWasmModule): Promise<void> {
  const workers = [...(module.PThread?.unusedWorkers ?? []), ...(module.PThread?.runningWorkers ?? [])]
  await Promise.all(workers.map((worker) => worker.terminate()))
}
