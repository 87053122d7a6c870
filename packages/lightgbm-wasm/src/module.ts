import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { PubmatchError } from '@pubmatch/core'

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
}

/** Where the build put the loader and the binary, and what it recorded about itself. */
export interface WasmBuildInfo {
  /** The build configuration, e.g. `wasm-eh-simd`. */
  readonly variant: string
  /** `emcc --version`, first line. */
  readonly emcc: string
  /** LightGBM's own version (`VERSION.txt` of the sources). */
  readonly lightgbm: string
  /** Size of `lightgbm.wasm` in bytes. */
  readonly wasmBytes: number
}

/** Options of {@link loadWasmModule}. */
export interface LoadWasmOptions {
  /**
   * The folder holding `lightgbm.cjs` and `lightgbm.wasm`. Defaults to the package's
   * `wasm/` folder, where `pnpm build` puts them.
   */
  readonly wasmDir?: string | URL
  /** Receives each line LightGBM prints (`[LightGBM] [Info] …`). Defaults to discarding them. */
  readonly onLog?: (line: string) => void
}

/** The minimal WebAssembly API this file uses (lib.dom's types are not in scope). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>
  instantiate(module: object, imports: object): Promise<object>
}

type ModuleFactory = (overrides: Record<string, unknown>) => Promise<LightGbmWasmModule>

const DEFAULT_WASM_DIR = new URL('../wasm/', import.meta.url)

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
      `lightgbm-wasm: no WebAssembly build in ${dir} (lightgbm.cjs and lightgbm.wasm); run \`pnpm build\` in packages/lightgbm-wasm (it needs emcc: apt-get install -y emscripten)`,
      { details: { file: dir } },
    )
  }
  const require = createRequire(import.meta.url)
  const factory = require(loader) as ModuleFactory
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
  const module = wasm.compile(readFileSync(binary))
  const infoPath = `${dir}build-info.json`
  const info: WasmBuildInfo = existsSync(infoPath)
    ? (JSON.parse(readFileSync(infoPath, 'utf8')) as WasmBuildInfo)
    : { variant: 'unknown', emcc: 'unknown', lightgbm: 'unknown', wasmBytes: 0 }
  const entry = { factory, module, info }
  compiled.set(dir, entry)
  return entry
}

/**
 * Instantiates LightGBM's WebAssembly module: a fresh instance with its own memory each
 * call (the binary is compiled once per thread and folder).
 * @param options - where the build is and where LightGBM's log lines go
 */
export async function loadWasmModule(
  options: LoadWasmOptions = {},
): Promise<{ module: LightGbmWasmModule; info: WasmBuildInfo }> {
  const dir = resolveDir(options.wasmDir ?? DEFAULT_WASM_DIR)
  const { factory, module: compiledModule, info } = prepare(dir)
  const compiledWasm = await compiledModule
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
  const log = options.onLog ?? ((): void => undefined)
  let failInstantiation: (error: unknown) => void = () => undefined
  const instantiationFailed = new Promise<never>((_, reject) => {
    failInstantiation = reject
  })
  const module = await Promise.race([
    factory({
      print: log,
      printErr: log,
      instantiateWasm: (imports: object, receive: (instance: object, module: object) => void): object => {
        wasm.instantiate(compiledWasm, imports).then(
          (instance) => receive(instance, compiledWasm),
          (error: unknown) =>
            failInstantiation(
              new PubmatchError('INTERNAL', `lightgbm-wasm: cannot instantiate ${dir}lightgbm.wasm`, { cause: error }),
            ),
        )
        return {}
      },
    }),
    instantiationFailed,
  ])
  return { module, info }
}
