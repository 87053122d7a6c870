import { describe, expect, it } from 'vitest'
import { efetchParams, elinkParams, esummaryParams } from './request-params.ts'

const history = { webEnv: 'MCID_1', queryKey: 2 }

describe('request parameters', () => {
  it('write ids comma-joined, then the history reference, in a fixed order', () => {
    expect(esummaryParams({ ids: [' 1', 2, ''], retmax: 5, version: '2.0' }, 'json')).toEqual([
      ['db', 'pubmed'],
      ['id', '1,2'],
      ['retmax', '5'],
      ['version', '2.0'],
      ['retmode', 'json'],
    ])
    expect(efetchParams({ history, retstart: 200, retmax: 200, rettype: 'abstract' })).toEqual([
      ['db', 'pubmed'],
      ['WebEnv', 'MCID_1'],
      ['query_key', '2'],
      ['retstart', '200'],
      ['retmax', '200'],
      ['rettype', 'abstract'],
      ['retmode', 'xml'],
    ])
  })

  it('give ELink one id parameter per group, ids first, then the history and extras', () => {
    expect(
      elinkParams(
        {
          ids: [1, 2],
          idGroups: [[3], [], [' 4 ', 5]],
          cmd: 'neighbor_score',
          history,
          extra: { tool: 'pubmatch' },
        },
        'xml',
      ),
    ).toEqual([
      ['dbfrom', 'pubmed'],
      ['cmd', 'neighbor_score'],
      ['id', '1,2'],
      ['id', '3'],
      ['id', '4,5'],
      ['WebEnv', 'MCID_1'],
      ['query_key', '2'],
      ['retmode', 'xml'],
      ['tool', 'pubmatch'],
    ])
    expect(elinkParams({ idGroups: [[7]] }, 'json')).toContainEqual(['id', '7'])
  })

  it('refuse a request with neither ids nor a history reference', () => {
    expect(() => esummaryParams({ ids: [' '] }, 'xml')).toThrow(
      'entrez esummary needs ids or a history reference (webEnv + queryKey)',
    )
    expect(() => efetchParams({})).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => elinkParams({ ids: [], idGroups: [[]] }, 'xml')).toThrow(
      'entrez elink needs ids or a history reference (webEnv + queryKey)',
    )
  })
})
