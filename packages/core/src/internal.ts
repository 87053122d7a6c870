/**
 * `@pubmatch/core/internal`: plumbing other pubmatch packages share with this one (Node only).
 * Unstable: not part of the public API, for pubmatch's own packages and benchmarks only; apps use
 * the public entry points.
 */

// The temporary name beside a file that a streamed crash-safe write renames into place (corpus segments)
export { temporaryPathFor } from './node/fs.ts'
// The Node options of worker threads, so that they load the built `dist/` (the index build, search pools)
export { workerExecArgv } from './node/workers.ts'
