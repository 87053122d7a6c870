import { existsSync, mkdirSync, openSync, closeSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { createSyntheticRankingSet, type SyntheticRankingSet } from '@pubmatch/lightgbm-wasm/testing'
import { buildDir } from './paths.ts'

/** The benchmark set: 2,000 queries × 100 documents × 179 features, 5 grades. */
export const BENCH_SHAPE = { numQueries: 2000, docsPerQuery: 100, numFeatures: 179, numGrades: 5, seed: 1 } as const

export function benchData(): SyntheticRankingSet {
  return createSyntheticRankingSet({ ...BENCH_SHAPE, dtype: 'float32' })
}

/**
 * Writes the set as the native driver reads it: int32 rows, cols, groups; float32 features;
 * float32 labels; int32 group sizes.
 */
export function writeDataFile(set: SyntheticRankingSet): string {
  mkdirSync(buildDir, { recursive: true })
  const path = join(buildDir, 'bench-data.bin')
  if (existsSync(path)) {
    return path
  }
  const fd = openSync(path, 'w')
  try {
    writeSync(fd, Int32Array.of(set.features.numRows, set.features.numFeatures, set.groups.length))
    writeSync(fd, set.features.data)
    writeSync(fd, set.labels)
    writeSync(fd, set.groups)
  } finally {
    closeSync(fd)
  }
  return path
}
