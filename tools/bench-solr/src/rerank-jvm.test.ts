import { describe, expect, it } from 'vitest'
import { parseHeapInfo } from './rerank-jvm.ts'

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
