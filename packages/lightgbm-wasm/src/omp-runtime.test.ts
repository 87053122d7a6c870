import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runToEnd, stopChildren } from '../test/child-process.ts'

// The OpenMP runtime of the threaded build (csrc/omp/pubmatch_omp.c) is C; its unit test
// (csrc/omp/pubmatch_omp_test.c) is compiled here by emcc with clang's -fopenmp, exactly as
// LightGBM is, and run under Node with a pool of 3 worker threads (a team of 4 with the
// calling thread). The test prints one `ok - …` / `not ok - …: …` line per check.
//
// It needs emcc, which only a change to the WebAssembly's inputs needs (the builds are committed,
// see README "How the build works"): without emcc it is skipped. CI installs emcc and runs it
// whenever a committed build changed, which any change to csrc/omp/ does.
const env = { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') }
const hasEmcc = spawnSync('emcc', ['--version'], { env, encoding: 'utf8' }).status === 0
const ompDir = fileURLToPath(new URL('../csrc/omp/', import.meta.url))
const CHECKS = 27

let workDir = ''
let output = { status: -1 as number | null, stdout: '', stderr: '' }

beforeAll(async () => {
  if (!hasEmcc) {
    return
  }
  workDir = mkdtempSync(join(tmpdir(), 'pubmatch-omp-'))
  const program = join(workDir, 'omp-test.js')
  const compile = spawnSync(
    'emcc',
    [
      '-O2',
      '-Wall',
      '-Werror',
      '-fopenmp',
      '-pthread',
      '-sPTHREAD_POOL_SIZE=3',
      '-sPTHREAD_POOL_SIZE_STRICT=2',
      '-sEXIT_RUNTIME=1',
      '-sENVIRONMENT=node',
      '-sWASM_ASYNC_COMPILATION=0',
      `-I${ompDir}`,
      join(ompDir, 'pubmatch_omp_test.c'),
      join(ompDir, 'pubmatch_omp.c'),
      '-o',
      program,
    ],
    { env, encoding: 'utf8' },
  )
  expect(compile.error, 'emcc is required (apt-get install -y emscripten)').toBeUndefined()
  expect(compile.stderr, 'emcc reported problems').toBe('')
  expect(compile.status).toBe(0)
  expect(existsSync(program)).toBe(true)
  // No time limit: the suite's hang guard stops a program that never ends.
  const result = await runToEnd(process.execPath, [program])
  output = { status: result.status, stdout: result.stdout, stderr: result.stderr }
})

afterAll(async () => {
  await stopChildren()
  if (workDir !== '') {
    rmSync(workDir, { recursive: true, force: true })
  }
})

describe.runIf(hasEmcc)('pubmatch OpenMP runtime (C unit test under Node)', () => {
  it('passes every check and exits with status 0', () => {
    const lines = output.stdout.split('\n').filter((line) => line.startsWith('ok') || line.startsWith('not ok'))
    expect(lines.filter((line) => line.startsWith('not ok'))).toEqual([])
    expect(lines).toHaveLength(CHECKS)
    expect(output.stdout).toContain('# 0 failed')
    expect(output.stderr).toBe('')
    expect(output.status).toBe(0)
  })

  it('covers the constructs LightGBM uses', () => {
    const names = output.stdout
      .split('\n')
      .filter((line) => line.startsWith('ok - '))
      .map((line) => line.slice('ok - '.length))
    expect(names).toEqual(
      expect.arrayContaining([
        'schedule(static) gives balanced contiguous blocks',
        'schedule(static, 2) deals chunks round-robin',
        'dynamic and guided loops run every iteration once',
        'a double reduction combines partial sums in thread order, every run',
        'critical sections make 4 x 10000 plain increments exact',
        'a nested region is serialised: team of one at level 2 inside an active region',
        "LightGBM's team-size probe reads 4",
        'a team never waits for a worker the pthread pool cannot provide',
      ]),
    )
  })
})
