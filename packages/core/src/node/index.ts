/**
 * `@pubmatch/core/node`: the file-system helpers every package that persists data shares
 * (Node only; the main entry point stays free of Node APIs).
 */
export { syncDirectory, temporaryPathFor, writeFileAtomic, writeNewFile } from './fs.ts'
export { createJsonlLog } from './jsonl-log.ts'
export { packageVersion, readJsonFile, readJsonFileSync } from './json-file.ts'
export type { JsonFileOptions } from './json-file.ts'
export type { JsonlLog, JsonlLogOptions, LogLocation, LogProblem } from './jsonl-log.ts'
export { workerExecArgv } from './workers.ts'
