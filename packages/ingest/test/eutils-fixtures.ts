import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sharedDataPath } from '@pubmatch/core/testing'

/**
 * The real E-utilities responses committed with the tests (`test/fixtures/eutils`: a subset of
 * the real data set's `eutils` folder in the same layout, see its SOURCE.md). Give it to the
 * replay server as `dataDir` with `EUTILS_ROUTES`.
 */
export const EUTILS_FIXTURES: string = fileURLToPath(new URL('./fixtures/eutils/', import.meta.url))

/**
 * Reads a committed E-utilities response.
 * @param file - its path in the data set's layout, e.g. `'biopython/esearch1.xml'`
 */
export function readEutilsFixture(file: string): string {
  return readFileSync(join(EUTILS_FIXTURES, file), 'utf8')
}

/**
 * Reads an E-utilities response of the real data set (only in suites tagged `real-data`).
 * @param file - its path inside the data set's `eutils` folder, e.g. `'klortho/einfo.pubmed.json'`
 */
export function readSharedEutils(file: string): string {
  return readFileSync(sharedDataPath('eutils', file), 'utf8')
}
