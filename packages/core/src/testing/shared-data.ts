/**
 * Where the tests' real data set lives. The suites that read it are an extra layer on top of the
 * tests on bundled data: they carry the `real-data` tag (CONTRIBUTING.md, "Tests"), which the
 * shared vitest configuration skips, and lists, when the folder is missing.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The vitest tag of every suite that reads the real data set. */
export const REAL_DATA_TAG = 'real-data'

/**
 * The real data folder: `$PUBMATCH_SHARED` when set, else `shared/data` beside the repository
 * (resolved from this file, so the same from `src/testing/` and `dist/testing/`).
 */
export function sharedDataDir(): string {
  const fromEnv = process.env['PUBMATCH_SHARED']
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : fileURLToPath(new URL('../../../../../shared/data/', import.meta.url))
}

/**
 * A path inside the real data folder (whether or not it exists: a suite tagged `real-data` is
 * skipped before it reads anything when the folder is missing).
 * @param parts - path segments inside the folder, e.g. `'nfcorpus', 'dev', 's-3.qrel'`
 */
export function sharedDataPath(...parts: string[]): string {
  return join(sharedDataDir(), ...parts)
}
