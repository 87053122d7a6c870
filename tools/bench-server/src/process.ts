/**
 * The server under test in its own process, and a sampler of that process's CPU time and RSS
 * from `/proc` (so the load generator's own work is not counted).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parseProcStatTicks } from '@pubmatch/bench-kit'
import { parseVmRssKiB, type ProcSample } from './stats.ts'

/** A started server. */
export interface ServerProcess {
  readonly pid: number
  /** `http://127.0.0.1:PORT`. */
  readonly url: string
  /** Milliseconds from spawn to the "serving" line (index, model and forward store opened). */
  readonly startMs: number
  /** The last lines it wrote to stderr (for error messages). */
  stderrTail(): string
  /** SIGTERM, then waits for it to exit (SIGKILL after 10 s). */
  stop(): Promise<number | null>
}

/**
 * Spawns `node <script> <args>` and waits until it prints `… serving … at http://…` on stdout.
 * @param script - the server's entry (`apps/server/dist/bin.js` or this package's `dist/serve.js`)
 * @param args - its arguments
 * @param env - extra environment variables
 * @param timeoutMs - how long to wait for the "serving" line. Defaults to 300 s.
 */
export async function spawnServer(script: string, args: readonly string[], env: Readonly<Record<string, string>>, timeoutMs = 300_000): Promise<ServerProcess> {
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`bench-server: the server did not start within ${timeoutMs / 1000} s: ${stderr}`)), timeoutMs)
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      out += chunk
      const match = /serving .* at (http:\/\/\S+)/.exec(out)
      if (match !== null) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`bench-server: the server exited with ${code} before listening: ${stderr}`))
    })
  })
  const startMs = performance.now() - started
  return {
    pid: child.pid!,
    url,
    startMs,
    stderrTail: () => stderr,
    async stop() {
      if (child.exitCode !== null) {
        return child.exitCode
      }
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const code = await exited
      clearTimeout(killer)
      return code
    },
  }
}

/** The kernel's clock ticks per second (see @pubmatch/bench-kit). */
export { clockTicksPerSecond } from '@pubmatch/bench-kit'

/** A running sampler. */
export interface Sampler {
  /** Takes a last sample and returns them all. */
  stop(): ProcSample[]
}

/**
 * Samples a process's utime + stime (`/proc/<pid>/stat`) and VmRSS (`/proc/<pid>/status`) now
 * and every `intervalMs`.
 * @param pid - the process
 * @param intervalMs - defaults to 500
 */
export function startSampler(pid: number, intervalMs = 500): Sampler {
  const samples: ProcSample[] = []
  const sample = (): void => {
    try {
      const ticks = parseProcStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'))
      const rssKiB = parseVmRssKiB(readFileSync(`/proc/${pid}/status`, 'utf8'))
      samples.push({ ms: performance.now(), ticks, rssKiB })
    } catch {
      // the process is gone: keep what was sampled
    }
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return samples
    },
  }
}
