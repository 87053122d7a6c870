import { afterEach, describe, expect, it, vi } from 'vitest'
import { sharedDataDir } from './shared-data.ts'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('sharedDataDir', () => {
  it('takes $PUBMATCH_SHARED when it is set', () => {
    vi.stubEnv('PUBMATCH_SHARED', import.meta.dirname)
    expect(sharedDataDir()).toBe(import.meta.dirname)
  })

  it('says where it looked when the folder is missing', () => {
    vi.stubEnv('PUBMATCH_SHARED', '/nonexistent/shared/data')
    expect(() => sharedDataDir()).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: shared data not found at /nonexistent/shared/data (set PUBMATCH_SHARED)]`)
  })
})
