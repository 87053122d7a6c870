/**
 * `pnpm --filter @pubmatch/bench-feedback bench`: the quick parts of the relevance-feedback
 * benchmark — the latency of feedback rounds (`latency.ts`), then the simulated users
 * (`erf.ts`). The PRF study on the train grid takes longer: `bench:prf` (`prf.ts`).
 * Options: `--queries N|all` and `--warm N` for the latency part, `--limit N` for the simulation.
 */
import { parseArgs } from 'node:util'
import { runErf } from './erf.ts'
import { runLatency, type LatencyOptions } from './latency.ts'
import { log } from './setup.ts'

const { values } = parseArgs({
  options: { queries: { type: 'string' }, warm: { type: 'string' }, limit: { type: 'string' } },
})
const started = performance.now()
const latency: LatencyOptions = {
  ...(values.queries === undefined
    ? {}
    : { queries: values.queries === 'all' ? Infinity : Number(values.queries) }),
  ...(values.warm === undefined ? {} : { warm: Number(values.warm) }),
}
process.stdout.write(`${await runLatency(latency)}\n`)
process.stdout.write(
  `${await runErf(values.limit === undefined ? {} : { limit: Number(values.limit) })}\n`,
)
log(
  `bench: done in ${((performance.now() - started) / 1000).toFixed(0)} s; results in RESULTS.md and results/`,
)
