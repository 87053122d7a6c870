/**
 * The cluster JVM's heap, read with the JDK's `jcmd` (the local cluster runs with Solr's metrics
 * off, so the metrics API has no `solr.jvm` registry): `GC.heap_info` before and after a full GC
 * (`GC.run`), so the used heap after it is the live set.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** The heap as `GC.heap_info` prints it, MiB. */
export interface HeapInfo {
  /** Committed heap (`total`). */
  readonly totalMiB: number
  readonly usedMiB: number
}

/** The JVM's heap around a full GC. */
export interface JvmHeap {
  readonly before: HeapInfo
  /** After `jcmd GC.run`: the live set. */
  readonly afterGc: HeapInfo
}

/**
 * Parses `jcmd <pid> GC.heap_info` (any collector: the first `total …K, used …K` line).
 * @param text - its output
 * @returns the heap, or `undefined` when the text has no such line
 */
export function parseHeapInfo(text: string): HeapInfo | undefined {
  const match = /total (\d+)K, used (\d+)K/.exec(text)
  if (match === null) {
    return undefined
  }
  return { totalMiB: Number(match[1]) / 1024, usedMiB: Number(match[2]) / 1024 }
}

function heapInfo(pid: number): HeapInfo | undefined {
  const run = spawnSync('jcmd', [String(pid), 'GC.heap_info'], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  return run.status === 0 ? parseHeapInfo(run.stdout) : undefined
}

/**
 * The heap now and after a full GC.
 * @param pid - the JVM
 * @returns `undefined` when `jcmd` is missing or fails
 */
export function jvmHeap(pid: number): JvmHeap | undefined {
  const before = heapInfo(pid)
  if (before === undefined) {
    return undefined
  }
  spawnSync('jcmd', [String(pid), 'GC.run'], { encoding: 'utf8', timeout: 120_000 })
  const afterGc = heapInfo(pid)
  return afterGc === undefined ? undefined : { before, afterGc }
}

/**
 * Whether the kernel runs a DAMON `pageout` scheme (kdamond), which reclaims cold pages: an idle
 * process's RSS then reads low.
 * @param root - the DAMON sysfs directory. Defaults to `/sys/kernel/mm/damon/admin/kdamonds`.
 */
export function damonPageout(root = '/sys/kernel/mm/damon/admin/kdamonds'): boolean {
  try {
    const state = readFileSync(`${root}/0/state`, 'utf8').trim()
    const action = readFileSync(`${root}/0/contexts/0/schemes/0/action`, 'utf8').trim()
    return state === 'on' && action === 'pageout'
  } catch {
    return false
  }
}
