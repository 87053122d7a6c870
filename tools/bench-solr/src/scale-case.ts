/**
 * One case of the scale benchmark in a process of its own (started by `scale.ts`):
 * `node --expose-gc dist/scale-case.js '<ScaleCase JSON>'`. Prints the result as JSON on its last
 * stdout line; progress goes to stderr.
 */
import { parseJson } from '@pubmatch/core'
import { runScaleCase, SCALE_CASE } from './scale-cases.ts'

const output = await runScaleCase(parseJson(process.argv[2] ?? '', SCALE_CASE, { file: 'the case request (argument 1)', code: 'INVALID_ARGUMENT' }))
process.stdout.write(`${JSON.stringify(output)}\n`)
