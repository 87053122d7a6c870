import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { syncDirectory, temporaryPathFor, writeFileAtomic, writeNewFile } from './fs.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-core-fs-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('creates, then replaces, a file and leaves no temporary file', async () => {
    const file = join(dir, 'manifest.json')
    await writeFileAtomic(file, '{"v":1}')
    await writeFileAtomic(file, new TextEncoder().encode('{"v":2}'))
    expect(await readFile(file, 'utf8')).toBe('{"v":2}')
    expect(await readdir(dir)).toEqual(['manifest.json'])
  })

  it('fails with the file system error and leaves nothing behind when the directory is missing', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.txt'), 'x')).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await readdir(dir)).toEqual([])
  })

  it('removes its temporary file when the rename fails (the target is a directory)', async () => {
    await writeNewFile(join(dir, 'keep.txt'), 'k')
    const target = join(dir, 'sub')
    await (await import('node:fs/promises')).mkdir(join(target, 'inner'), { recursive: true })
    await expect(writeFileAtomic(target, 'x')).rejects.toHaveProperty('code')
    expect((await readdir(dir)).sort()).toEqual(['keep.txt', 'sub'])
  })
})

describe('writeNewFile', () => {
  it('refuses to overwrite an existing file', async () => {
    const file = join(dir, 'segment.pst')
    await writeNewFile(file, 'a')
    await expect(writeNewFile(file, 'b')).rejects.toMatchObject({ code: 'EEXIST' })
    expect(await readFile(file, 'utf8')).toBe('a')
  })
})

describe('temporaryPathFor and syncDirectory', () => {
  it('names temporary files .tmp-<name>-<pid>-<random> beside the target, each unique', () => {
    const a = temporaryPathFor(join(dir, 'run.txt'))
    expect(a.startsWith(join(dir, `.tmp-run.txt-${process.pid}-`))).toBe(true)
    expect(temporaryPathFor(join(dir, 'run.txt'))).not.toBe(a)
  })

  it('flushes an existing directory and ignores one it cannot open', async () => {
    await expect(syncDirectory(dir)).resolves.toBeUndefined()
    await expect(syncDirectory(join(dir, 'nope'))).resolves.toBeUndefined()
  })
})
