import { describe, expect, it } from 'vitest'
import { json } from '@pubmatch/core'
import { lastJsonLine } from './child.ts'

const RESULT = json.object({ docs: json.count })

describe('lastJsonLine', () => {
  it('reads the object on the last non-empty line', () => {
    expect(lastJsonLine('progress…\n{"docs": 3}\n\n', RESULT, 'case')).toEqual({ docs: 3 })
  })

  it('names the process when the last line is not JSON, or not of the shape', () => {
    expect(() => lastJsonLine('{"docs": 1}\nTraceback: boom', RESULT, 'xapian_driver.py build')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the last line of xapian_driver.py build is not valid JSON: "Traceback: boom"]`,
    )
    expect(() => lastJsonLine('{"docs": "3"}', RESULT, 'case build nfcorpus')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: the last line of case build nfcorpus: docs is "3", expected a non-negative integer]`,
    )
    expect(() => lastJsonLine('[1, 2]', RESULT, 'case')).toThrowError(expect.objectContaining({ code: 'MALFORMED_JSON' }) as Error)
  })
})
