import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { benchDir, buildDir, lightgbmSourceDir } from './paths.ts'

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))))
  })
}

const newerThan = (file: string, other: string): boolean =>
  existsSync(file) && existsSync(other) && statSync(file).mtimeMs >= statSync(other).mtimeMs

/**
 * Builds native LightGBM (g++, OpenMP, -O3, the flags of LightGBM's CMakeLists on Linux)
 * from the same sources as the WebAssembly module, plus the benchmark driver. Objects are
 * cached in build/native/obj/ (LightGBM's never change; the driver's is rebuilt when
 * native/train.cpp is newer).
 * @returns the path of the driver executable
 */
export async function buildNative(): Promise<string> {
  const out = join(buildDir, 'native')
  const exe = join(out, 'train')
  const driver = join(benchDir, 'native', 'train.cpp')
  if (newerThan(exe, driver)) {
    return exe
  }
  mkdirSync(join(out, 'obj'), { recursive: true })
  const src = lightgbmSourceDir()
  const flags = [
    '-std=c++11',
    '-O3',
    '-funroll-loops',
    '-fopenmp',
    '-pthread',
    '-w',
    '-DEIGEN_MPL2_ONLY',
    '-DEIGEN_DONT_PARALLELIZE',
    '-DUSE_SOCKET',
    '-DMM_PREFETCH',
    '-DMM_MALLOC',
    `-I${join(src, 'include')}`,
    `-I${join(src, 'external_libs', 'eigen')}`,
  ]
  const sources = ['boosting', 'io', 'metric', 'objective', 'network', 'treelearner'].flatMap((group) =>
    readdirSync(join(src, 'src', group))
      .filter((name) => name.endsWith('.cpp'))
      .map((name) => join(src, 'src', group, name)),
  )
  sources.push(join(src, 'src', 'c_api.cpp'), driver)
  const objects = sources.map((source, i) => join(out, 'obj', `${i}.o`))
  const queue = sources
    .map((source, i) => ({ source, object: objects[i] ?? '' }))
    .filter((job) => !newerThan(job.object, job.source))
  console.log(`bench-lightgbm: compiling native LightGBM (${queue.length} of ${sources.length} files, g++ -O3 -fopenmp)…`)
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      await run('g++', ['-c', ...flags, job.source, '-o', job.object])
    }
  }
  await Promise.all(Array.from({ length: availableParallelism() }, worker))
  await run('g++', [...objects, '-fopenmp', '-pthread', '-o', exe])
  return exe
}
