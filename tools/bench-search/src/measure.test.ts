import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dirBytes, parseLastJsonLine, timeIterable } from './measure.ts'

describe('parseLastJsonLine', () => {
  it('reads the object on the last non-empty line', () => {
    expect(parseLastJsonLine('progress…\n{"docs": 3}\n\n', 'case')).toEqual({ docs: 3 })
  })

  it('names the process when the last line is not a JSON object', () => {
    expect(() =>
      parseLastJsonLine('{"a":1}\nTraceback: boom', 'xapian_driver.py build'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/bench-search: xapian_driver.py build did not end with a JSON line: Traceback: boom]`,
    )
    expect(() => parseLastJsonLine('[1, 2]', 'case')).toThrow(/not an object/)
  })
})

describe('timeIterable', () => {
  it('counts items, calls back every N items and notes the end', () => {
    let calls = 0
    const timed = timeIterable(['a', 'b', 'c', 'd', 'e'], 2, () => calls++)
    expect(timed.endedAt).toBeUndefined()
    expect([...timed]).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(timed.count).toBe(5)
    expect(calls).toBe(2) // after the 2nd and the 4th item
    expect(timed.endedAt).toBeTypeOf('number')
    expect(timed.producingMs).toBeGreaterThanOrEqual(0)
  })
})

describe('dirBytes', () => {
  it('sums file sizes per extension, or per name without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-dirbytes-'))
    try {
      writeFileSync(join(dir, '_0.pst'), 'abc')
      writeFileSync(join(dir, '_1.pst'), 'de')
      writeFileSync(join(dir, 'INDEX.json'), '{}')
      writeFileSync(join(dir, 'iamglass'), 'xxxx')
      expect(dirBytes(dir)).toEqual({ total: 11, byKind: { pst: 5, json: 2, iamglass: 4 } })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
