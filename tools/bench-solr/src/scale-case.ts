/**
 * One case of the scale benchmark in a process of its own (started by `scale.ts`):
 * `node --expose-gc dist/scale-case.js '<ScaleCase JSON>'`. Prints the result as JSON on its last
 * stdout line; progress goes to stderr.
 */
import { runScaleCase, type ScaleCase } from './scale-cases.ts'

const output = await runScaleCase(JSON.parse(process.argv[2] ?? '{}') as ScaleCase)
process.stdout.write(`${JSON.stringify(output)}\n`)
