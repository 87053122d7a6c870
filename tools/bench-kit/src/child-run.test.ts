import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { json } from '@pubmatch/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runJsonChild } from './child.ts'

describe('runJsonChild', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-kit-child-'))
    await writeFile(
      join(dir, 'ok.mjs'),
      "console.log('progress'); console.log(JSON.stringify({ n: Number(process.argv[2]), x: null }))\n",
    )
    await writeFile(join(dir, 'fails.mjs'), 'process.exit(3)\n')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const shape = json.object({ n: json.number, x: json.numberOrNaN })

  it('returns the last stdout line as checked JSON, null as NaN on request, and reports the child', async () => {
    const children: unknown[] = []
    const result = await runJsonChild(join(dir, 'ok.mjs'), ['7'], shape, {
      what: 'case ok',
      timeLimitMs: 600_000,
      nullAsNaN: true,
      onChild: (child) => children.push(child === undefined ? 'ended' : 'started'),
    })
    expect(result).toEqual({ n: 7, x: Number.NaN })
    expect(children).toEqual(['started', 'ended'])
  })

  it('names the child and its exit status when it fails', async () => {
    await expect(
      runJsonChild(join(dir, 'fails.mjs'), [], shape, { what: 'case fails', timeLimitMs: 600_000 }),
    ).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'case fails exited with status 3',
    })
  })
})
