import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { json, type JsonShape } from '@pubmatch/core'

const run = promisify(execFile)

/** What one benchmark case measured, in its own child process. */
export interface CaseResult {
  name: string
  /** Wall-clock seconds of the measured part. */
  seconds: number
  /** Peak resident set size of the child process, in MiB. */
  peakRssMiB: number
  /** Case-specific numbers (records, bytes, …). */
  values: Record<string, number>
}

/**
 * Runs one case in a fresh Node process so its peak RSS is its own, and returns what the
 * case printed as JSON on its last line.
 * @param name - the case name (see `cases.ts`)
 * @param args - arguments for the case
 */
export async function runCase(name: string, args: readonly string[] = []): Promise<CaseResult> {
  const script = fileURLToPath(new URL('./case.js', import.meta.url))
  const { stdout } = await run(process.execPath, ['--expose-gc', script, name, ...args], { maxBuffer: 16 * 1024 * 1024 })
  return lastJsonLine(stdout, CASE_RESULT, `case ${name}`)
}

const CASE_RESULT: JsonShape<CaseResult> = json.object({ name: json.string, seconds: json.number, peakRssMiB: json.number, values: json.record(json.number) })

/** The machine, for BENCHMARKS.md (see @pubmatch/bench-kit). */
export { machineDescription as machine } from '@pubmatch/bench-kit'
