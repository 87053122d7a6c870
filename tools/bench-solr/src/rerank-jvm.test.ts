import { describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { damonPageout, parseHeapInfo } from './rerank-jvm.ts'

describe('parseHeapInfo', () => {
  it('reads the committed and used heap of G1 in MiB', () => {
    const text = [
      '12345:',
      ' garbage-first heap   total 1048576K, used 524800K [0x0000000700000000, 0x0000000800000000)',
      '  region size 1024K, 200 young (204800K), 10 survivors (10240K)',
      ' Metaspace       used 61440K, committed 62464K, reserved 1114112K',
    ].join('\n')
    expect(parseHeapInfo(text)).toEqual({ totalMiB: 1024, usedMiB: 512.5 })
  })

  it('gives undefined for text without a heap line', () => {
    expect(parseHeapInfo('12345:\nCommand executed successfully')).toBeUndefined()
  })
})

describe('damonPageout', () => {
  it('is true only for a running kdamond whose first scheme pages out', () => {
    const root = mkdtempSync(join(tmpdir(), 'damon-'))
    mkdirSync(join(root, '0/contexts/0/schemes/0'), { recursive: true })
    writeFileSync(join(root, '0/state'), 'on\n')
    writeFileSync(join(root, '0/contexts/0/schemes/0/action'), 'pageout\n')
    expect(damonPageout(root)).toBe(true)
    writeFileSync(join(root, '0/state'), 'off\n')
    expect(damonPageout(root)).toBe(false)
    expect(damonPageout(join(root, 'missing'))).toBe(false)
  })
})
