import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read } from '../../test/eutils-fixtures.ts'
import { parseEPost } from './parse-epost.ts'

describe('parseEPost', () => {
  it('reads the WebEnv and query key of biopython epost1', () => {
    expect(parseEPost(read('biopython/epost1.xml'))).toEqual({
      webEnv: 'MCID_692851c130aec64bed0a8c2a',
      queryKey: '1',
      invalidIds: [],
      warnings: [],
    })
  })

  it('turns biopython epost2 and epost3 (nothing stored) into UPSTREAM_ERROR', () => {
    expect(() => parseEPost(read('biopython/epost2.xml'))).toThrow(
      /"Invalid db name specified: nothing"/,
    )
    expect(() => parseEPost(read('biopython/epost3.xml'))).toThrow(
      /"Empty ID list; Nothing to store; Some IDs have invalid value and were omitted\. Maximum ID value 18446744073709551615"/,
    )
  })

  it('reads invalid ids next to a stored set', () => {
    const body =
      '<ePostResult><InvalidIdList><Id>abc</Id></InvalidIdList><QueryKey>2</QueryKey><WebEnv>MCID_1</WebEnv></ePostResult>'
    expect(parseEPost(body)).toEqual({
      webEnv: 'MCID_1',
      queryKey: '2',
      invalidIds: ['abc'],
      warnings: [],
    })
  })
})
