import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const exec = promisify(execFile)
const packageDir = fileURLToPath(new URL('..', import.meta.url))
const script = join(packageDir, 'scripts', 'build-wasm.mjs')

async function buildWasm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [script, ...args], { cwd: packageDir })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

interface BuildInfo {
  inputsHash: string
  inputs: { emscripten: string; compileFlags: string[]; ownFiles: Record<string, string> }
  outputs: Record<string, { bytes: number; sha256: string }>
}

describe('the committed WebAssembly builds', () => {
  let copy: string
  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'lightgbm-wasm-'))
  })
  afterAll(async () => {
    await rm(copy, { recursive: true, force: true })
  })

  it('match the inputs in this tree and the output hashes their manifests record', async () => {
    const result = await buildWasm('--check')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/wasm\/ matches its inputs/)
    expect(result.stdout).toMatch(/wasm\/threaded\/ matches its inputs/)
  })

  it('record machine-independent inputs: no checkout or pnpm-store path, the pinned toolchain', async () => {
    for (const dir of ['wasm', 'wasm/threaded']) {
      const info = JSON.parse(await readFile(join(packageDir, dir, 'build-info.json'), 'utf8')) as BuildInfo
      const inputs = JSON.stringify(info.inputs)
      expect(inputs).not.toContain(packageDir)
      expect(inputs).not.toContain('node_modules')
      expect(info.inputs.emscripten).toBe('3.1.6')
      expect(info.inputs.compileFlags).toContain('-ffile-prefix-map=<lightgbm>=lightgbm')
      expect(Object.keys(info.inputs.ownFiles)).toContain('csrc/pubmatch_heap.c')
      expect(Object.keys(info.outputs).sort()).toEqual(
        dir === 'wasm' ? ['lightgbm.cjs', 'lightgbm.wasm'] : ['lightgbm.cjs', 'lightgbm.wasm', 'lightgbm.worker.cjs'],
      )
    }
  })

  it('fails the check, naming the file, when a committed binary is not what its manifest records', async () => {
    await cp(join(packageDir, 'wasm'), join(copy, 'wasm'), { recursive: true })
    const binary = join(copy, 'wasm', 'lightgbm.wasm')
    const bytes = await readFile(binary)
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1)
    await writeFile(binary, bytes)
    const result = await buildWasm('--check', '--root', copy, '--only', 'release')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/release: wasm\/lightgbm\.wasm has SHA-256 [0-9a-f]{16}…, the manifest says [0-9a-f]{16}…/)
  })

  it('fails the check, naming the input, when the manifest was made from other inputs', async () => {
    await rm(join(copy, 'wasm'), { recursive: true, force: true })
    await cp(join(packageDir, 'wasm'), join(copy, 'wasm'), { recursive: true })
    const infoPath = join(copy, 'wasm', 'build-info.json')
    const info = JSON.parse(await readFile(infoPath, 'utf8')) as BuildInfo
    info.inputs.compileFlags = info.inputs.compileFlags.filter((flag) => flag !== '-msimd128')
    info.inputsHash = '0'.repeat(64)
    await writeFile(infoPath, JSON.stringify(info))
    const result = await buildWasm('--check', '--root', copy, '--only', 'release')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/release: .*wasm was built from other inputs \(changed: compileFlags\)/)
  })

  it('are in the package tarball, so that users of @pubmatch/lightgbm-wasm never compile', async () => {
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir })
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path)
    expect(files).toEqual(
      expect.arrayContaining([
        'wasm/lightgbm.wasm',
        'wasm/lightgbm.cjs',
        'wasm/build-info.json',
        'wasm/threaded/lightgbm.wasm',
        'wasm/threaded/lightgbm.cjs',
        'wasm/threaded/lightgbm.worker.cjs',
        'wasm/threaded/build-info.json',
      ]),
    )
    expect(files.some((file) => file.startsWith('build/'))).toBe(false)
  })
})
