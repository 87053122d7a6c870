import { describe, expect, it } from 'vitest'
import { formatJson } from './format-json.ts'

describe('formatJson', () => {
  it('indents objects and keeps arrays of scalars on one line', () => {
    const value = {
      a: [1, 2, 3],
      b: {
        c: 'x',
        d: [
          [1, 'y'],
          [2, 'z'],
        ],
      },
      e: [{ f: true }],
      g: undefined,
      h: [],
    }
    expect(formatJson(value)).toBe(
      '{\n  "a": [1,2,3],\n  "b": {\n    "c": "x",\n    "d": [[1,"y"],[2,"z"]]\n  },\n  "e": [\n    {\n      "f": true\n    }\n  ],\n  "h": []\n}',
    )
    expect(JSON.parse(formatJson(value))).toEqual({
      a: [1, 2, 3],
      b: {
        c: 'x',
        d: [
          [1, 'y'],
          [2, 'z'],
        ],
      },
      e: [{ f: true }],
      h: [],
    })
  })
})
