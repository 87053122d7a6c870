/**
 * The Node options of worker threads: this process's, without export conditions
 * (`--conditions`/`-C`), so that workers load the built `dist/` even when this thread runs
 * from sources (as in tests, under the `@pubmatch/source` condition).
 * @param execArgv - this process's `process.execArgv`
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!
    if (arg === '--conditions' || arg === '-C') {
      i++
    } else if (!arg.startsWith('--conditions=')) {
      out.push(arg)
    }
  }
  return out
}
