import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as json from '../json/shapes.ts'
import { pathToFileURL } from 'node:url'
import { packageVersion, readJsonFile, readJsonFileSync } from './json-file.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-core-json-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const STATE = json.object({ generation: json.count })

describe('readJsonFile', () => {
  it('reads and checks a file, asynchronously and synchronously', async () => {
    const file = join(dir, 'state.json')
    await writeFile(file, '{"generation": 4}\n')
    expect(await readJsonFile(file, STATE)).toEqual({ generation: 4 })
    expect(readJsonFileSync(file, STATE)).toEqual({ generation: 4 })
  })

  it('gives NOT_FOUND for a missing file and IO for one that cannot be read', async () => {
    await expect(readJsonFile(join(dir, 'none.json'), STATE)).rejects.toMatchObject({ code: 'NOT_FOUND', message: `${join(dir, 'none.json')} does not exist` })
    expect(() => readJsonFileSync(dir, STATE)).toThrowError(expect.objectContaining({ code: 'IO', details: { file: dir } }) as Error)
  })

  it('gives the caller’s code, naming the file, for a damaged one', async () => {
    const file = join(dir, 'state.json')
    await writeFile(file, '{"generation": "4"}')
    const error = await readJsonFile(file, STATE, { code: 'INDEX_CORRUPTED' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INDEX_CORRUPTED', details: { file, field: 'generation' } })
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`"<dir>/state.json: generation is "4", expected a non-negative integer"`)
  })
})

describe('packageVersion', () => {
  it('reads the version of a package.json given as a path or a file URL', async () => {
    const file = join(dir, 'package.json')
    await writeFile(file, '{"name": "@pubmatch/x", "version": "1.2.3"}')
    expect(packageVersion(file)).toBe('1.2.3')
    expect(packageVersion(pathToFileURL(file))).toBe('1.2.3')
  })

  it('names the file when it has no string version', async () => {
    const file = join(dir, 'package.json')
    await writeFile(file, '{"name": "@pubmatch/x", "version": 1}')
    let error: unknown
    try {
      packageVersion(file)
    } catch (caught) {
      error = caught
    }
    expect(error).toMatchObject({ code: 'MALFORMED_JSON', details: { file, field: 'version' } })
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`"<dir>/package.json: version is 1, expected a string"`)
  })
})
