import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PubmatchError } from '@pubmatch/core'

/**
 * The repository's shared real-data folder (`../shared/data` from the project root), resolved
 * from this file so that it works from `src/testing/` and from `dist/testing/` alike.
 * @param sub - a path inside the data folder, e.g. `eutils`. Defaults to the folder itself.
 * @throws PubmatchError `NOT_FOUND` when the folder is missing
 */
export function sharedDataPath(sub = ''): string {
  const path = fileURLToPath(new URL(`../../../../../shared/data/${sub}`, import.meta.url))
  if (!existsSync(path)) {
    throw new PubmatchError('NOT_FOUND', `testing: shared data not found at ${path}`, {
      details: { file: path },
    })
  }
  return path
}
