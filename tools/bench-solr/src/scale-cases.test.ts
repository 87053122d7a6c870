import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseJson } from '@pubmatch/core'
import { prepareBatches } from './scale-batches.ts'
import { SCALE_CASE } from './scale-cases.ts'

const dir = mkdtempSync(join(tmpdir(), 'bench-solr-cases-'))
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('a case request', () => {
  it('is checked before the case runs', () => {
    const request = { kind: 'batches', dir: '/tmp/x', docs: 10, seed: 1, batchSize: 5 }
    expect(parseJson(JSON.stringify(request), SCALE_CASE, { file: 'request' })).toEqual(request)
    expect(() =>
      parseJson('{"kind": "serve", "dir": "/tmp/x", "queries": 10}', SCALE_CASE, { file: 'the case request (argument 1)', code: 'INVALID_ARGUMENT' }),
    ).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: the case request (argument 1): warmup is missing, expected a non-negative integer]`)
  })
})

describe('the batches file’s manifest', () => {
  it('is refused, naming the file, when it is not of its shape', async () => {
    const path = join(dir, 'solr-batches-synth-10-seed1-b5.jsonl')
    writeFileSync(path, '')
    writeFileSync(`${path}.done.json`, '{"docs": 10, "seed": 1, "batchSize": 5, "batches": "2"}')
    const error = await prepareBatches(dir, 10, 1, 5).catch((e: unknown) => e)
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(
      `"<dir>/solr-batches-synth-10-seed1-b5.jsonl.done.json: batches is "2", expected a non-negative integer"`,
    )
  })
})
