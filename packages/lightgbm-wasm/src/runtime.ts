import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { FeatureMatrix } from './matrix.ts'
import type { LightGbmWasmModule, Pointer, WasmBuildInfo } from './module.ts'

/** LightGBM's C_API_DTYPE_* codes. */
export const DTYPE_FLOAT32 = 0
export const DTYPE_FLOAT64 = 1
export const DTYPE_INT32 = 2

/**
 * The state one WebAssembly instance shares with its datasets and boosters: the module,
 * a scratch area for out-parameters and the count of live native handles. Internal.
 */
export class Runtime {
  readonly module: LightGbmWasmModule
  readonly info: WasmBuildInfo
  /** 64 bytes for out-parameters of one C call at a time. */
  readonly scratch: Pointer
  liveDatasets = 0
  liveBoosters = 0

  constructor(module: LightGbmWasmModule, info: WasmBuildInfo) {
    this.module = module
    this.info = info
    this.scratch = module._malloc(64)
  }

  /**
   * Throws LightGBM's last error when a C API call returned non-zero.
   * @param fn - the C function, named in the message
   * @param rc - its return code
   */
  check(fn: string, rc: number): void {
    if (rc !== 0) {
      const text = this.module.UTF8ToString(this.module._LGBM_GetLastError())
      throw new PubmatchError('LIGHTGBM', `lightgbm-wasm: ${fn} failed: ${truncateForMessage(text)}`, {
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
        `lightgbm-wasm: out of WebAssembly memory allocating ${bytes} bytes (the heap is capped at 4 GiB)`,
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
      this.module.HEAPF32.set(data, ptr >>> 2)
      return { ptr, dtype: DTYPE_FLOAT32 }
    }
    this.module.HEAPF64.set(data, ptr >>> 3)
    return { ptr, dtype: DTYPE_FLOAT64 }
  }

  /** Reads the int32 out-parameter at `scratch + offset`. */
  scratchInt32(offset = 0): number {
    return this.module.HEAP32[(this.scratch + offset) >>> 2] ?? 0
  }

  /** Reads the pointer out-parameter at `scratch + offset`. */
  scratchPointer(offset = 0): Pointer {
    return this.module.HEAPU32[(this.scratch + offset) >>> 2] ?? 0
  }

  /** Reads the int64 out-parameter at `scratch + offset` (exact below 2^53). */
  scratchInt64(offset = 0): number {
    const base = (this.scratch + offset) >>> 2
    const low = this.module.HEAPU32[base] ?? 0
    const high = this.module.HEAP32[base + 1] ?? 0
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
        buffers.forEach((buffer, i) => {
          this.module.HEAPU32[(table >>> 2) + i] = buffer
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
    throw new PubmatchError('INTERNAL', `lightgbm-wasm: ${fn} kept asking for a larger buffer`)
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
