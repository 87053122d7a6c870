/**
 * `@pubmatch/core/node`: the file helpers every package that persists data shares (Node only; the
 * main entry point stays free of Node APIs): crash-safe writes, checked JSON files, the JSON-lines log.
 */
export { writeFileAtomic, writeNewFile } from './fs.ts'
export { packageVersion, readJsonFile, readJsonFileSync } from './json-file.ts'
export type { JsonFileOptions } from './json-file.ts'
export { createJsonlLog } from './jsonl-log.ts'
export type { JsonlLog, JsonlLogOptions, LogLocation, LogProblem } from './jsonl-log.ts'
