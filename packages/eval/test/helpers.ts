import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { sharedDataPath } from '@pubmatch/core/testing'

/** This package's test fixtures. */
export const fixtures: URL = new URL('./fixtures/', import.meta.url)

/**
 * Reads a fixture as text, gunzipping `.gz` files.
 * @param name - path relative to test/fixtures
 */
export function fixtureText(name: string): string {
  const bytes = readFileSync(new URL(name, fixtures))
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

/**
 * Absolute path of a file of the real data set (only in tests tagged `real-data`).
 * @param name - path relative to the data folder, e.g. `nfcorpus/dev/s-3.qrel`
 */
export function dataPath(name: string): string {
  return sharedDataPath(...name.split('/'))
}

/**
 * Absolute path of a fixture.
 * @param name - path relative to test/fixtures
 */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(name, fixtures))
}
