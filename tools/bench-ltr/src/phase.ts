/**
 * Wall time, CPU time and memory of one benchmark phase.
 */
import { cpuSeconds } from './stats.ts'

/** What a phase cost. */
export interface PhaseFigures {
  /** Wall-clock seconds. */
  readonly wallS: number
  /** CPU seconds of the whole process (user + system, every thread). */
  readonly cpuS: number
  /** The process's peak resident set so far (MB, `maxRSS`): monotonic over the run. */
  readonly peakRssMb: number
  /** Resident set when the phase ended (MB). */
  readonly rssMb: number
}

const MB = 1024 * 1024

function figures(started: number, cpu: NodeJS.CpuUsage): PhaseFigures {
  return {
    wallS: (performance.now() - started) / 1000,
    cpuS: cpuSeconds(cpu, process.cpuUsage()),
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    rssMb: process.memoryUsage.rss() / MB,
  }
}

/**
 * Runs a synchronous phase and measures it.
 * @param run - the phase
 */
export function measurePhase<T>(run: () => T): { value: T; figures: PhaseFigures } {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = run()
  return { value, figures: figures(started, cpu) }
}

/**
 * Runs an asynchronous phase and measures it.
 * @param run - the phase
 */
export async function measurePhaseAsync<T>(run: () => Promise<T>): Promise<{ value: T; figures: PhaseFigures }> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = await run()
  return { value, figures: figures(started, cpu) }
}
