import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWasmModule } from './module.ts'

const wasm = fileURLToPath(new URL('../wasm/', import.meta.url))

describe('a build folder whose build-info.json is damaged', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lightgbm-build-info-'))
    for (const name of ['lightgbm.cjs', 'lightgbm.wasm']) {
      await copyFile(join(wasm, name), join(dir, name))
    }
    const info = JSON.parse(await readFile(join(wasm, 'build-info.json'), 'utf8')) as Record<string, unknown>
    await writeFile(join(dir, 'build-info.json'), JSON.stringify({ ...info, threaded: 'no' }))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is refused, naming the file and the field', async () => {
    const error = await loadWasmModule({ wasmDir: dir }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'MALFORMED_JSON', details: { file: join(dir, 'build-info.json'), field: 'threaded' } })
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`"<dir>/build-info.json: threaded is "no", expected true or false"`)
  })
})
