import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

/** This package's test fixtures. */
export const fixtures: URL = new URL('./fixtures/', import.meta.url)

/** The repository's shared real data (`../shared/data` from the repository root). */
export const sharedData: URL = new URL('../../../../shared/data/', import.meta.url)

/** Whether the shared data folder is present (it is on every pubmatch machine). */
export const hasSharedData: boolean = existsSync(fileURLToPath(sharedData))

/**
 * Reads a fixture as text, gunzipping `.gz` files.
 * @param name - path relative to test/fixtures
 */
export function fixtureText(name: string): string {
  const bytes = readFileSync(new URL(name, fixtures))
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

/**
 * Absolute path of a file under the shared data folder.
 * @param name - path relative to shared/data
 */
export function dataPath(name: string): string {
  return fileURLToPath(new URL(name, sharedData))
}

/**
 * Absolute path of a fixture.
 * @param name - path relative to test/fixtures
 */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(name, fixtures))
}
