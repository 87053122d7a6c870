import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { FeatureMatrix } from './matrix.ts'
import type { LightGbmWasmModule, Pointer, WasmBuildInfo } from './module.ts'

/** LightGBM's C_API_DTYPE_* codes. */
export const DTYPE_FLOAT32 = 0
export const DTYPE_FLOAT64 = 1
export const DTYPE_INT32 = 2

/** Typed views of the whole WebAssembly memory. */
export interface HeapViews {
  readonly u8: Uint8Array
  readonly i32: Int32Array
  readonly u32: Uint32Array
  readonly f32: Float32Array
  readonly f64: Float64Array
}

/**
 * The state one WebAssembly instance shares with its datasets and boosters: the module,
 * a scratch area for out-parameters and the count of live native handles. Internal.
 */
export class Runtime {
  readonly module: LightGbmWasmModule
  readonly info: WasmBuildInfo
  /** Threads the instance was loaded with. */
  readonly threads: number
  /** 64 bytes for out-parameters of one C call at a time. */
  readonly scratch: Pointer
  liveDatasets = 0
  liveBoosters = 0
  #views: HeapViews | undefined
  readonly #takeFatalMessage: () => string | undefined

  constructor(
    module: LightGbmWasmModule,
    info: WasmBuildInfo,
    threads = 1,
    takeFatalMessage: () => string | undefined = (): undefined => undefined,
  ) {
    this.module = module
    this.info = info
    this.threads = threads
    this.#takeFatalMessage = takeFatalMessage
    this.scratch = module._malloc(64)
  }

  /**
   * Views of the current memory. Use them right away: when the memory grows its buffer is
   * replaced. In a threaded build another thread may grow it, which Emscripten's `HEAP*`
   * views of this thread do not notice, so the buffer is checked on every call.
   */
  heap(): HeapViews {
    const buffer = this.module.wasmMemory?.buffer ?? this.module.HEAPU8.buffer
    const views = this.#views
    if (views !== undefined && views.u8.buffer === buffer) {
      return views
    }
    const fresh: HeapViews = {
      u8: new Uint8Array(buffer),
      i32: new Int32Array(buffer),
      u32: new Uint32Array(buffer),
      f32: new Float32Array(buffer),
      f64: new Float64Array(buffer),
    }
    this.#views = fresh
    return fresh
  }

  /**
   * Throws LightGBM's last error when a C API call returned non-zero.
   * @param fn - the C function, named in the message
   * @param rc - its return code
   */
  check(fn: string, rc: number): void {
    const fatal = this.#takeFatalMessage() // taken on every call, so that none is left over
    if (rc !== 0) {
      const reported = this.module.UTF8ToString(this.module._LGBM_GetLastError())
      // In the threaded build (Emscripten 3.1.6: -fwasm-exceptions with -pthread) no typed
      // `catch` clause matches, so LightGBM's C API catches every exception as `...` and
      // reports "unknown exception"; the message survives in the [Fatal] line it printed.
      const text = reported === 'unknown exception' && fatal !== undefined ? fatal : reported
      throw new PubmatchError('LIGHTGBM', `${fn} failed: ${truncateForMessage(text)}`, {
        details: { function: fn, lightgbmMessage: text },
      })
    }
  }

  /**
   * Calls `body` with memory from malloc and frees it afterwards, even when `body` throws.
   * @param bytes - how much to allocate
   * @param body - uses the pointer
   */
  withMemory<T>(bytes: number, body: (ptr: Pointer) => T): T {
    const ptr = this.malloc(bytes)
    try {
      return body(ptr)
    } finally {
      this.module._free(ptr)
    }
  }

  malloc(bytes: number): Pointer {
    const ptr = this.module._malloc(Math.max(1, bytes))
    if (ptr === 0) {
      throw new PubmatchError(
        'LIGHTGBM',
        `out of WebAssembly memory allocating ${bytes} bytes (the heap is capped at 4 GiB)`,
      )
    }
    return ptr
  }

  /** Copies a string as NUL-terminated UTF-8 into fresh memory (free it with `free`). */
  string(text: string): Pointer {
    const bytes = this.module.lengthBytesUTF8(text) + 1
    const ptr = this.malloc(bytes)
    this.module.stringToUTF8(text, ptr, bytes)
    return ptr
  }

  withString<T>(text: string, body: (ptr: Pointer) => T): T {
    const ptr = this.string(text)
    try {
      return body(ptr)
    } finally {
      this.module._free(ptr)
    }
  }

  /** Copies a matrix's values into fresh memory; returns the pointer and LightGBM's dtype code. */
  copyMatrix(matrix: FeatureMatrix): { ptr: Pointer; dtype: number } {
    const { data } = matrix
    const ptr = this.malloc(data.byteLength)
    if (data instanceof Float32Array) {
      this.heap().f32.set(data, ptr >>> 2)
      return { ptr, dtype: DTYPE_FLOAT32 }
    }
    this.heap().f64.set(data, ptr >>> 3)
    return { ptr, dtype: DTYPE_FLOAT64 }
  }

  /** Reads the int32 out-parameter at `scratch + offset`. */
  scratchInt32(offset = 0): number {
    return this.heap().i32[(this.scratch + offset) >>> 2] ?? 0
  }

  /** Reads the pointer out-parameter at `scratch + offset`. */
  scratchPointer(offset = 0): Pointer {
    return this.heap().u32[(this.scratch + offset) >>> 2] ?? 0
  }

  /** Reads the int64 out-parameter at `scratch + offset` (exact below 2^53). */
  scratchInt64(offset = 0): number {
    const base = (this.scratch + offset) >>> 2
    const { u32, i32 } = this.heap()
    const low = u32[base] ?? 0
    const high = i32[base + 1] ?? 0
    return high * 0x1_0000_0000 + low
  }

  /** Reads `n` C strings through an array of `n` pointers. */
  readStrings(fn: string, handle: Pointer, count: number, call: Getter): string[] {
    const bufferLen = 256
    let size = bufferLen
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const buffers = Array.from({ length: count }, () => this.malloc(size))
      const table = this.malloc(Math.max(1, count) * 4)
      try {
        const { u32 } = this.heap()
        buffers.forEach((buffer, i) => {
          u32[(table >>> 2) + i] = buffer
        })
        this.check(fn, call(handle, count, this.scratch, size, this.scratch + 8, table))
        const needed = this.scratchPointer(8)
        if (needed > size) {
          size = needed
          continue
        }
        return buffers.map((buffer) => this.module.UTF8ToString(buffer))
      } finally {
        buffers.forEach((buffer) => this.module._free(buffer))
        this.module._free(table)
      }
    }
    throw new PubmatchError('INTERNAL', `${fn} kept asking for a larger buffer`)
  }

  /** Bytes the allocator has handed out and not yet taken back. */
  heapInUse(): number {
    return this.module._pubmatch_heap_in_use() >>> 0
  }
}

/** The shape of LGBM_BoosterGetEvalNames and LGBM_BoosterGetFeatureNames. */
export type Getter = (
  handle: Pointer,
  len: number,
  outLen: Pointer,
  bufferLen: number,
  outBufferLen: Pointer,
  outStrs: Pointer,
) => number
