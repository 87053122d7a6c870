import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** tools/bench-lightgbm */
export const benchDir: string = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** Intermediate files: the data file, the native build, trained models. Gitignored. */
export const buildDir: string = join(benchDir, 'build')
/** packages/lightgbm-wasm */
export const packageDir: string = resolve(benchDir, '..', '..', 'packages', 'lightgbm-wasm')

/** LightGBM's C++ sources inside the registry package `lightgbm`. */
export function lightgbmSourceDir(): string {
  const require = createRequire(join(benchDir, 'package.json'))
  return join(dirname(require.resolve('lightgbm/package.json')), 'dependencies', 'LightGBM')
}
