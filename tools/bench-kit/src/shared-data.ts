import { existsSync } from 'node:fs'
import { PubmatchError } from '@pubmatch/core'
import { sharedDataDir as sharedDataLocation } from '@pubmatch/core/testing'

/**
 * The real data folder the benchmarks read: `$PUBMATCH_SHARED` when set, else `shared/data`
 * beside the repository (where the tests look too).
 * @throws PubmatchError `NOT_FOUND` when it does not exist
 */
export function sharedDataDir(): string {
  const dir = sharedDataLocation()
  if (!existsSync(dir)) {
    throw new PubmatchError('NOT_FOUND', `shared data not found at ${dir} (set PUBMATCH_SHARED)`, { details: { file: dir } })
  }
  return dir
}
