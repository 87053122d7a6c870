import { describe, expect, it } from 'vitest'
import { workerExecArgv } from './workers.ts'

describe('workerExecArgv', () => {
  it('drops export conditions and keeps every other option', () => {
    expect(
      workerExecArgv(['--conditions', '@pubmatch/source', '-C', 'node', '--conditions=dev', '--max-old-space-size=4096', '--require', 'x.cjs']),
    ).toEqual(['--max-old-space-size=4096', '--require', 'x.cjs'])
  })
})
